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
    /// What wraps the archive between codec and store (SPEC R20). Default: AES-256-GCM under a
    /// key file beside a file store's archive (`EngineConfiguration.defaultEnvelope`).
    public var envelope: any ArchiveEnvelope
    /// Whether a restored object that has no parent is placed where its record was: as a child
    /// (appended), presented controller (if the place is free), view or plain object of the
    /// object restored for its parent record, or as a root. Default true; objects the host
    /// already placed are never moved.
    public var attachesRestoredObjects: Bool
    /// The system version recorded in archives; nil (default): the kernel's release (`uname -r`).
    public var systemVersion: String?
    /// The directory each restoration's report is kept in (`KeptRestorationReport`), nil to
    /// keep none. Default: none, unless `AMBER_KEEP_REPORT=1` and the store is a `FileStore`
    /// (then its directory). `init(appID:options:)` sets it from
    /// `EngineOptions.keepsRestorationReport`.
    public var reportDirectory: String?
    /// Whether a restoration that succeeded keeps the archive until the next save rather than
    /// discard it (SPEC R32), for desktop programs: a crash before that save restores it again.
    /// The restoration completed, so the launch guard's count is cleared: launches that
    /// complete never add up to a crash loop, and two in a row that crash while restoring still
    /// discard it (SPEC R14). Default false: UIKit's behaviour, the archive discarded once restored.
    public var keepsArchiveAfterRestore = false
    /// The most bytes one object's record may take (SPEC R31); nil: no budget per object.
    /// `EngineOptions.objectBudget` says what it does.
    public var objectBudget: Int?
    /// The most bytes the keyed archive may take (SPEC R31); nil: `limits.maxBytes`, which
    /// also bounds a larger budget. `EngineOptions.archiveBudget` says what it does.
    public var archiveBudget: Int?

    /// Creates a configuration. An `envelope` of nil is the default protection for `store`
    /// (`defaultEnvelope(for:appID:bundleVersion:)`): archives are encrypted unless the host
    /// says otherwise, as from C.
    public init(
        appID: String,
        bundleVersion: String = EngineOptions.defaultBundleVersion,
        interfaceIdiom: String = EngineOptions.defaultInterfaceIdiom,
        store: any ArchiveStore,
        limits: ArchiveLimits = .default,
        envelope: (any ArchiveEnvelope)? = nil,
        attachesRestoredObjects: Bool = true,
        systemVersion: String? = nil,
        reportDirectory: String? = nil,
        objectBudget: Int? = nil,
        archiveBudget: Int? = nil
    ) {
        self.appID = appID
        self.bundleVersion = bundleVersion
        self.interfaceIdiom = interfaceIdiom
        self.store = store
        self.limits = limits
        self.envelope = envelope ?? Self.defaultEnvelope(for: store, appID: appID, bundleVersion: bundleVersion)
        self.attachesRestoredObjects = attachesRestoredObjects
        self.systemVersion = systemVersion
        self.objectBudget = objectBudget
        self.archiveBudget = archiveBudget
        if let reportDirectory {
            self.reportDirectory = reportDirectory
        } else if EngineOptions.environmentKeepsReport(), let files = store as? FileStore {
            self.reportDirectory = files.directory
        }
    }
}

extension EngineConfiguration {
    /// The archive budget in force (SPEC R31): the host's, bounded by the archive limit of
    /// SPEC R22, or that limit.
    var effectiveArchiveBudget: Int { min(archiveBudget ?? limits.maxBytes, limits.maxBytes) }

    /// The key file the envelope seals with, if it is one: the engine removes what a save
    /// killed while creating it left behind, at each restore, as the store does for its files.
    var keyFile: KeyFileProvider? { (envelope as? SealedEnvelope)?.keyProvider as? KeyFileProvider }

    /// The protection an engine gets when its host chooses none (SPEC R20): AES-256-GCM under
    /// `archive.key` beside a file store's archive, under the store's own key for a store in
    /// memory (`MemoryStore.key`), and under `archive.key` in the application's state
    /// directory for any other store (without a home directory, sealing then fails with
    /// `.keyUnavailable`, saying so: an archive is never written unencrypted by default).
    public static func defaultEnvelope(for store: any ArchiveStore, appID: String, bundleVersion: String) -> SealedEnvelope {
        let provider: any KeyProvider
        if let files = store as? FileStore {
            provider = KeyFileProvider(directory: files.directory)
        } else if let memory = store as? MemoryStore {
            provider = memory.key
        } else {
            do throws(AmberError) {
                provider = KeyFileProvider(directory: try FileStore.defaultDirectory(appID: appID))
            } catch {
                let reason = "no key file for the archive: \(error.message); give the engine a key or a key file"
                provider = ClosureKeyProvider { _ in throw AmberError(.keyUnavailable, reason) }
            }
        }
        return SealedEnvelope(keyProvider: provider, bundleVersion: bundleVersion)
    }
}
