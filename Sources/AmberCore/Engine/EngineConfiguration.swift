import AmberArchive

/// How an engine is set up.
public struct EngineConfiguration {
    /// The application's id: names its state directory (`FileStore.defaultDirectory(appID:)`).
    public var appID: String
    /// The application's version, recorded in every archive (SPEC R8).
    public var bundleVersion: String
    /// The interface idiom (e.g. `phone`, `pad`, `desktop`), recorded in every archive.
    public var interfaceIdiom: String
    /// Where the archive and the launch guard are kept.
    public var store: any ArchiveStore
    /// Bounds on the archive read at restoration (SPEC R22).
    public var limits: ArchiveLimits
    /// What wraps the archive between codec and store (encryption goes here). Default: none.
    public var envelope: any ArchiveEnvelope
    /// Whether a restored object that has no parent is placed where its record was: as a child
    /// (appended), presented controller (if the place is free), view or plain object of the
    /// object restored for its parent record, or as a root. Default true; objects the host
    /// already placed are never moved.
    public var attachesRestoredObjects: Bool
    /// The system version recorded in archives; nil (default): the kernel's release (`uname -r`).
    public var systemVersion: String?

    /// Creates a configuration.
    public init(
        appID: String,
        bundleVersion: String = "",
        interfaceIdiom: String = "",
        store: any ArchiveStore,
        limits: ArchiveLimits = .default,
        envelope: any ArchiveEnvelope = PlainEnvelope(),
        attachesRestoredObjects: Bool = true,
        systemVersion: String? = nil
    ) {
        self.appID = appID
        self.bundleVersion = bundleVersion
        self.interfaceIdiom = interfaceIdiom
        self.store = store
        self.limits = limits
        self.envelope = envelope
        self.attachesRestoredObjects = attachesRestoredObjects
        self.systemVersion = systemVersion
    }
}
