#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files an engine keeps in its state directory, named once for the engine and for the
/// tools that look at them (`amber inspect --app`, `amber report --app`):
///
/// | file                    | what                                                          |
/// |-------------------------|---------------------------------------------------------------|
/// | `state.archive`         | the archive (`FileStore`), consumed at launch (SPEC R14)      |
/// | `archive.key`           | its key (`KeyFileProvider`), with the default protection      |
/// | `restore.guard`         | the launch guard (`FileStore`)                                |
/// | `last-restore.report`   | the last restoration's report, when kept (`KeptRestorationReport`) |
///
/// The state directory of an engine opened with the default options is
/// `FileStore.defaultDirectory(appID:)`: `$XDG_STATE_HOME/<app-id>`, else
/// `~/.local/state/<app-id>`.
public struct StateFiles: Sendable {
    /// The state directory.
    public let directory: String

    /// The files of an engine opened with the default options for `appID`.
    /// - Throws: as `FileStore.defaultDirectory(appID:)`: `.invalidArgument` for an unusable id,
    ///   `.notFound` without `XDG_STATE_HOME` or a home directory.
    public init(appID: String) throws(AmberError) {
        self.init(directory: try FileStore.defaultDirectory(appID: appID))
    }

    /// The files of an engine whose state directory is `directory`.
    public init(directory: String) {
        self.directory = FileStore(directory: directory).directory
    }

    /// The archive's path (`FileStore.archivePath`).
    public var archivePath: String { FileStore(directory: directory).archivePath }
    /// The launch guard's path (`FileStore.guardPath`).
    public var guardPath: String { FileStore(directory: directory).guardPath }
    /// The default key file's path (`KeyFileProvider.defaultName` in the directory).
    public var keyPath: String { KeyFileProvider(directory: directory).path }
    /// Where the last restoration's report is kept (`KeptRestorationReport.fileName`).
    public var reportPath: String { directory + "/" + KeptRestorationReport.fileName }

    /// The archive and, when its file exists, the key, for a tool that opens the archive as
    /// the engine would.
    /// - Throws: `.notFound` naming the paths tried when there is no archive file (and saying
    ///   whether the directory exists, and whether a kept report may say why); `.io` when the
    ///   archive's path holds something other than a regular file.
    public func existingArchive() throws(AmberError) -> (archive: String, key: String?) {
        let archive = archivePath
        if FileSystem.linkStatusMode(archive) != nil {
            try Self.requireRegularFile(archive)
            return (archive, FileSystem.linkStatusMode(keyPath) == nil ? nil : keyPath)
        }
        var message = "no archive: '\(archive)' does not exist"
        if !FileSystem.isDirectory(directory) {
            message += " (the state directory '\(directory)' does not exist: nothing was saved there)"
        } else if FileSystem.linkStatusMode(reportPath) != nil {
            message += "; an archive is consumed at launch, and '\(reportPath)' holds the last restoration's report (amber report)"
        } else {
            message += "; an archive is consumed at launch (keep its report with AMBER_KEEP_REPORT=1)"
        }
        throw AmberError(.notFound, message)
    }

    /// The kept report's path, when its file exists.
    /// - Throws: `.notFound` naming the path tried.
    public func existingReport() throws(AmberError) -> String {
        let report = reportPath
        if FileSystem.linkStatusMode(report) != nil {
            try Self.requireRegularFile(report)
            return report
        }
        var message = "no restoration report: '\(report)' does not exist"
        if !FileSystem.isDirectory(directory) {
            message += " (the state directory '\(directory)' does not exist)"
        }
        message += "; the engine keeps one with the option to keep the restoration report, or AMBER_KEEP_REPORT=1"
        throw AmberError(.notFound, message)
    }

    /// Refuses a path that is not a regular file once symbolic links are followed (a FIFO
    /// would block a reader; a directory cannot be read).
    private static func requireRegularFile(_ path: String) throws(AmberError) {
        guard let mode = FileSystem.statusMode(path) else {
            throw AmberError(.notFound, "'\(path)' is a symbolic link to nothing")
        }
        guard mode & S_IFMT == S_IFREG else {
            throw AmberError(.io, "'\(path)' is \(FileSystem.typeName(mode)), not a regular file; refused")
        }
    }
}
