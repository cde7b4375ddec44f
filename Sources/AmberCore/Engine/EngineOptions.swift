/// A host's choices for an engine, each with the engine's default. The C ABI's
/// `amber_engine_options` converts into this; a Swift host gives it to
/// `EngineConfiguration.init(appID:options:)`. Both get the same defaults: files in the
/// application's state directory, sealed with AES-256-GCM under a key file beside them (SPEC R19,
/// R20).
public struct EngineOptions {
    /// Where the archive and the launch guard are kept.
    public enum Storage {
        /// Files in the application's state directory (`FileStore.defaultDirectory(appID:)`).
        case stateDirectory
        /// Files in this directory.
        case directory(String)
        /// In memory: gone with the process (tests, hosts that persist elsewhere).
        case memory
        /// The host's own store; the files Amber keeps beside it (the key file) go in
        /// `directory`, or in the state directory when it is nil.
        case custom(any ArchiveStore, directory: String?)
    }

    /// How archives are protected (SPEC R20).
    public enum Protection {
        /// AES-256-GCM under a key file: this path, or nil for `archive.key` in the storage's
        /// directory (a custom store's directory). A store in memory keeps its own
        /// key (`MemoryStore.key`) and uses no key file.
        case keyFile(String?)
        /// AES-256-GCM under the key the provider gives.
        case keyProvider(any KeyProvider)
        /// Not encrypted (the envelope still checks the archive's integrity).
        case none
    }

    /// The bundle version recorded when the host gives none.
    public static let defaultBundleVersion = "0"
    /// The interface idiom recorded when the host gives none.
    public static let defaultInterfaceIdiom = "desktop"

    /// The application's version, recorded in every archive (SPEC R8).
    public var bundleVersion = defaultBundleVersion
    /// The interface idiom recorded in every archive.
    public var interfaceIdiom = defaultInterfaceIdiom
    /// Where the archive and the launch guard are kept. Default: the state directory.
    public var storage = Storage.stateDirectory
    /// How archives are protected. Default: AES-256-GCM under `archive.key` beside the archive.
    public var protection = Protection.keyFile(nil)
    /// Whether each restoration's report is kept on disk, as `last-restore.report` in the
    /// storage's directory (`KeptRestorationReport`), replacing the previous one, so that
    /// `amber report` can say why a restore did not happen after the process is gone. It holds
    /// no state values (SPEC R28, as the log, R29). Default false; the environment variable
    /// `AMBER_KEEP_REPORT=1` turns it on for every engine of the process. A store in memory keeps
    /// no report (it has no directory); a host's store keeps it in its `directory`, else in the
    /// state directory (none without a home directory).
    public var keepsRestorationReport = false
    /// Whether a restoration that succeeded keeps the archive until the next save
    /// (`EngineConfiguration.keepsArchiveAfterRestore`, SPEC R32). Default false: discarded
    /// once restored (SPEC R14).
    public var keepsArchiveAfterRestore = false
    /// The most bytes one object's record may take in the archive (SPEC R31): an object whose
    /// record is larger is left out with its subtree, and the preservation report names it with
    /// its size. Nil (default): no budget per object. Must be positive.
    public var objectBudget: Int?
    /// The most bytes the keyed archive may take, before the envelope (SPEC R31): a save over it
    /// writes nothing and keeps the previous archive, and its report says so and lists the
    /// largest objects. Nil (default), or more than the archive limit of SPEC R22
    /// (`ArchiveLimits.maxBytes`): that limit. Must be positive.
    public var archiveBudget: Int?

    public init() {}

    /// The environment variable that keeps the restoration report whatever the option says.
    public static let keepReportVariable = "AMBER_KEEP_REPORT"

    /// Whether the process's `AMBER_KEEP_REPORT` asks for the report to be kept: exactly `1`.
    public static func environmentKeepsReport() -> Bool {
        environmentKeepsReport(FileSystem.environment)
    }

    /// Whether `AMBER_KEEP_REPORT`, as `environment` reads it, is exactly `1`.
    public static func environmentKeepsReport(_ environment: (String) -> String?) -> Bool {
        environment(keepReportVariable) == "1"
    }
}

extension EngineConfiguration {
    /// A configuration from a host's choices, every one not made taking the engine's default.
    ///
    /// - Throws: `.invalidArgument` for an application id that is not a file name
    ///   (`AppDirectories.validate(appID:)`), an empty directory or a key file path that does not
    ///   name a file; `.notFound` when the state directory is needed and there is no home
    ///   directory.
    public init(appID: String, options: EngineOptions = EngineOptions()) throws(AmberError) {
        try AppDirectories.validate(appID: appID)
        let store: any ArchiveStore
        // The directory a kept report goes in; nil for a store in memory.
        let filesDirectory: String?
        switch options.storage {
        case .stateDirectory:
            let files = try FileStore(appID: appID)
            store = files
            filesDirectory = files.directory
        case .directory(let directory):
            guard !directory.isEmpty else { throw AmberError(.invalidArgument, "the state directory is empty") }
            let files = FileStore(directory: directory)
            store = files
            filesDirectory = files.directory
        case .memory:
            store = MemoryStore()
            filesDirectory = nil
        case .custom(let custom, let directory):
            store = custom
            if directory == nil, options.keepsRestorationReport || EngineOptions.environmentKeepsReport() {
                // Without a home directory there is nowhere to keep it: the engine keeps none.
                filesDirectory = try? FileStore.defaultDirectory(appID: appID)
            } else {
                filesDirectory = directory
            }
        }
        let envelope: SealedEnvelope
        switch options.protection {
        case .none:
            envelope = .unencrypted(bundleVersion: options.bundleVersion)
        case .keyProvider(let provider):
            envelope = SealedEnvelope(keyProvider: provider, bundleVersion: options.bundleVersion)
        case .keyFile(let path?) where !(store is MemoryStore):
            envelope = SealedEnvelope(keyProvider: try Self.keyFile(at: path), bundleVersion: options.bundleVersion)
        case .keyFile:
            if case .custom(_, let named) = options.storage, !(store is MemoryStore) {
                let directory: String
                if let named { directory = named } else { directory = try FileStore.defaultDirectory(appID: appID) }
                guard !directory.isEmpty else { throw AmberError(.invalidArgument, "the state directory is empty") }
                envelope = SealedEnvelope(keyProvider: KeyFileProvider(directory: directory), bundleVersion: options.bundleVersion)
            } else {
                envelope = Self.defaultEnvelope(for: store, appID: appID, bundleVersion: options.bundleVersion)
            }
        }
        for (name, budget) in [("object budget", options.objectBudget), ("archive budget", options.archiveBudget)] {
            if let budget, budget <= 0 { throw AmberError(.invalidArgument, "the \(name) is \(budget) bytes; a budget must be positive") }
        }
        self.init(
            appID: appID, bundleVersion: options.bundleVersion, interfaceIdiom: options.interfaceIdiom,
            store: store, envelope: envelope)
        objectBudget = options.objectBudget
        archiveBudget = options.archiveBudget
        let keeps = options.keepsRestorationReport || EngineOptions.environmentKeepsReport()
        reportDirectory = keeps ? filesDirectory.map { StateFiles(directory: $0).directory } : nil
        keepsArchiveAfterRestore = options.keepsArchiveAfterRestore
    }

    /// The key file at `path` (a file name alone is in the working directory).
    private static func keyFile(at path: String) throws(AmberError) -> KeyFileProvider {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw AmberError(.invalidArgument, "the key file '\(path)' does not name a file") }
        return KeyFileProvider(directory: directory.isEmpty ? "/" : directory, name: name)
    }
}
