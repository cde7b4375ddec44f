import AmberArchive

/// What the application decoder and each object's decoder share: type-checked decoding that
/// never traps (`.notFound` for a missing key, `.typeMismatch` for another type, `.misuse` after
/// the callback the decoder was given to). `AppDecoder` and `StateDecoder` add what is theirs.
public class KeyedStateDecoder {
    let core: DecoderCore
    /// `core.unarchiver`, held here too: read from this decoder (one `let` away from a
    /// guaranteed `self`) it is borrowed for a call, where read through `core` it was retained
    /// and released around every call of the UTF-8 keyed functions below.
    private let unarchiver: KeyedUnarchiver

    init(core: DecoderCore) {
        self.core = core
        self.unarchiver = core.unarchiver
    }

    /// Throws `.misuse` outside the callback the decoder was given to.
    public func requireActive() throws(AmberError) { try core.requireActive() }

    /// Whether the state has a value for the key.
    public func containsValue(forKey key: String) -> Bool { core.containsValue(forKey: key) }

    /// Whether the state holds values marked sensitive at preservation (SPEC R34).
    public var holdsSensitiveValues: Bool { core.containsValue(forKey: SensitiveValues.key) }

    /// The keys the state holds, in stored order.
    public func allKeys() -> [String] { core.allKeys() }

    /// Decodes a boolean.
    public func decodeBool(forKey key: String) throws(AmberError) -> Bool {
        try core.read(forKey: key) { try $0.decodeBool(forKey: key) }
    }

    /// Decodes a 64-bit integer.
    public func decodeInt64(forKey key: String) throws(AmberError) -> Int64 {
        try core.read(forKey: key) { try $0.decodeInt64(forKey: key) }
    }

    /// Decodes an integer; `.typeMismatch` if it does not fit in `Int`.
    public func decodeInt(forKey key: String) throws(AmberError) -> Int {
        let v = try decodeInt64(forKey: key)
        guard let i = Int(exactly: v) else { throw AmberError(.typeMismatch, "the integer for key '\(key)' does not fit in Int") }
        return i
    }

    /// Decodes a double (an integer is converted).
    public func decodeDouble(forKey key: String) throws(AmberError) -> Double {
        try core.read(forKey: key) { try $0.decodeDouble(forKey: key) }
    }

    /// Decodes a string.
    public func decodeString(forKey key: String) throws(AmberError) -> String {
        try core.read(forKey: key) { try $0.decodeString(forKey: key) }
    }

    // Interned keys (`ArchiveKey`: the C ABI's keys, and any caller reading the same keys for
    // many objects): a key found once is found again by reference. Same results and errors as
    // the functions above.

    /// Whether the state has a value for the key.
    public func containsValue(forKey key: ArchiveKey) -> Bool {
        guard core.isActive, unarchiver.currentObjectUID == core.uid else {
            return containsValue(forKey: key.string)
        }
        return unarchiver.containsValue(forKey: key)
    }

    /// Decodes a boolean.
    public func decodeBool(forKey key: ArchiveKey) throws(AmberError) -> Bool {
        try core.admit(key.string)
        guard unarchiver.currentObjectUID == core.uid else { return try decodeBool(forKey: key.string) }
        do { return try unarchiver.decodeBool(forKey: key) } catch { throw AmberError(error) }
    }

    /// Decodes a 64-bit integer.
    public func decodeInt64(forKey key: ArchiveKey) throws(AmberError) -> Int64 {
        try core.admit(key.string)
        guard unarchiver.currentObjectUID == core.uid else { return try decodeInt64(forKey: key.string) }
        do { return try unarchiver.decodeInt64(forKey: key) } catch { throw AmberError(error) }
    }

    /// Decodes a double (an integer is converted).
    public func decodeDouble(forKey key: ArchiveKey) throws(AmberError) -> Double {
        try core.admit(key.string)
        guard unarchiver.currentObjectUID == core.uid else { return try decodeDouble(forKey: key.string) }
        do { return try unarchiver.decodeDouble(forKey: key) } catch { throw AmberError(error) }
    }

    /// Decodes a string.
    public func decodeString(forKey key: ArchiveKey) throws(AmberError) -> String {
        try core.admit(key.string)
        guard unarchiver.currentObjectUID == core.uid else { return try decodeString(forKey: key.string) }
        do { return try unarchiver.decodeString(forKey: key) } catch { throw AmberError(error) }
    }

    /// Decodes a string and calls `body` with its UTF-8 bytes (no string is made for a string
    /// the archive stores as ASCII).
    public func withDecodedString<T>(forKey key: ArchiveKey, _ body: (Span<UInt8>) -> T) throws(AmberError) -> T {
        try core.admit(key.string)
        guard unarchiver.currentObjectUID == core.uid else {
            let s = try decodeString(forKey: key.string)
            return body(s.utf8.span)
        }
        do { return try unarchiver.withDecodedString(forKey: key, body) } catch { throw AmberError(error) }
    }

    /// Decodes bytes (NSData).
    public func decodeBytes(forKey key: String) throws(AmberError) -> [UInt8] {
        try core.read(forKey: key) { try $0.decodeBytes(forKey: key) }
    }

    /// Decodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    public func decodeDate(forKey key: String) throws(AmberError) -> Double {
        try core.read(forKey: key) { try $0.decodeDate(forKey: key) }
    }

    /// Decodes an index path (NSIndexPath).
    public func decodeIndexPath(forKey key: String) throws(AmberError) -> [Int] {
        try core.read(forKey: key) { try $0.decodeIndexPath(forKey: key) }
    }

    /// Decodes any value of Foundation's standard classes.
    public func decodeValue(forKey key: String) throws(AmberError) -> ArchiveValue {
        try core.read(forKey: key) { try $0.decodeValue(forKey: key) }
    }

    /// Decodes an object of a registered coding class (SPEC R12, R25), or nil for a null.
    /// - Parameter classes: the class names allowed; an object of another class (or a
    ///   subclass of none of them) is refused with `.typeMismatch` (secure coding).
    /// - Throws: `AmberError` for the codec's failures; whatever a coding class's closures
    ///   throw, unchanged.
    public func decodeObject(forKey key: String, ofClasses classes: Set<String>) throws -> AnyObject? {
        try core.admit(key)
        return try core.readPassingHostErrors { try $0.decodeObject(forKey: key, ofClasses: classes) }
    }

    /// Decodes a reference written by `KeyedStateCoder.encodeReference(to:forKey:)` (SPEC R4):
    /// the object restored for the referenced record, or nil if the reference is null or
    /// nothing was found for it (or not yet: references resolve fully in decode callbacks and
    /// did-decode, which run once every object exists). A record whose object was found but
    /// failed the class check (SPEC R11) decodes to that object, kept but not decoded.
    /// - Throws: `.notFound` for a missing key; `.typeMismatch` if the value is not a reference;
    ///   `.corrupt` for a reference to no record.
    public func decodeReference(forKey key: String) throws(AmberError) -> RestorableObject? {
        guard let index = try referenceIndex(forKey: key) else { return nil }
        return try restoring().objects[index]
    }

    /// Decodes a reference as `decodeReference(forKey:)` does, refusing it unless the referenced
    /// object is of one of `classes` or a registered subclass of one (secure decoding, SPEC R12):
    /// both the class the archive records for it and, if an object was found for it, that
    /// object's class. A null reference is nil.
    /// - Throws: `.invalidArgument` if a class name of `classes` is empty (no object has that
    ///   class); `.typeMismatch` for a class not allowed (the message names it and the classes
    ///   allowed); as `decodeReference(forKey:)` otherwise.
    public func decodeReference(forKey key: String, ofClasses classes: Set<String>) throws(AmberError) -> RestorableObject? {
        guard !classes.contains("") else {
            throw AmberError(.invalidArgument, "an allowed class name is empty (reading key '\(key)')")
        }
        guard let index = try referenceIndex(forKey: key) else { return nil }
        let session = try restoring()
        let record = session.records[index]
        let hierarchy = session.hierarchy
        func allowed(_ name: String) -> Bool { classes.contains { hierarchy.isKind(name, of: $0) } }
        let path = "/" + session.path(ofRecord: index).joined(separator: "/")
        guard allowed(record.className) else {
            throw AmberError(
                .typeMismatch,
                "the reference under key '\(key)' names \(path), archived as \(record.className), which is not among the allowed classes \(classes.sorted())")
        }
        let object = session.objects[index]
        if let object, !allowed(object.className) {
            throw AmberError(
                .typeMismatch,
                "the reference under key '\(key)' names \(path), restored as \(object.className), which is not among the allowed classes \(classes.sorted())")
        }
        return object
    }

    /// The record index a reference names, or nil for a null reference.
    private func referenceIndex(forKey key: String) throws(AmberError) -> Int? {
        let index: Int? = try core.read(forKey: key) { u in
            try u.decodeObject(forKey: key) { (r: KeyedUnarchiver, className: String) throws -> Int in
                guard className == ArchiveLayout.referenceClass else {
                    throw AmberError(.typeMismatch, "the value for key '\(key)' is \(className == "NSString" ? "a string" : "an object of class \(className)"), not a reference")
                }
                return Int(truncatingIfNeeded: try r.decodeInt64(forKey: ArchiveLayout.referenceIndex))
            }
        }
        guard let index else { return nil }
        let session = try restoring()
        guard index >= 0, index < session.records.count else {
            throw AmberError(.corrupt, "the reference under key '\(key)' names record \(index); the archive has \(session.records.count)")
        }
        return index
    }

    /// The restore this decoder reads.
    private func restoring() throws(AmberError) -> RestoreSession {
        guard let session = core.session else { throw AmberError(.misuse, "the decoder of \(core.owner) is used after its restoration ended") }
        return session
    }
}
