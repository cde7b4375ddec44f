#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the key file needs beyond FileSystem.swift: a read that refuses symbolic links and
/// reports who owns the file and who may read it, and a create that never replaces a file.
extension FileSystem {
    /// A small file as read by `readPrivateFile`.
    struct PrivateFile {
        var bytes: [UInt8]
        /// The permission bits.
        var mode: UInt32
        /// Whether the file belongs to this process's effective user.
        var ownedByUs: Bool
    }

    /// A small regular file (not followed through a symbolic link), or nil if it does not exist.
    /// The open never blocks and nothing but a regular file is read (`openRegularFile`): a FIFO,
    /// a directory, a socket or a device at `path` is refused and left as it is.
    /// - Throws: `.keyUnavailable` for a symbolic link, anything that is not a regular file, or
    ///   a file of more than `maxBytes` (the file is not fit to be a key, whatever the purpose);
    ///   `.io` for an open or a read the system refused.
    static func readPrivateFile(_ path: String, maxBytes: Int) throws(AmberError) -> PrivateFile? {
        let opened = try openRegularFile(
            path, noFollow: true,
            notRegular: { path, type in
                AmberError(.keyUnavailable, "the key file '\(path)' is \(type), not a regular file; refused, left as it is")
            },
            symbolicLink: { path in
                AmberError(.keyUnavailable, "the key file '\(path)' is a symbolic link; a key file must be a regular file; refused")
            })
        guard let (fd, info) = opened else { return nil }
        defer { system_close(fd) }
        guard Int(info.st_size) <= maxBytes else {
            throw AmberError(.keyUnavailable, "the key file '\(path)' holds \(info.st_size) bytes, more than \(maxBytes); refused")
        }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = try readSome(fd, into: &bytes, at: count, path)
            if n == 0 { break }
            count += n
        }
        guard count <= maxBytes else {
            throw AmberError(.keyUnavailable, "the key file '\(path)' holds more than \(maxBytes) bytes; refused")
        }
        bytes.removeSubrange(count...)
        return PrivateFile(bytes: bytes, mode: UInt32(info.st_mode & 0o7777), ownedByUs: info.st_uid == system_geteuid())
    }

    /// Creates `directory/name` holding `bytes` (mode 0600), durably, unless it exists: the
    /// bytes are written to a temporary file, synced, and linked to the name, which fails if
    /// another process got there first. Returns whether this call created the file.
    ///
    /// A process killed in here leaves its temporary file `.<name>.<hex>.tmp` (after the link,
    /// a second hard link of the file just created); `removeStaleTemporaryFiles(directory:name:)`
    /// removes such leftovers, as the archive store's clean-up at launch does.
    static func createFileExclusively(directory: String, name: String, bytes: [UInt8]) throws(AmberError) -> Bool {
        try makeDirectories(directory)
        let target = directory + "/" + name
        let (fd, temporary) = try createTemporaryFile(directory: directory, name: name)
        defer { system_unlink(temporary) }
        do throws(AmberError) {
            try writeAll(fd, bytes[...], temporary)
        } catch {
            system_close(fd)
            throw error
        }
        if system_fsync(fd) != 0 {
            let code = system_errno
            system_close(fd)
            throw failure("sync", temporary, code)
        }
        if system_close(fd) != 0 { throw failure("close", temporary, system_errno) }
        if system_link(temporary, target) != 0 {
            let code = system_errno
            if code == EEXIST { return false }
            throw failure("link", target, code)
        }
        try syncDirectory(directory)
        return true
    }
}
