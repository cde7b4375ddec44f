/// Data files written atomically (SPEC R27): Foundation's `writeToFile:atomically:YES`.
///
/// `write(_:toPath:)` makes a temporary file next to the target (created exclusively, mode
/// 0600), writes everything, syncs it, renames it over the target and syncs the directory.
/// Whatever moment the process dies at, the file holds the old bytes or the new ones; on any
/// failure the temporary file is removed and the old file is left as it was. The file system
/// code is `FileSystem`'s, the archive store's own.
public enum DataFile {
    /// Splits a file path into its directory and its name.
    /// - Throws: `.invalidArgument` for an empty path, one ending in `/`, or a name `.`/`..`.
    static func split(_ path: String) throws(AmberError) -> (directory: String, name: String) {
        guard !path.isEmpty, !path.utf8.contains(0) else { throw AmberError(.invalidArgument, "the file path is empty or contains NUL") }
        guard !path.hasSuffix("/") else { throw AmberError(.invalidArgument, "'\(path)' names a directory, not a file") }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(parts.last ?? "")
        guard name != ".", name != ".." else { throw AmberError(.invalidArgument, "'\(path)' names a directory, not a file") }
        if parts.count == 1 { return (".", name) }
        let dir = parts.dropLast().joined(separator: "/")
        return (dir.isEmpty ? "/" : dir, name)
    }

    /// Replaces the file at `path` with `bytes`, atomically and durably. The directory must
    /// exist (as for Foundation).
    /// - Throws: `.invalidArgument` for a path that names no file; `.io` naming the call and
    ///   errno that failed.
    ///
    /// Backs `amber_file_write_atomic`.
    public static func write(_ bytes: [UInt8], toPath path: String) throws(AmberError) {
        try write(bytes, toPath: path, faults: nil)
    }

    static func write(_ bytes: [UInt8], toPath path: String, faults: FaultInjector?) throws(AmberError) {
        let (directory, name) = try split(path)
        try FileSystem.writeFileAtomically(directory: directory, name: name, bytes: bytes, faults: faults, createDirectory: false)
    }

    /// The bytes of the file at `path`, or nil if there is no such file.
    /// - Throws: `.io`; `.limitExceeded` for a file larger than `maxBytes`.
    ///
    /// Backs `amber_file_read`.
    public static func read(path: String, maxBytes: Int = 1 << 30) throws(AmberError) -> [UInt8]? {
        guard !path.isEmpty, !path.utf8.contains(0) else { throw AmberError(.invalidArgument, "the file path is empty or contains NUL") }
        return try FileSystem.readFile(path, maxBytes: maxBytes)
    }
}
