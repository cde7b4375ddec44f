// Issue 26, items 4 and 6: special files in place of the archive, the launch guard and the key
// file never block or get read (R19, R20, R22); a failed directory fsync after the rename says
// the new contents are in place (R19); an injected unlink failure keeps the archive (R14, R19);
// the leftovers of a key creation killed midway are cleaned up at launch (R19, R20); a key file
// unfit to be a key is "unavailable" at preserve too (R20); a key provider's own failure is
// passed up unchanged by a save and keeps the archive at launch (R20).

import AmberArchive
@testable import AmberCore
import Dispatch
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What ran on another thread, and how long it took.
private final class Run<T>: @unchecked Sendable {
    var value: T?
    var seconds = 0.0
    let body: () -> T
    init(_ body: @escaping () -> T) { self.body = body }
}

/// Runs `body` on another thread and waits for it at most `limit` seconds. Still running then
/// (blocked opening a FIFO, as before the fix), it is released: each FIFO of `fifos` is opened
/// for writing and closed, which lets an open blocked on the read side return. Returns what the
/// body returned, the seconds it took, and whether it had to be released.
private func bounded<T>(_ limit: Double = 2, releasing fifos: [String], _ body: @escaping () -> T) -> (value: T, seconds: Double, blocked: Bool) {
    let run = Run(body)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [run] in
        let start = FileSystem.monotonicSeconds()
        run.value = run.body()
        run.seconds = FileSystem.monotonicSeconds() - start
        done.signal()
    }
    var blocked = false
    if done.wait(timeout: .now() + limit) == .timedOut {
        blocked = true
        while done.wait(timeout: .now() + 0.05) == .timedOut {
            for fifo in fifos {
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
        }
    }
    return (run.value!, run.seconds, blocked)
}

/// The type of what is at `path` (`lstat`: a symbolic link is not followed), nil if nothing.
private func fileType(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
}

/// Whether `path` is a FIFO (not followed through a symbolic link).
private func isFIFO(_ path: String) -> Bool { fileType(path) == S_IFIFO }

/// An engine on a FileStore in `dir`, encrypted with `provider` (default: the key file in `dir`).
private func diskEngine(_ dir: String, provider: (any KeyProvider)? = nil, faults: FaultInjector? = nil) -> Engine {
    let store = FileStore(directory: dir)
    store.faults = faults
    let e = Engine(configuration: EngineConfiguration(
        appID: "org.amber.tests", bundleVersion: "1", store: store,
        envelope: SealedEnvelope(keyProvider: provider ?? KeyFileProvider(directory: dir), bundleVersion: "1"),
        systemVersion: "test"))
    e.delegate.shouldSave = { _ in true }
    e.delegate.shouldRestore = { _ in true }
    return e
}

/// Saves one controller holding `value`; returns the error, if any.
private func save(_ value: String, _ dir: String, provider: (any KeyProvider)? = nil) -> (any Error)? {
    let e = diskEngine(dir, provider: provider)
    let root = controller("Root")
    saving(root, value)
    do {
        try e.addRoot(root)
        _ = try e.preserve()
        return nil
    } catch {
        return error
    }
}

/// Launches an engine on `dir`; returns the report and the value restored, if any.
private func launch(_ dir: String, provider: (any KeyProvider)? = nil) -> (report: RestorationReport, value: String?) {
    let e = diskEngine(dir, provider: provider)
    let log = Log()
    let root = controller("Root")
    saving(root, "", log: log)
    try? e.addRoot(root)
    let report = e.launch()
    return (report, log.entries.first { $0.hasPrefix("decode Root=") }.map { String($0.dropFirst(12)) })
}

/// A key provider's own error, for the pass-through checks.
private struct KeychainError: Error, Equatable, CustomStringConvertible {
    var status: Int32
    var description: String { "keychain status \(status)" }
}

@Suite struct FileHardeningTests {
    // R22, R19, R20 (issue 26, item 4): a FIFO in place of the archive, the launch guard or the
    // key file: the launch returns within 100 ms with a clear status, and the FIFO is left as it is.
    @Test func aFIFOAtTheArchiveTheGuardOrTheKeyNeverBlocksALaunch() throws {
        let scratch = ScratchDirectory("fifo-launch")
        defer { scratch.cleanup() }

        // The archive: a store error (the store cannot read it), not corrupt: nothing was read,
        // so nothing is known of an archive, and the FIFO is not deleted.
        let a = scratch.path + "/archive"
        try FileSystem.makeDirectories(a)
        #expect(mkfifo(a + "/state.archive", 0o600) == 0)
        let archive = bounded(releasing: [a + "/state.archive"]) { launch(a) }
        print("R22 FIFO at the archive: launch returned in \(Int(archive.seconds * 1000)) ms: \(archive.value.report.description)")
        #expect(!archive.blocked, "R22 a FIFO at the archive blocked the launch")
        #expect(archive.seconds < 0.1, "R22 the launch took \(archive.seconds) s")
        guard case .unreadableArchive(let why)? = archive.value.report.freshLaunchReason else {
            Issue.record("R22 a FIFO at the archive: expected an unreadable archive (store error), got \(archive.value.report)")
            return
        }
        #expect(why.contains("FIFO"), "R22 the reason names what is there: \(why)")
        #expect(isFIFO(a + "/state.archive"), "R22 the FIFO at the archive is left as it is")
        // At preserve: refused, the FIFO left as it is.
        let refused = bounded(releasing: [a + "/state.archive"]) { save("new", a) }
        #expect(!refused.blocked && refused.seconds < 0.1, "R22 preserve over a FIFO took \(refused.seconds) s")
        #expect(refused.value.map(code) == .io, "R22 preserve over a FIFO at the archive is AMBER_IO: \(String(describing: refused.value))")
        #expect(isFIFO(a + "/state.archive"), "R22 ... and the FIFO is left as it is")

        // The key file, with an archive sealed under the key it replaces: key unavailable, the
        // archive kept.
        let k = scratch.path + "/key"
        #expect(save("kept", k) == nil)
        #expect(unlink(k + "/archive.key") == 0 && mkfifo(k + "/archive.key", 0o600) == 0)
        let key = bounded(releasing: [k + "/archive.key"]) { launch(k) }
        print("R20 FIFO at the key file: launch returned in \(Int(key.seconds * 1000)) ms: \(key.value.report.description)")
        #expect(!key.blocked, "R20 a FIFO at the key file blocked the launch")
        #expect(key.seconds < 0.1, "R20 the launch took \(key.seconds) s")
        if case .keyUnavailable(let why)? = key.value.report.freshLaunchReason {
            #expect(why.contains("FIFO"), "R20 the reason names what is there: \(why)")
        } else {
            Issue.record("R20 a FIFO at the key file: expected key unavailable, got \(key.value.report)")
        }
        #expect(try FileStore(directory: k).read() != nil, "R20 the archive is kept")
        #expect(isFIFO(k + "/archive.key"), "R20 the FIFO at the key file is left as it is")
        let sealing = bounded(releasing: [k + "/archive.key"]) { save("new", k) }
        print("R20 FIFO at the key file: preserve returned in \(Int(sealing.seconds * 1000)) ms")
        #expect(!sealing.blocked && sealing.seconds < 0.1, "R20 preserve with a FIFO key file took \(sealing.seconds) s")
        #expect(sealing.value.map(code) == .keyUnavailable, "R20 preserve: \(String(describing: sealing.value))")

        // The launch guard, with an archive: the launch does not block, and is fresh because the
        // guard could not be used (issue 39, item 5: not counted as none); the FIFO is left as it is.
        let g = scratch.path + "/guard"
        #expect(save("guarded", g) == nil)
        #expect(mkfifo(g + "/restore.guard", 0o600) == 0)
        let guarded = bounded(releasing: [g + "/restore.guard"]) { launch(g) }
        print("R22 FIFO at the launch guard: launch returned in \(Int(guarded.seconds * 1000)) ms: \(guarded.value.report.description)")
        #expect(!guarded.blocked, "R22 a FIFO at the launch guard blocked the launch")
        #expect(guarded.seconds < 0.1, "R22 the launch took \(guarded.seconds) s")
        if case .launchGuardUnusable(let why)? = guarded.value.report.freshLaunchReason {
            #expect(why.contains("launch guard") && why.contains("FIFO"), "R22 the reason names the guard and what is there: \(why)")
        } else {
            Issue.record("R14 a FIFO at the launch guard: expected a fresh launch for the guard, got \(guarded.value.report)")
        }
        #expect(guarded.value.value == nil && (try? FileStore(directory: g).read()) != nil, "R14 not restored, the archive kept")
        #expect(isFIFO(g + "/restore.guard"), "R22 the FIFO at the launch guard is left as it is")
    }

    // R22 (issue 26, item 4): a directory, a socket or a character device in place of the
    // archive, and a directory or a device in place of the launch guard: never read, a clear
    // status, left as it is.
    @Test func otherSpecialFilesAtTheArchiveAndTheGuardAreRefused() throws {
        let scratch = ScratchDirectory("special")
        defer { scratch.cleanup() }
        let d = scratch.path + "/dir"
        try FileSystem.makeDirectories(d + "/state.archive")
        let store = FileStore(directory: d)
        #expect { _ = try store.read() } throws: { ($0 as? AmberError)?.code == .io && "\($0)".contains("directory") }
        #expect { try store.remove() } throws: { ($0 as? AmberError)?.code == .io }
        #expect(FileSystem.isDirectory(d + "/state.archive"), "R22 the directory is left as it is")

        // A socket cannot even be opened (ENXIO): still named for what it is.
        let s = scratch.path + "/sock"
        try FileSystem.makeDirectories(s)
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(sock) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = s + "/state.archive"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let socketLaunch = bounded(releasing: []) { launch(s) }
        if case .unreadableArchive(let why)? = socketLaunch.value.report.freshLaunchReason {
            #expect(why.contains("socket"), "R22 \(why)")
        } else {
            Issue.record("R22 a socket at the archive: \(socketLaunch.value.report)")
        }
        #expect(fileType(path) == S_IFSOCK, "R22 the socket is left as it is")

        // A character device (a symbolic link to /dev/zero, followed as the archive's path is):
        // never read, although reading it would never end.
        let z = scratch.path + "/zero"
        try FileSystem.makeDirectories(z)
        #expect(symlink("/dev/zero", z + "/state.archive") == 0)
        let zero = bounded(releasing: []) { launch(z) }
        #expect(!zero.blocked && zero.seconds < 0.1, "R22 /dev/zero at the archive took \(zero.seconds) s")
        if case .unreadableArchive(let why)? = zero.value.report.freshLaunchReason {
            #expect(why.contains("character device"), "R22 \(why)")
        } else {
            Issue.record("R22 a device at the archive: \(zero.value.report)")
        }
        #expect { try DataFile.read(path: "/dev/zero") } throws: { ($0 as? AmberError)?.code == .io }

        // amber_file_write_atomic's target, a FIFO: refused, left as it is.
        let w = scratch.path + "/write"
        try FileSystem.makeDirectories(w)
        #expect(mkfifo(w + "/data", 0o600) == 0)
        #expect { try DataFile.write([1], toPath: w + "/data") } throws: { ($0 as? AmberError)?.code == .io }
        #expect(isFIFO(w + "/data") && FileSystem.directoryEntries(w) == ["data"], "R22 nothing created beside it")
    }

    // R19 (issue 26, item 6): the directory's fsync fails after the rename: AMBER_IO, the new
    // contents in place, and the error says so ("durability not confirmed").
    @Test func aFailedDirectorySyncAfterTheRenameSaysTheNewContentsAreInPlace() throws {
        let scratch = ScratchDirectory("dirsync")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        try store.write(Array("old".utf8))
        let counter = FaultInjector()
        store.faults = counter
        try store.write(Array("probe".utf8))
        let at = try #require(counter.operations.firstIndex(of: "fsync directory")) + 1
        #expect(at == counter.operations.count, "R19 the directory's fsync is the last operation, after the rename")
        store.faults = FaultInjector(failAt: at)
        let error = #expect(throws: AmberError.self) { try store.write(Array("new".utf8)) }
        #expect(error?.code == .io)
        #expect(error?.message.contains("are in place") == true && error?.message.contains("durability is not confirmed") == true,
                "R19 the message says the new contents are in place, durability not confirmed: \(error?.message ?? "")")
        #expect(try store.read() == Array("new".utf8), "R19 the new archive is in place")
        #expect(FileSystem.directoryEntries(scratch.path) == ["state.archive"], "R19 no temporary file is left")

        // amber_file_write_atomic: the same.
        let file = scratch.path + "/data"
        try DataFile.write([1], toPath: file)
        let dataError = #expect(throws: AmberError.self) { try DataFile.write([2], toPath: file, faults: FaultInjector(failAt: at)) }
        #expect(dataError?.code == .io && dataError?.message.contains("durability is not confirmed") == true,
                "R19 \(dataError?.message ?? "")")
        #expect(try DataFile.read(path: file) == [2], "R19 the new file is in place")

        // Through an engine: preserve fails, and the next launch restores the new archive.
        let e = scratch.path + "/engine"
        #expect(save("old", e) == nil)
        let failing = diskEngine(e, faults: FaultInjector(failAt: at))
        let root = controller("Root")
        saving(root, "new")
        try failing.addRoot(root)
        let preserveError = #expect(throws: AmberError.self) { try failing.preserve() }
        #expect(preserveError?.code == .io && preserveError?.message.contains("in place") == true, "R19 \(preserveError?.message ?? "")")
        #expect(launch(e).value == "new", "R19 the new archive, in place, restores")
    }

    // R14, R19 (issue 26, items 6 and 8): the archive's unlink can be made to fail by the fault
    // injector; a refused unlink keeps the archive and says so.
    @Test func anInjectedUnlinkFailureKeepsTheArchive() throws {
        let scratch = ScratchDirectory("unlink")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        try store.write([1, 2, 3])
        store.faults = FaultInjector(failAt: 1)
        let error = #expect(throws: AmberError.self) { try store.remove() }
        #expect(error?.code == .io && error?.message.contains("unlink") == true, "R19 \(error?.message ?? "")")
        #expect(try store.read() == [1, 2, 3], "R14 a refused unlink keeps the archive")
        // The unlink done, the directory's fsync refused: the archive is gone, the call fails.
        store.faults = FaultInjector(failAt: 2)
        #expect(throws: AmberError.self) { try store.remove() }
        #expect(try store.read() == nil)

        // A launch whose discard is refused: the report says the archive could not be discarded.
        let e = scratch.path + "/engine"
        #expect(save("kept", e) == nil)
        let counter = FaultInjector()
        let probe = diskEngine(e, faults: counter)
        try probe.addRoot(controller("Root"))
        _ = probe.restore()
        let unlinkAt = try #require(counter.operations.firstIndex(of: "unlink"), "R14 the discard's unlink is seen by the fault injector: \(counter.operations)") + 1
        #expect(save("again", e) == nil)
        let refused = diskEngine(e, faults: FaultInjector(failAt: unlinkAt))
        try refused.addRoot(controller("Root"))
        let report = refused.restore()
        #expect(report.notes.contains { $0.contains("could not be discarded") && $0.contains("injected") }, "R14 \(report)")
        #expect(try FileStore(directory: e).read() != nil, "R14 the archive whose unlink was refused is still there")
    }

    // R19, R20 (issue 26, item 6): a first save killed while it created the key file leaves
    // `.archive.key.<hex>.tmp` files, one a second hard link of the live key: a launch removes
    // them, as it removes the archive's, and still restores.
    @Test func leftoversOfAKilledKeyCreationAreRemovedAtLaunch() throws {
        let scratch = ScratchDirectory("keyleft")
        defer { scratch.cleanup() }
        let dir = scratch.path
        #expect(save("after the kill", dir) == nil)
        let key = dir + "/archive.key"
        // Killed after the link, before the unlink: a second hard link of the live key.
        #expect(link(key, dir + "/.archive.key.1f2e3d4c5b6a7988.tmp") == 0)
        // Killed before the link: a temporary file of random bytes, some written.
        try FileSystem.writeFileAtomically(directory: dir, name: ".archive.key.abc123.tmp", bytes: Array(repeating: 7, count: 17))
        // Killed while writing the archive: its temporary file.
        try FileSystem.writeFileAtomically(directory: dir, name: ".state.archive.77.tmp", bytes: [1])
        // Not a leftover: kept.
        try FileSystem.writeFileAtomically(directory: dir, name: ".archive.key.not-hex.tmp", bytes: [2])
        var info = stat()
        #expect(stat(key, &info) == 0 && info.st_nlink == 2)

        let (report, value) = launch(dir)
        #expect(report.notes.contains { $0.contains("removed 3 temporary file") }, "R19 \(report)")
        #expect(value == "after the kill", "R20 the archive still restores with the live key: \(report)")
        #expect(FileSystem.directoryEntries(dir) == [".archive.key.not-hex.tmp", "archive.key"],
                "R19 \(FileSystem.directoryEntries(dir) ?? [])")
        #expect(stat(key, &info) == 0 && info.st_nlink == 1, "R20 the live key has one name again")

        // A key file elsewhere (the C ABI's key_file): the engine removes its leftovers too.
        let other = scratch.path + "/keys"
        try FileSystem.makeDirectories(other)
        let provider = KeyFileProvider(directory: other, name: "app.key")
        _ = try provider.masterKey(for: .seal)
        #expect(link(other + "/app.key", other + "/.app.key.0badc0de.tmp") == 0)
        var options = EngineOptions()
        options.storage = .directory(dir)
        options.protection = .keyFile(other + "/app.key")
        let elsewhere = Engine(configuration: try EngineConfiguration(appID: "org.amber.tests", options: options))
        let cleaned = elsewhere.restore()
        #expect(cleaned.notes.contains { $0.contains("removed 1 temporary file") }, "R19 \(cleaned)")
        #expect(FileSystem.directoryEntries(other) == ["app.key"])
    }

    // R20 (issue 26, item 6): at preserve, a key file that is a symbolic link, a directory, a
    // FIFO or oversized is AMBER_KEY_UNAVAILABLE, as the header documents, and the previous
    // archive is kept.
    @Test func aKeyFileUnfitToBeAKeyIsUnavailableAtPreserve() throws {
        let scratch = ScratchDirectory("keyseal")
        defer { scratch.cleanup() }
        let real = scratch.path + "/real.key"
        try FileSystem.writeFileAtomically(directory: scratch.path, name: "real.key", bytes: Array(repeating: 1, count: 32))
        let cases: [(name: String, make: (String) -> Void)] = [
            ("a symbolic link to a good key", { _ = symlink(real, $0) }),
            ("a dangling symbolic link", { _ = symlink(scratch.path + "/nowhere", $0) }),
            ("a directory", { _ = mkdir($0, 0o700) }),
            ("a FIFO", { _ = mkfifo($0, 0o600) }),
            ("oversized (65 bytes)", { path in
                let parts = path.split(separator: "/")
                try? FileSystem.writeFileAtomically(
                    directory: "/" + parts.dropLast().joined(separator: "/"), name: String(parts.last!), bytes: Array(repeating: 1, count: 65))
            }),
            ("oversized (1 MiB)", { path in
                let parts = path.split(separator: "/")
                try? FileSystem.writeFileAtomically(
                    directory: "/" + parts.dropLast().joined(separator: "/"), name: String(parts.last!), bytes: Array(repeating: 1, count: 1 << 20))
            }),
        ]
        for (n, c) in cases.enumerated() {
            let dir = scratch.path + "/case\(n)"
            try FileSystem.makeDirectories(dir)
            let keyPath = dir + "/archive.key"
            c.make(keyPath)
            let provider = KeyFileProvider(directory: dir)
            let sealing = bounded(releasing: [keyPath]) { () -> AmberError.Code? in
                do { _ = try provider.masterKey(for: .seal); return nil } catch { return code(error) }
            }
            #expect(!sealing.blocked, "R20 \(c.name): the key file blocked")
            #expect(sealing.value == .keyUnavailable, "R20 \(c.name) at seal: \(String(describing: sealing.value))")
            // Through an engine with an archive already saved under another key file: preserve
            // fails with AMBER_KEY_UNAVAILABLE and the archive is kept.
            let fixed = try FixedKeyProvider(key: Array(repeating: 9, count: 32))
            #expect(save("previous", dir, provider: fixed) == nil)
            let failed = bounded(releasing: [keyPath]) { save("next", dir) }
            #expect(failed.value.map(code) == .keyUnavailable, "R20 \(c.name) at preserve: \(String(describing: failed.value))")
            #expect(launch(dir, provider: fixed).value == "previous", "R20 \(c.name): the previous archive is kept")
        }
    }

    // R20 (issue 26, item 6): a key provider's own failure is passed up unchanged by a save,
    // and at launch keeps the archive, with the key provider named in the reason (it was called
    // corrupt and discarded).
    @Test func aKeyProvidersOwnFailureIsPassedUpAndKeepsTheArchive() throws {
        let scratch = ScratchDirectory("keyfail")
        defer { scratch.cleanup() }
        let dir = scratch.path
        let good = [UInt8](repeating: 0x33, count: 32)
        #expect(save("kept", dir, provider: try FixedKeyProvider(key: good)) == nil)

        final class Behaviour: @unchecked Sendable { var error: (any Error)? }
        let behaviour = Behaviour()
        let provider = ClosureKeyProvider { _ in
            if let error = behaviour.error { throw error }
            return good
        }
        // A save: the provider's own error, unchanged, whatever its type.
        behaviour.error = KeychainError(status: -25308)
        let own = save("next", dir, provider: provider)
        #expect((own as? KeychainError) == KeychainError(status: -25308), "R20 \(String(describing: own))")
        behaviour.error = AmberError(.io, "the keychain daemon is gone")
        let io = save("next", dir, provider: provider)
        #expect((io as? AmberError) == AmberError(.io, "the keychain daemon is gone"), "R20 \(String(describing: io))")

        // A launch: the archive is kept, the reason names the key provider and its failure.
        let failures: [(error: any Error, marker: String)] = [
            (AmberError(.io, "the keychain daemon is gone"), "the keychain daemon is gone"),
            (KeychainError(status: -25308), "-25308"),
            (AmberError(.callbackFailed, "the key callback returned 42"), "returned 42"),
        ]
        for (failure, marker) in failures {
            behaviour.error = failure
            let (report, value) = launch(dir, provider: provider)
            #expect(value == nil)
            if case .keyUnavailable(let why)? = report.freshLaunchReason {
                #expect(why.contains("key provider") && why.contains(marker),
                        "R20 the reason names the key provider and its failure: \(why)")
            } else {
                Issue.record("R20 a failing key provider at launch (\(failure)): expected key unavailable, got \(report)")
            }
            #expect(try FileStore(directory: dir).read() != nil, "R20 \(failure): the archive is kept, not discarded as corrupt")
            #expect(try FileStore(directory: dir).readGuard() == 0, "R14 the launch guard is cleared")
        }
        behaviour.error = nil
        #expect(launch(dir, provider: provider).value == "kept", "R20 once the provider works, the kept archive restores")

        // A provider that says the archive can never be opened (its key is gone) still has it
        // discarded.
        #expect(save("doomed", dir, provider: provider) == nil)
        behaviour.error = AmberError(.authenticationFailed, "the key was deleted")
        let (report, _) = launch(dir, provider: provider)
        #expect(report.freshLaunchReason == .authenticationFailed("the key was deleted"))
        #expect(try FileStore(directory: dir).read() == nil)
    }
}
