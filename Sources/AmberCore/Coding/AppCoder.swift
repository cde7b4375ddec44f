import AmberArchive

/// The application-level coder at preservation (SPEC R5, R8): what the delegate's should-save
/// and will-encode callbacks write, beside the metadata the engine records (bundle version,
/// interface idiom, timestamp, system version), all readable at the next launch by
/// should-restore through `AppDecoder`.
///
/// The same rules as `StateCoder`: reserved keys (`ReservedKeys`) and keys written twice throw,
/// and the coder is valid only during the callback it was given to.
public final class AppCoder {
    let core: EncoderCore

    init(archiver: KeyedArchiver) {
        core = EncoderCore(archiver: archiver, owner: .application)
    }

    /// Encodes a boolean.
    public func encode(_ value: Bool, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(value, forKey: key)
    }

    /// Encodes a 64-bit integer.
    public func encode(_ value: Int64, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(value, forKey: key)
    }

    /// Encodes an integer (as a 64-bit integer).
    public func encode(_ value: Int, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(Int64(value), forKey: key)
    }

    /// Encodes a double.
    public func encode(_ value: Double, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(value, forKey: key)
    }

    /// Encodes a string.
    public func encode(_ value: String, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(value, forKey: key)
    }

    /// Encodes bytes (NSData).
    public func encode(bytes: [UInt8], forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(bytes: bytes, forKey: key)
    }

    /// Encodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    public func encode(date: Double, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(date: date, forKey: key)
    }

    /// Encodes an index path (NSIndexPath).
    public func encode(indexPath: [Int], forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(indexPath: indexPath, forKey: key)
    }

    /// Encodes any value of Foundation's standard classes.
    public func encode(_ value: ArchiveValue, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(value, forKey: key)
    }

    /// Encodes an object of a registered coding class (`Engine.codingClasses`, SPEC R25), or nil.
    public func encodeObject(_ object: AnyObject?, forKey key: String) throws {
        try core.admit(key)
        try core.run { try core.archiver.encodeObject(object, forKey: key) }
    }
}
