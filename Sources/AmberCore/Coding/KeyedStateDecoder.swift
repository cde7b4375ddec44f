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

    // Keys given as UTF-8 bytes (the C ABI's keys): no string is made for the key, and the key
    // is compared with the archive's keys byte for byte. Same results and errors as the
    // functions above.

    /// Whether the state has a value for the key.
    public func containsValue(forKeyUTF8 key: Span<UInt8>) -> Bool {
        guard core.isActive, unarchiver.currentObjectUID == core.uid else {
            return containsValue(forKey: KeyedUnarchiver.string(key))
        }
        return unarchiver.containsValue(forKeyUTF8: key)
    }

    /// Decodes a boolean.
    public func decodeBool(forKeyUTF8 key: Span<UInt8>) throws(AmberError) -> Bool {
        try core.requireActive()
        guard unarchiver.currentObjectUID == core.uid else { return try decodeBool(forKey: KeyedUnarchiver.string(key)) }
        do { return try unarchiver.decodeBool(forKeyUTF8: key) } catch { throw AmberError(error) }
    }

    /// Decodes a 64-bit integer.
    public func decodeInt64(forKeyUTF8 key: Span<UInt8>) throws(AmberError) -> Int64 {
        try core.requireActive()
        guard unarchiver.currentObjectUID == core.uid else { return try decodeInt64(forKey: KeyedUnarchiver.string(key)) }
        do { return try unarchiver.decodeInt64(forKeyUTF8: key) } catch { throw AmberError(error) }
    }

    /// Decodes a double (an integer is converted).
    public func decodeDouble(forKeyUTF8 key: Span<UInt8>) throws(AmberError) -> Double {
        try core.requireActive()
        guard unarchiver.currentObjectUID == core.uid else { return try decodeDouble(forKey: KeyedUnarchiver.string(key)) }
        do { return try unarchiver.decodeDouble(forKeyUTF8: key) } catch { throw AmberError(error) }
    }

    /// Decodes a string.
    public func decodeString(forKeyUTF8 key: Span<UInt8>) throws(AmberError) -> String {
        try core.requireActive()
        guard unarchiver.currentObjectUID == core.uid else { return try decodeString(forKey: KeyedUnarchiver.string(key)) }
        do { return try unarchiver.decodeString(forKeyUTF8: key) } catch { throw AmberError(error) }
    }

    /// Decodes a string and calls `body` with its UTF-8 bytes (no string is made for a string
    /// the archive stores as ASCII).
    public func withDecodedString<T>(forKeyUTF8 key: Span<UInt8>, _ body: (Span<UInt8>) -> T) throws(AmberError) -> T {
        try core.requireActive()
        guard unarchiver.currentObjectUID == core.uid else {
            let s = try decodeString(forKey: KeyedUnarchiver.string(key))
            return body(s.utf8.span)
        }
        do { return try unarchiver.withDecodedString(forKeyUTF8: key, body) } catch { throw AmberError(error) }
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
}
