#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the engine asks of the operating system: files (open, read, write, fsync, rename,
/// unlink, mkdir), the environment, the clock and the kernel's release, through the C calls of
/// `Syscalls.swift`. Every pointer those calls need lives in Platform/ and does not leave it;
/// everything else in AmberCore is safe Swift.
enum FileSystem {
    // MARK: Errors

    static func describe(errno code: Int32) -> String {
        guard let text = system_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    static func failure(_ what: String, _ path: String, _ code: Int32) -> AmberError {
        AmberError(.io, "cannot \(what) '\(path)': \(describe(errno: code))")
    }

    // MARK: Environment

    /// The value of an environment variable, if set.
    static func environment(_ name: String) -> String? {
        guard let value = system_getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The user's home directory: `$HOME`, else the password database's.
    static func homeDirectory() -> String? {
        if let home = environment("HOME"), !home.isEmpty { return home }
        return passwordHomeDirectory()
    }

    /// The home directory the password database gives the current user, if any.
    static func passwordHomeDirectory() -> String? {
        guard let entry = system_getpwuid(system_getuid()), let dir = entry.pointee.pw_dir else { return nil }
        let home = String(cString: dir)
        return home.isEmpty ? nil : home
    }

    /// The real user id of the process.
    static func userID() -> UInt32 { UInt32(system_getuid()) }

    // MARK: Clock and kernel

    /// Overwrites `bytes` with zeros in place (a plaintext archive once sealed, SPEC R34), so
    /// that what they held does not stay in freed memory.
    static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { b in if let base = b.baseAddress { system_explicit_bzero(base, b.count) } }
    }

    /// Seconds since 2001-01-01T00:00:00Z (the reference date of NSDate), from the real-time clock.
    static func now() -> Double {
        var ts = timespec()
        guard system_clock_gettime(CLOCK_REALTIME, &ts) == 0 else { return 0 }
        return Double(ts.tv_sec) - 978_307_200 + Double(ts.tv_nsec) / 1_000_000_000
    }

    /// Writes text to standard error in one call (a log line; a failure is ignored: there is
    /// nowhere to report it).
    static func writeStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { system_write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Seconds on the monotonic clock, for durations.
    static func monotonicSeconds() -> Double {
        var ts = timespec()
        guard system_clock_gettime(CLOCK_MONOTONIC, &ts) == 0 else { return 0 }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }

    /// The kernel's release (`uname -r`), or "" if unknown.
    static func systemRelease() -> String {
        var names = utsname()
        guard system_uname(&names) == 0 else { return "" }
        return withUnsafeBytes(of: &names.release) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    // MARK: Directories

    /// Whether a directory exists at `path`.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return system_stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// What `lstat` says of a path (a final symbolic link is not followed), or nil if nothing
    /// is there.
    static func linkStatus(_ path: String) -> (isDirectory: Bool, isSymbolicLink: Bool, owner: UInt32, mode: UInt32)? {
        var info = stat()
        guard system_lstat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        return (type == S_IFDIR, type == S_IFLNK, UInt32(info.st_uid), UInt32(info.st_mode & 0o7777))
    }

    /// Creates `path` and the directories above it that are missing, each with `mode`, and
    /// syncs the parent of each one it creates: a new directory's name is durable only once
    /// its parent is synced, and without it a power cut after a first save could take the
    /// state directory away, with the archive and the key file in it, on a file system that
    /// does not commit every earlier name with a later fsync (SPEC R19; the power-loss test,
    /// Tests/powerloss, found it).
    static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(AmberError) {
        if isDirectory(path) { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            let parent = current.isEmpty ? "/" : current
            current += "/" + component
            if system_mkdir(current, mode) == 0 {
                try syncDirectory(parent, unreadableIsDurable: true)
            } else {
                let code = system_errno
                guard code == EEXIST, isDirectory(current) else {
                    throw failure("create the directory", current, code)
                }
            }
        }
    }

    /// Makes a directory's entries durable (after a rename or an unlink in it).
    /// `unreadableIsDurable`: a directory this process may write in but not read (EACCES on
    /// the open) is left as durable as the file system makes it, rather than failing: the
    /// parent of a directory just created, which the host may not be allowed to read.
    static func syncDirectory(_ path: String, unreadableIsDurable: Bool = false) throws(AmberError) {
        let fd = system_open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0, unreadableIsDurable, system_errno == EACCES { return }
        guard fd >= 0 else { throw failure("open the directory", path, system_errno) }
        defer { system_close(fd) }
        if system_fsync(fd) != 0 {
            let code = system_errno
            // Some file systems cannot sync a directory; their entries are as durable as they get.
            guard code == EINVAL || code == EROFS else { throw failure("sync the directory", path, code) }
        }
    }

    // MARK: Files

    /// What a file type (`st_mode & S_IFMT`) is, in words: "a FIFO", "a directory"...
    static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// Opens a file to read it, never blocking and never reading anything but a regular file
    /// (SPEC R22): the open is non-blocking (a FIFO without a writer, or a device, would
    /// otherwise block it forever), then `fstat` on the descriptor checks the type before any
    /// read, and the descriptor is made blocking again for the read of the regular file.
    /// `noFollow`: a final symbolic link is refused (ELOOP), not followed.
    /// Returns nil (nothing opened) if the file does not exist.
    /// - Throws: `.io` for a refused open (naming the call and errno); `notRegular(path, type)`
    ///   for anything that is not a regular file; `symbolicLink(path)` for a symbolic link
    ///   with `noFollow`.
    static func openRegularFile(
        _ path: String, noFollow: Bool = false,
        notRegular: (String, String) -> AmberError = { path, type in
            AmberError(.io, "cannot read '\(path)': it is \(type), not a regular file; refused, left as it is")
        },
        symbolicLink: (String) -> AmberError = { path in
            AmberError(.io, "cannot read '\(path)': it is a symbolic link; refused")
        }
    ) throws(AmberError) -> (fd: Int32, info: stat)? {
        let fd = system_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (noFollow ? O_NOFOLLOW : 0))
        if fd < 0 {
            let code = system_errno
            if code == ENOENT { return nil }
            if code == ELOOP && noFollow { throw symbolicLink(path) }
            // A socket cannot be opened (ENXIO): it is there, and not a regular file.
            if code == ENXIO, let type = linkStatusMode(path), type & S_IFMT != S_IFREG {
                throw notRegular(path, typeName(type))
            }
            throw failure("open", path, code)
        }
        var info = stat()
        guard system_fstat(fd, &info) == 0 else {
            let code = system_errno
            system_close(fd)
            throw failure("inspect", path, code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            system_close(fd)
            throw notRegular(path, typeName(info.st_mode))
        }
        let flags = system_fcntl(fd, F_GETFL)
        if flags >= 0 { _ = system_fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, info)
    }

    /// The mode (type and permissions) of what a path names, symbolic links followed; nil if
    /// nothing is there.
    static func statusMode(_ path: String) -> mode_t? {
        var info = stat()
        guard system_stat(path, &info) == 0 else { return nil }
        return info.st_mode
    }

    /// The mode (type and permissions) `lstat` gives for a path, or nil if nothing is there.
    static func linkStatusMode(_ path: String) -> mode_t? {
        var info = stat()
        guard system_lstat(path, &info) == 0 else { return nil }
        return info.st_mode
    }

    /// The bytes of a file, or nil if it does not exist. Never blocks on, and never reads,
    /// anything but a regular file (`openRegularFile`).
    /// - Throws: `.io` (also for a FIFO, a directory, a socket or a device at `path`, which is
    ///   left as it is); `.limitExceeded` for a file larger than `maxBytes`.
    static func readFile(_ path: String, maxBytes: Int) throws(AmberError) -> [UInt8]? {
        guard let (fd, info) = try openRegularFile(path) else { return nil }
        defer { system_close(fd) }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw AmberError(.limitExceeded, "'\(path)' holds \(size) bytes, more than the limit of \(maxBytes)")
        }
        // Read straight into the result (one byte more than the size, to see the end of the
        // file in the same buffer; grown if the file grew), then cut to what was read: one
        // buffer, where reading into a chunk and appending it touched and copied two.
        var result = [UInt8](repeating: 0, count: max(size + 1, 4096))
        var count = 0
        while true {
            if count == result.count { result.append(contentsOf: repeatElement(0, count: min(result.count, 1 << 22))) }
            let n = try readSome(fd, into: &result, at: count, path)
            if n == 0 { break }
            count += n
            guard count <= maxBytes else {
                throw AmberError(.limitExceeded, "'\(path)' holds more than the limit of \(maxBytes) bytes")
            }
        }
        result.removeLast(result.count - count)
        return result
    }

    /// Replaces `directory/name` with `bytes` durably and atomically (SPEC R19), the save
    /// protocol written once:
    ///
    /// 1. create a temporary file `.<name>.<random>.tmp` in the same directory, exclusively,
    ///    mode 0600 (the directory is created 0700 if needed and `createDirectory` is true);
    /// 2. write all the bytes; 3. fsync it; 4. close it;
    /// 5. rename it over `name`; 6. fsync the directory.
    ///
    /// On a failure before the rename the temporary file is unlinked and the old file is left as
    /// it was; a failed fsync is never retried (the kernel may have dropped the dirty pages, so a
    /// second fsync proves nothing). A failure of step 6 comes after the rename: the new file is
    /// in place, but its durability is not confirmed, and the call still fails (`.io`, saying
    /// so: "the new contents of ... are in place, but their durability is not confirmed"). A
    /// temporary file left by a process that died mid-save is removed by
    /// `removeStaleTemporaryFiles`.
    ///
    /// A target that exists and is neither a regular file nor a symbolic link (a FIFO, a
    /// directory, a socket, a device: SPEC R22) is refused with `.io` before anything is
    /// created, and left as it is.
    ///
    /// `faults` makes the k-th operation fail, for the fault-injection tests.
    ///
    /// `durable: false` skips both fsyncs (the fault-injection steps stay, so operations are
    /// numbered alike): the replacement is still atomic and survives the process's death, not
    /// a power failure.
    static func writeFileAtomically(
        directory: String, name: String, bytes: [UInt8], faults: FaultInjector? = nil, createDirectory: Bool = true,
        durable: Bool = true
    ) throws(AmberError) {
        if createDirectory { try makeDirectories(directory) }
        let target = directory + "/" + name
        if let mode = linkStatusMode(target), mode & S_IFMT != S_IFREG, mode & S_IFMT != S_IFLNK {
            throw AmberError(.io, "cannot replace '\(target)': it is \(typeName(mode)), not a regular file; refused, left as it is")
        }
        try faults?.step("create", directory)
        let (fd, temporary) = try createTemporaryFile(directory: directory, name: name)
        var renamed = false
        defer {
            if !renamed {
                // An injected failure of the clean-up leaves the temporary file, as a crash would.
                var injected = false
                if let faults {
                    do { try faults.step("unlink", temporary) } catch { injected = true }
                }
                if !injected { system_unlink(temporary) }
            }
        }
        do throws(AmberError) {
            try faults?.step("write", temporary)
            if durable { try PipelinedWrite.write(fd, bytes, temporary) } else { try writeAll(fd, bytes[...], temporary) }
            try faults?.step("fsync", temporary)
            if durable, system_fsync(fd) != 0 { throw failure("sync", temporary, system_errno) }
        } catch {
            system_close(fd)
            throw error
        }
        do throws(AmberError) {
            try faults?.step("close", temporary)
        } catch {
            system_close(fd)
            throw error
        }
        if system_close(fd) != 0 { throw failure("close", temporary, system_errno) }
        try faults?.step("rename", target)
        if system_rename(temporary, target) != 0 { throw failure("rename over", target, system_errno) }
        renamed = true
        do throws(AmberError) {
            try faults?.step("fsync directory", directory)
            if durable { try syncDirectory(directory) }
        } catch {
            throw AmberError(.io, "the new contents of '\(target)' are in place, but their durability is not confirmed: \(error.message)")
        }
    }

    /// Creates `.<name>.<random hex>.tmp` in `directory`, exclusively and owner-only (0600), for
    /// writing; its descriptor and path.
    static func createTemporaryFile(directory: String, name: String) throws(AmberError) -> (fd: Int32, path: String) {
        for _ in 0 ..< 16 {
            let tag = String(UInt64.random(in: 0 ... UInt64.max), radix: 16)
            let temporary = directory + "/." + name + "." + tag + ".tmp"
            let fd = system_open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { return (fd, temporary) }
            let code = system_errno
            guard code == EEXIST else { throw failure("create", temporary, code) }
        }
        throw AmberError(.io, "cannot create a temporary file in '\(directory)'")
    }

    /// Reads into `buffer` from `offset` to its end, in one `read` (retried on EINTR); returns
    /// how many bytes came, 0 at the end of the file.
    static func readSome(_ fd: Int32, into buffer: inout [UInt8], at offset: Int, _ path: String) throws(AmberError) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { b in system_read(fd, b.baseAddress! + offset, b.count - offset) }
            if n >= 0 { return n }
            let code = system_errno
            if code != EINTR { throw failure("read", path, code) }
        }
    }

    /// Writes all of `bytes`, however many calls it takes.
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, _ path: String) throws(AmberError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in system_write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
            if n < 0 {
                let code = system_errno
                if code == EINTR { continue }
                throw failure("write", path, code)
            }
            offset += n
        }
    }

    /// Removes the temporary files `writeFileAtomically` and `createFileExclusively` leave when
    /// the process dies mid-save (`.<name>.<hex>.tmp` for `name`; for a key file, one of them may
    /// be a second hard link of the live key, which stays under its own name). Returns how many
    /// were removed.
    @discardableResult
    static func removeStaleTemporaryFiles(directory: String, name: String) -> Int {
        guard let entries = directoryEntries(directory) else { return 0 }
        let prefix = "." + name + "."
        var removed = 0
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
            let middle = entry.dropFirst(prefix.count).dropLast(4)
            guard !middle.isEmpty, middle.allSatisfy({ $0.isHexDigit }) else { continue }
            if system_unlink(directory + "/" + entry) == 0 { removed += 1 }
        }
        return removed
    }

    /// Removes a file durably (`durable: false`: without the directory's fsync, so the removal
    /// survives the process's death, not a power failure); nothing happens if it does not exist.
    /// `regularOnly`: anything but a regular file or a symbolic link (a FIFO, a socket, a
    /// device) is refused with `.io` and left as it is. `faults` makes the unlink ("unlink")
    /// or the directory's fsync ("fsync directory") fail, for the fault-injection tests.
    static func removeFile(
        directory: String, name: String, durable: Bool = true, regularOnly: Bool = false, faults: FaultInjector? = nil
    ) throws(AmberError) {
        let path = directory + "/" + name
        if regularOnly, let mode = linkStatusMode(path), mode & S_IFMT != S_IFREG, mode & S_IFMT != S_IFLNK {
            throw AmberError(.io, "cannot remove '\(path)': it is \(typeName(mode)), not a regular file; refused, left as it is")
        }
        try faults?.step("unlink", path)
        if system_unlink(path) != 0 {
            let code = system_errno
            if code == ENOENT { return }
            throw failure("remove", path, code)
        }
        try faults?.step("fsync directory", directory)
        if durable { try syncDirectory(directory) }
    }

    /// Removes an empty directory; nothing happens if it does not exist.
    static func removeDirectory(_ path: String) throws(AmberError) {
        if system_rmdir(path) != 0 {
            let code = system_errno
            if code == ENOENT { return }
            throw failure("remove the directory", path, code)
        }
    }

    /// The permission bits of a file (for tests and diagnostics), or nil if it does not exist.
    static func permissions(_ path: String) -> UInt32? {
        var info = stat()
        guard system_stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode & 0o7777)
    }

    /// Changes the permission bits of a path (for tests).
    static func setPermissions(_ path: String, _ mode: UInt32) {
        _ = system_chmod(path, mode_t(mode))
    }

    /// The names in a directory (for tests and diagnostics), or nil if it cannot be read.
    static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = system_opendir(path) else { return nil }
        defer { system_closedir(dir) }
        var names: [String] = []
        while let entry = system_readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
