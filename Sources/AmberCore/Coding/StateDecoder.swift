import AmberArchive

/// The coder of one object at restoration: reads back what its `StateCoder` wrote (SPEC R12).
///
/// Decoding is type-checked and never traps: a missing key throws `AmberError(.notFound)`, a
/// value of another type `.typeMismatch`, a damaged archive `.corrupt`. Objects of coding
/// classes are checked against the classes the caller allows (secure coding). A decoder is valid
/// only during the callback it was given to (`.misuse` afterwards).
public final class StateDecoder {
    let core: DecoderCore
    let session: RestoreSession
    /// The index of the object's record in the archive.
    public let recordIndex: Int

    init(session: RestoreSession, record: Int) {
        self.session = session
        self.recordIndex = record
        self.core = DecoderCore(
            unarchiver: session.unarchiver, uid: session.records[record].stateUID,
            owner: .restoring(session, record))
    }

    /// The restoration path of the object being restored.
    public var restorationPath: [String] { session.records[recordIndex].path }

    /// Whether the state has a value for the key.
    public func containsValue(forKey key: String) -> Bool { core.containsValue(forKey: key) }

    /// The keys the state holds, in stored order.
    public func allKeys() -> [String] { core.allKeys() }

    /// Decodes a boolean.
    public func decodeBool(forKey key: String) throws(AmberError) -> Bool {
        try core.read { try $0.decodeBool(forKey: key) }
    }

    /// Decodes a 64-bit integer.
    public func decodeInt64(forKey key: String) throws(AmberError) -> Int64 {
        try core.read { try $0.decodeInt64(forKey: key) }
    }

    /// Decodes an integer; `.typeMismatch` if it does not fit in `Int`.
    public func decodeInt(forKey key: String) throws(AmberError) -> Int {
        let v = try decodeInt64(forKey: key)
        guard let i = Int(exactly: v) else { throw AmberError(.typeMismatch, "the integer for key '\(key)' does not fit in Int") }
        return i
    }

    /// Decodes a double (an integer is converted).
    public func decodeDouble(forKey key: String) throws(AmberError) -> Double {
        try core.read { try $0.decodeDouble(forKey: key) }
    }

    /// Decodes a string.
    public func decodeString(forKey key: String) throws(AmberError) -> String {
        try core.read { try $0.decodeString(forKey: key) }
    }

    /// Decodes bytes (NSData).
    public func decodeBytes(forKey key: String) throws(AmberError) -> [UInt8] {
        try core.read { try $0.decodeBytes(forKey: key) }
    }

    /// Decodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    public func decodeDate(forKey key: String) throws(AmberError) -> Double {
        try core.read { try $0.decodeDate(forKey: key) }
    }

    /// Decodes an index path (NSIndexPath).
    public func decodeIndexPath(forKey key: String) throws(AmberError) -> [Int] {
        try core.read { try $0.decodeIndexPath(forKey: key) }
    }

    /// Decodes any value of Foundation's standard classes.
    public func decodeValue(forKey key: String) throws(AmberError) -> ArchiveValue {
        try core.read { try $0.decodeValue(forKey: key) }
    }

    /// Decodes an object of a registered coding class (SPEC R12, R25), or nil for a null.
    /// - Parameter classes: the class names allowed; an object of another class (or a
    ///   subclass of none of them) is refused with `.typeMismatch` (secure coding).
    /// - Throws: `AmberError` for the codec's failures; whatever a coding class's closures
    ///   throw, unchanged.
    public func decodeObject(forKey key: String, ofClasses classes: Set<String>) throws -> AnyObject? {
        try core.readPassingHostErrors { try $0.decodeObject(forKey: key, ofClasses: classes) }
    }

    /// Decodes a reference written by `StateCoder.encodeReference(to:forKey:)` (SPEC R4): the
    /// object restored for the referenced path, or nil if the reference is null or that object
    /// was not restored (or not created yet: references resolve fully in decode callbacks,
    /// which run once every object exists).
    /// - Throws: `.notFound` for a missing key; `.typeMismatch` if the value is not a reference;
    ///   `.corrupt` for a reference to no record.
    public func decodeReference(forKey key: String) throws(AmberError) -> RestorableObject? {
        let index: Int? = try core.read { u in
            try u.decodeObject(forKey: key) { (r: KeyedUnarchiver, className: String) throws -> Int in
                guard className == ArchiveLayout.referenceClass else {
                    throw AmberError(.typeMismatch, "the value for key '\(key)' is \(className == "NSString" ? "a string" : "an object of class \(className)"), not a reference")
                }
                return Int(truncatingIfNeeded: try r.decodeInt64(forKey: ArchiveLayout.referenceIndex))
            }
        }
        guard let index else { return nil }
        guard index >= 0, index < session.records.count else {
            throw AmberError(.corrupt, "the reference under key '\(key)' names record \(index); the archive has \(session.records.count)")
        }
        return session.objects[index]
    }
}
