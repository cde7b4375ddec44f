import AmberArchive

/// The application-level coder at restoration (SPEC R8, R9): the metadata the engine recorded
/// when it saved, and what the host's should-save and will-encode callbacks wrote.
///
/// The metadata properties stay readable after the callbacks; the typed decoders are valid only
/// during the callback the decoder was given to (should-restore, did-decode).
public final class AppDecoder: KeyedStateDecoder {
    /// The host's bundle version when the archive was saved (`EngineConfiguration.bundleVersion`).
    public let bundleVersion: String?
    /// The interface idiom when the archive was saved (`EngineConfiguration.interfaceIdiom`).
    public let interfaceIdiom: String?
    /// When the archive was saved, in seconds since 2001-01-01T00:00:00Z.
    public let timestamp: Double?
    /// The operating system's release when the archive was saved (`uname -r`).
    public let systemVersion: String?
    /// The id of the application that saved the archive (`EngineConfiguration.appID`); nil in
    /// an archive of 0.2 or earlier, which did not record it.
    public let applicationID: String?

    init(unarchiver: KeyedUnarchiver, uid: Int) {
        let core = DecoderCore(unarchiver: unarchiver, uid: uid, owner: .application)
        bundleVersion = try? core.read { try $0.decodeString(forKey: ArchiveLayout.bundleVersion) }
        interfaceIdiom = try? core.read { try $0.decodeString(forKey: ArchiveLayout.interfaceIdiom) }
        timestamp = try? core.read { try $0.decodeDate(forKey: ArchiveLayout.timestamp) }
        systemVersion = try? core.read { try $0.decodeString(forKey: ArchiveLayout.systemVersion) }
        applicationID = try? core.read { try $0.decodeString(forKey: ArchiveLayout.applicationID) }
        core.isActive = false
        super.init(core: core)
    }
}
