import AmberArchive

/// What the application coder and each object's coder share: typed encoding under keys the
/// engine admits (`EncoderCore.admit`: no reserved key, no key twice, only during the callback
/// the coder was given to). `AppCoder` and `StateCoder` add what is theirs.
public class KeyedStateCoder {
    let core: EncoderCore
    /// `core.archiver`, held here too: read from this coder (one `let` away from a guaranteed
    /// `self`) it is borrowed for a call, where read through `core` it was retained and
    /// released around every write (as `KeyedStateDecoder.unarchiver`).
    private let archiver: KeyedArchiver
    /// Collects what is written, when the engine reuses clean objects' states (SPEC R32).
    var recorder: StateRecorder?

    init(core: EncoderCore) {
        self.core = core
        self.archiver = core.archiver
    }

    /// Marks `key` sensitive (SPEC R34), before or after its value is written: the value is
    /// kept only in an encrypted archive, the archive records the key's name (not its value)
    /// under `amber.sensitive` so that `amber inspect` and `amber dump` show `<sensitive>`, and
    /// the plaintext archive is zeroed once sealed. Any value type.
    /// - Throws: `.keyUnavailable` when the engine does not encrypt (protection none): the
    ///   preservation then writes nothing and fails with the same error; `.reservedKey`;
    ///   `.misuse` outside the coder's callback.
    ///
    /// A state with a sensitive value is not kept for reuse (SPEC R32): its callback writes it
    /// again at every preservation, so no plaintext of it stays in memory between them.
    ///
    /// Backs `amber_coder_mark_sensitive`.
    public func markSensitive(_ key: String) throws(AmberError) {
        try core.markSensitive(key)
        recorder?.giveUp()
    }

    // A value is checked before its key is admitted: admitting records the key as written, and
    // a value refused must leave its key free (nothing is written, so a corrected value may
    // follow under the same key).

    /// Encodes a boolean.
    public func encode(_ value: Bool, forKey key: String) throws(AmberError) {
        try core.admit(key)
        archiver.encode(value, forKey: key)
        recorder?.add(key, .bool(value))
    }

    /// Encodes a 64-bit integer.
    public func encode(_ value: Int64, forKey key: String) throws(AmberError) {
        try core.admit(key)
        archiver.encode(value, forKey: key)
        recorder?.add(key, .int(value))
    }

    /// Encodes an integer (as a 64-bit integer).
    public func encode(_ value: Int, forKey key: String) throws(AmberError) {
        try core.admit(key)
        archiver.encode(Int64(value), forKey: key)
        recorder?.add(key, .int(Int64(value)))
    }

    /// Encodes a double.
    public func encode(_ value: Double, forKey key: String) throws(AmberError) {
        try core.admit(key)
        archiver.encode(value, forKey: key)
        recorder?.add(key, .double(value))
    }

    /// Encodes a string.
    public func encode(_ value: String, forKey key: String) throws(AmberError) {
        try core.admitString(utf8Count: value.utf8.count, utf16Count: value.utf16.count, forKey: key)
        try core.admit(key)
        archiver.encode(value, forKey: key)
        recorder?.add(key, .string(value))
    }

    /// Encodes a string given as its UTF-8 bytes: the same as `encode(_:forKey:)` with the
    /// string they hold, without making the string when they are ASCII. The caller checks that
    /// they are valid UTF-8 (invalid sequences are encoded replaced, as `String(decoding:as:)`).
    public func encode(utf8 value: Span<UInt8>, forKey key: String) throws(AmberError) {
        try core.admitString(utf8Count: value.count, utf16Count: Self.utf16Count(value), forKey: key)
        try core.admit(key)
        archiver.encode(utf8: value, forKey: key)
        if let recorder { recorder.add(key, .string(StateRecorder.string(value))) }
    }

    /// Encodes bytes (NSData).
    public func encode(bytes: [UInt8], forKey key: String) throws(AmberError) {
        try core.admitLength(bytes.count, forKey: key)
        try core.admit(key)
        archiver.encode(bytes: bytes, forKey: key)
        recorder?.add(key, .data(bytes))
    }

    /// Encodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    /// - Throws: `.invalidArgument` for NaN, an infinity or a date outside years 1 to 9999
    ///   (`ArchiveLimits.dates`), which no reader of the archive takes.
    public func encode(date: Double, forKey key: String) throws(AmberError) {
        try core.admitDate(date, forKey: key)
        try core.admit(key)
        archiver.encode(date: date, forKey: key)
        recorder?.add(key, .date(date))
    }

    /// Encodes an index path (NSIndexPath).
    public func encode(indexPath: [Int], forKey key: String) throws(AmberError) {
        try core.admitLength(ArchiveLimits.storedLength(ofIndexPath: indexPath), forKey: key)
        try core.admit(key)
        archiver.encode(indexPath: indexPath, forKey: key)
        recorder?.add(key, .indexPath(indexPath))
    }

    /// Encodes any value of Foundation's standard classes (arrays and dictionaries included).
    public func encode(_ value: ArchiveValue, forKey key: String) throws(AmberError) {
        try core.admitValue(value, forKey: key)
        try core.admit(key)
        archiver.encode(value, forKey: key)
        recorder?.add(key, value)
    }

    /// Encodes an object of a registered coding class (`Engine.codingClasses`, SPEC R25), or nil.
    /// Objects encoded from several coders are stored once and come back shared.
    /// - Throws: `.invalidArgument` if no registered class encodes the object; `.limitExceeded`
    ///   for an object restoration would decode nested deeper than `limits.maxDepth` (SPEC R22);
    ///   whatever the class's encode closure throws (codec errors converted to `AmberError`).
    ///   After either of the last two, the objects encoded part-way cannot be taken back: the
    ///   save fails with the error, and the previous archive is kept.
    public func encodeObject(_ object: AnyObject?, forKey key: String) throws {
        try core.admit(key)
        try core.run { try archiver.encodeObject(object, forKey: key) }
        recorder?.giveUp()
    }

    // MARK: Interned keys

    /// Encodes a boolean under an interned key (the same as under its string).
    public func encode(_ value: Bool, forKey key: ArchiveKey) throws(AmberError) {
        try encode(scalar: .bool(value), forKey: key)
    }

    /// Encodes a 64-bit integer under an interned key (the same as under its string).
    public func encode(_ value: Int64, forKey key: ArchiveKey) throws(AmberError) {
        try encode(scalar: .int(value), forKey: key)
    }

    /// Encodes a double under an interned key (the same as under its string).
    public func encode(_ value: Double, forKey key: ArchiveKey) throws(AmberError) {
        try encode(scalar: .double(value), forKey: key)
    }

    /// Encodes a boolean, integer or double under an interned key: the one path of the three
    /// (and of the C API's three calls), so that a save, which writes them for every object,
    /// runs one copy of the coder's checks rather than one per type.
    package func encode(scalar value: ScalarValue, forKey key: ArchiveKey) throws(AmberError) {
        try core.admit(key)
        switch value {
        case .bool(let b): archiver.encode(b, forKey: key)
        case .int(let i): archiver.encode(i, forKey: key)
        case .double(let d): archiver.encode(d, forKey: key)
        }
        if let recorder { recorder.add(key.string, value.archiveValue) }
    }

    /// Encodes a string under an interned key (the same as under its string).
    public func encode(_ value: String, forKey key: ArchiveKey) throws(AmberError) {
        try core.admitString(utf8Count: value.utf8.count, utf16Count: value.utf16.count, forKey: key.string)
        try core.admit(key)
        archiver.encode(value, forKey: key)
        recorder?.add(key.string, .string(value))
    }

    /// The UTF-16 code units of a string given as UTF-8 bytes (as the archive would store it).
    static func utf16Count(_ utf8: Span<UInt8>) -> Int {
        var count = 0
        for i in utf8.indices {
            let b = utf8[i]
            if b & 0xC0 != 0x80 { count += b >= 0xF0 ? 2 : 1 }  // a sequence's first byte; 4 bytes: a surrogate pair
        }
        return count
    }

    /// The limits the coder writes within (SPEC R22): a batch of writes checks its values first.
    public var limits: ArchiveLimits { core.limits }

    /// Checks, writing nothing, that every one of `keys` may be written now (as each write would
    /// check it: the coder active, no key reserved or written before), and that none is given
    /// twice: for writes that must happen all together or not at all. An error's message is
    /// prefixed by `label(i)` for the key at fault.
    public func checkWritable(_ keys: [ArchiveKey], label: (Int) -> String) throws(AmberError) {
        try core.checkAll(keys, label: label)
    }

    /// As `encode(utf8:forKey:)`, under an interned key (the same as under its string).
    public func encode(utf8 value: Span<UInt8>, forKey key: ArchiveKey) throws(AmberError) {
        try core.admitString(utf8Count: value.count, utf16Count: Self.utf16Count(value), forKey: key.string)
        try core.admit(key)
        archiver.encode(utf8: value, forKey: key)
        if let recorder { recorder.add(key.string, .string(StateRecorder.string(value))) }
    }

    /// Encodes a reference to another restorable object (SPEC R4); at restoration it decodes to
    /// the object restored for it (`KeyedStateDecoder.decodeReference(forKey:)`), also from the
    /// application coder in did-decode. The object is preserved, with its state, even if the
    /// walk left it out (a plain object; the children of a container without an identifier),
    /// and with its contents: its identified views and children are recorded under it as the
    /// walk would (SPEC R2, R3). Its path is its own identifier under those of its ancestors
    /// that have one. Nil
    /// encodes a null reference.
    /// - Throws: `.invalidArgument` if the object has no restoration identifier; `.duplicate`
    ///   if its path is that of another preserved object. Either way the key stays free.
    public func encodeReference(to target: RestorableObject?, forKey key: String) throws(AmberError) {
        guard let target else {
            try core.admit(key)
            recorder?.giveUp()
            archiver.encodeNull(forKey: key)
            return
        }
        // The key is checked, then the target recorded, and only then the key taken (by the
        // write): a key refused records no target, and a target refused leaves its key free.
        try core.admit(key)
        let index = try core.references(target)
        recorder?.giveUp()
        archiver.encodeObject(forKey: key, className: ArchiveLayout.referenceClass) { a in
            a.encode(Int64(index), forKey: ArchiveLayout.referenceIndex)
        }
    }
}
