import AmberArchive

/// The coder of one object at preservation (SPEC R6): what the object's encode callback writes
/// is its own nested state in the archive, so keys never collide between objects.
///
/// Every method throws rather than write something wrong: `.reservedKey` for the engine's keys
/// (`ReservedKeys`, SPEC R7), `.duplicate` for a key written twice in this coder, `.misuse` once
/// the callback the coder was given to has returned. A coder is valid only during its callback.
public final class StateCoder {
    let core: EncoderCore
    let pass: PreservationPass
    /// The object whose state this coder holds.
    public let object: RestorableObject

    init(archiver: KeyedArchiver, pass: PreservationPass, record: Int, object: RestorableObject) {
        self.core = EncoderCore(archiver: archiver, owner: .preserving(pass, record))
        self.pass = pass
        self.object = object
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

    /// Encodes any value of Foundation's standard classes (arrays and dictionaries included).
    public func encode(_ value: ArchiveValue, forKey key: String) throws(AmberError) {
        try core.admit(key)
        core.archiver.encode(value, forKey: key)
    }

    /// Encodes an object of a registered coding class (`Engine.codingClasses`, SPEC R25), or nil.
    /// Objects encoded from several coders are stored once and come back shared.
    /// - Throws: `.invalidArgument` if no registered class encodes the object; whatever the
    ///   class's encode closure throws (codec errors converted to `AmberError`).
    public func encodeObject(_ object: AnyObject?, forKey key: String) throws {
        try core.admit(key)
        try core.run { try core.archiver.encodeObject(object, forKey: key) }
    }

    /// Encodes a reference to another restorable object (SPEC R4); at restoration it decodes to
    /// the object restored for that path (`StateDecoder.decodeReference(forKey:)`). The object
    /// is preserved, with its state, even if the walk left it out (a plain object, an object
    /// outside every root). Nil encodes a null reference.
    /// - Throws: `.invalidArgument` if the object has no restoration path (it or an ancestor
    ///   has no identifier); `.duplicate` if its path is that of another preserved object.
    public func encodeReference(to target: RestorableObject?, forKey key: String) throws(AmberError) {
        try core.admit(key)
        guard let target else {
            core.archiver.encodeNull(forKey: key)
            return
        }
        let index = try pass.reference(to: target)
        core.archiver.encodeObject(forKey: key, className: ArchiveLayout.referenceClass) { a in
            a.encode(Int64(index), forKey: ArchiveLayout.referenceIndex)
        }
    }
}
