import AmberArchive

/// The application-level coder at restoration (SPEC R8, R9): the metadata the engine recorded
/// when it saved, and what the host's should-save and will-encode callbacks wrote.
///
/// The metadata properties stay readable after the callbacks; the typed decoders are valid only
/// during the callback the decoder was given to (should-restore, did-decode).
public final class AppDecoder {
    let core: DecoderCore
    /// The host's bundle version when the archive was saved (`EngineConfiguration.bundleVersion`).
    public let bundleVersion: String?
    /// The interface idiom when the archive was saved (`EngineConfiguration.interfaceIdiom`).
    public let interfaceIdiom: String?
    /// When the archive was saved, in seconds since 2001-01-01T00:00:00Z.
    public let timestamp: Double?
    /// The operating system's release when the archive was saved (`uname -r`).
    public let systemVersion: String?

    init(unarchiver: KeyedUnarchiver, uid: Int) {
        let core = DecoderCore(unarchiver: unarchiver, uid: uid, owner: .application)
        self.core = core
        bundleVersion = try? core.read { try $0.decodeString(forKey: ArchiveLayout.bundleVersion) }
        interfaceIdiom = try? core.read { try $0.decodeString(forKey: ArchiveLayout.interfaceIdiom) }
        timestamp = try? core.read { try $0.decodeDate(forKey: ArchiveLayout.timestamp) }
        systemVersion = try? core.read { try $0.decodeString(forKey: ArchiveLayout.systemVersion) }
        core.isActive = false
    }

    /// Whether the application state has a value for the key.
    public func containsValue(forKey key: String) -> Bool { core.containsValue(forKey: key) }

    /// The keys of the application state (the engine's included), in stored order.
    public func allKeys() -> [String] { core.allKeys() }

    /// Decodes a boolean.
    public func decodeBool(forKey key: String) throws(AmberError) -> Bool {
        try core.read { try $0.decodeBool(forKey: key) }
    }

    /// Decodes a 64-bit integer.
    public func decodeInt64(forKey key: String) throws(AmberError) -> Int64 {
        try core.read { try $0.decodeInt64(forKey: key) }
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

    /// Decodes an object of a registered coding class, checked against the classes allowed.
    public func decodeObject(forKey key: String, ofClasses classes: Set<String>) throws -> AnyObject? {
        try core.readPassingHostErrors { try $0.decodeObject(forKey: key, ofClasses: classes) }
    }
}
