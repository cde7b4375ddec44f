/// The archive store on disk (SPEC R14, R19): two files in the application's state directory.
///
/// - `state.archive`: the archive as the envelope sealed it, mode 0600, replaced atomically
///   (temporary file created exclusively in the same directory, written whole, fsync, rename
///   over the archive, fsync of the directory; on any failure the temporary file is removed and
///   the old archive stays).
/// - `restore.guard`: the launch guard, the decimal count of launches in a row that started
///   restoring and did not complete, replaced atomically the same way but without the fsyncs,
///   and removed without syncing the directory: the guard is there to survive a process that
///   dies while restoring (a crash, SIGKILL), which the page cache does; a power failure can at
///   worst bring back an old count or lose the last one, that is one restore attempt more or
///   less, never a lost or resurrected archive (the archive's writes and removal stay durable,
///   and the next durable operation in the directory carries the guard's along). This saves
///   three of the four fsyncs of a launch that restores. A guard file that does not hold a
///   count reads as 1 (it exists, so a restoration started).
///
/// The directory is created with mode 0700 when first written to.
public final class FileStore: ArchiveStore {
    /// The directory of the files.
    public let directory: String
    /// The archive's file name.
    public let archiveName = "state.archive"
    /// The launch guard's file name.
    public let guardName = "restore.guard"
    /// The largest archive file read; a larger one is refused with `.limitExceeded`.
    public let maxBytes: Int
    /// Makes the k-th file-system operation of writes and of the archive's removal fail, for
    /// the fault-injection tests.
    public var faults: FaultInjector?

    /// A store in `directory`. Nothing is created until the first write.
    public init(directory: String, maxBytes: Int = 1 << 30) {
        var d = directory
        while d.count > 1, d.hasSuffix("/") { d.removeLast() }
        self.directory = d
        self.maxBytes = maxBytes
    }

    /// A store in the application's default state directory (`defaultDirectory(appID:)`).
    /// - Throws: as `defaultDirectory(appID:)`.
    public convenience init(appID: String) throws(AmberError) {
        self.init(directory: try FileStore.defaultDirectory(appID: appID))
    }

    /// The per-application state directory, on the XDG conventions: `$XDG_STATE_HOME/<app-id>`
    /// if that variable holds an absolute path, else `$HOME/.local/state/<app-id>`.
    /// - Throws: `.invalidArgument` for an application id that is empty, `.` or `..`, holds
    ///   `/` or NUL, or is longer than 255 bytes (`AppDirectories.validate(appID:)`);
    ///   `.notFound` if there is no home directory.
    public static func defaultDirectory(appID: String) throws(AmberError) -> String {
        try AppDirectories.validate(appID: appID)
        if let state = FileSystem.environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state + "/" + appID
        }
        guard let home = FileSystem.homeDirectory() else {
            throw AmberError(.notFound, "neither XDG_STATE_HOME nor a home directory is set")
        }
        return home + "/.local/state/" + appID
    }

    /// The archive file's path.
    public var archivePath: String { directory + "/" + archiveName }
    /// The launch guard file's path.
    public var guardPath: String { directory + "/" + guardName }

    /// The archive's bytes, or nil if there is no archive file.
    /// - Throws: `.io` also for an archive path that holds a FIFO, a directory, a socket or a
    ///   device: it is never opened so that it blocks, never read, and left as it is (the engine
    ///   then launches fresh, "archive unreadable", and keeps it); `.limitExceeded` beyond
    ///   `maxBytes`.
    public func read() throws -> [UInt8]? {
        try FileSystem.readFile(archivePath, maxBytes: maxBytes)
    }

    /// Replaces the archive atomically and durably.
    public func write(_ bytes: [UInt8]) throws {
        try FileSystem.writeFileAtomically(directory: directory, name: archiveName, bytes: bytes, faults: faults)
    }

    /// Removes the archive file. Anything at its path that is not a regular file (or a symbolic
    /// link) is refused with `.io` and left as it is. `faults` sees the operations "unlink" and
    /// "fsync directory".
    public func remove() throws {
        try FileSystem.removeFile(directory: directory, name: archiveName, regularOnly: true, faults: faults)
    }

    /// Removes the archive a launch consumed without syncing the directory: the launch's only
    /// wait on the disk, before the program's first frame, would otherwise be that fsync (see
    /// `ArchiveStore.removeConsumed()`). A later save's fsync of the directory makes it durable.
    public func removeConsumed() throws {
        try FileSystem.removeFile(directory: directory, name: archiveName, durable: false, regularOnly: true, faults: faults)
    }

    /// The launch guard's count (0 without a guard file).
    /// - Throws: `.io`, also for a guard path that holds a FIFO, a directory, a socket or a
    ///   device (never opened so that it blocks, never read, left as it is).
    public func readGuard() throws -> Int {
        guard let bytes = try FileSystem.readFile(guardPath, maxBytes: 64) else { return 0 }
        var count = 0
        var digits = 0
        for b in bytes {
            if b >= 0x30, b <= 0x39, digits < 9 {
                count = count * 10 + Int(b - 0x30)
                digits += 1
            } else if b == 0x0A, digits > 0 {
                break
            } else {
                return 1
            }
        }
        return digits == 0 ? 1 : count
    }

    /// Writes the launch guard's count atomically (durable against the process's death; see
    /// the type's description).
    public func writeGuard(_ count: Int) throws {
        try FileSystem.writeFileAtomically(
            directory: directory, name: guardName, bytes: Array((String(max(0, count)) + "\n").utf8), faults: faults,
            durable: false)
    }

    /// Removes the launch guard file (without syncing the directory; see the type's
    /// description). Anything at its path that is not a regular file is refused, left as it is.
    public func removeGuard() throws {
        try FileSystem.removeFile(directory: directory, name: guardName, durable: false, regularOnly: true)
    }

    /// Removes temporary files that a process which died mid-save left behind (the engine calls
    /// it at each restore, that is at launch): the archive's and the launch guard's. Returns how
    /// many were removed.
    @discardableResult
    public func removeStaleFiles() -> Int {
        FileSystem.removeStaleTemporaryFiles(directory: directory, name: archiveName)
            + FileSystem.removeStaleTemporaryFiles(directory: directory, name: guardName)
    }
}
