// Issue 39, items 2, 4, 5 and 9: a restoration that completed is not a crash, even when the
// archive is kept after it (R14, R32); an archive that can be neither removed nor marked
// consumed is never restored a second time (R14); a launch guard that is not a regular file
// is refused, never counted as none (R14, R19); an archive belongs to its application (R9).

import AmberArchive
@testable import AmberCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An engine on `store` that saves and restores one controller, "root", holding `value`; what
/// it decodes goes into `log`. `keep`: `keepsArchiveAfterRestore`.
private func engine(
    _ store: any ArchiveStore, appID: String = "org.amber.tests", keep: Bool = false, value: String = "saved", log: Log? = nil
) throws -> (Engine, RestorableObject) {
    var configuration = EngineConfiguration(appID: appID, store: store, envelope: PlainEnvelope(), systemVersion: "test")
    configuration.keepsArchiveAfterRestore = keep
    let e = Engine(configuration: configuration)
    e.delegate.shouldSave = { _ in true }
    e.delegate.shouldRestore = { _ in true }
    let root = controller("root")
    saving(root, value, log: log)
    try e.addRoot(root)
    return (e, root)
}

/// Launches an engine on `store`; returns its report and the value it restored, if any.
private func launch(_ store: any ArchiveStore, appID: String = "org.amber.tests", keep: Bool = false) throws -> (report: RestorationReport, value: String?) {
    let log = Log()
    let report = try engine(store, appID: appID, keep: keep, log: log).0.launch()
    return (report, log.entries.first { $0.hasPrefix("decode root=") }.map { String($0.dropFirst(12)) })
}

/// The file-system operations of one launch that restores from a store in `directory` (whose
/// archive it consumes), by name; "unlink" is the discard's.
private func operationsOfALaunch(_ directory: String) throws -> [String] {
    let counter = FaultInjector()
    let store = FileStore(directory: directory)
    store.faults = counter
    _ = try launch(store)
    return counter.operations
}

@Suite struct LaunchGuardTests {
    // R14 R32 (issue 39, item 2): with the archive kept after restore and no save, every launch
    // completes its restoration and restores the archive again: a completed restoration is not
    // counted as one that crashed, however many launches come before a save.
    @Test func testR14CompletedRestorationsKeepingTheArchiveAreNotACrashLoop() throws {
        let store = MemoryStore()
        try engine(store, keep: true).0.preserve()
        for n in 1 ... 4 {
            let (report, value) = try launch(store, keep: true)
            #expect(report.freshLaunchReason == nil && value == "saved", "R14 launch \(n) restores: \(report)")
            #expect(store.bytes != nil && store.guardCount == 0, "R14 launch \(n) leaves the archive and no launch count (\(store.guardCount))")
        }
    }

    // R14 R32 (issue 39, item 2): with the archive kept, launches that die while restoring still
    // count: each launch's restoration counts itself while it runs, and two that die in a row
    // make the third discard the archive. "Dying" is the store as it was in the decode callback.
    @Test func testR14LaunchesThatDieWhileRestoringAKeptArchiveStillCount() throws {
        let store = MemoryStore()
        try engine(store, keep: true).0.preserve()
        _ = try launch(store, keep: true)
        /// Launches on `store` and returns the store as a death in the decode callback leaves it.
        func dying(_ store: MemoryStore) throws -> MemoryStore {
            let (e, root) = try engine(store, keep: true)
            var left: MemoryStore?
            root.callbacks.decode = { _, _ in left = MemoryStore(bytes: store.bytes, guardCount: store.guardCount) }
            _ = e.launch()
            return try #require(left)
        }
        let once = try dying(store)
        #expect(once.guardCount == 1, "R14 a restoration under way counts its launch")
        let twice = try dying(once)
        #expect(twice.guardCount == 2)
        let third = try launch(twice, keep: true)
        #expect(third.report.freshLaunchReason == .crashLoop && twice.bytes == nil, "R14 \(third.report)")
    }

    // R14 (issue 39, item 4): the discard's unlink and every write after it fail (a disk gone):
    // the archive can be neither removed nor marked consumed. The report says so, and the next
    // launch on that disk cannot record that it restores the archive, so it does not restore
    // it: fresh, a store error naming the launch guard, the archive kept.
    @Test func testR14AnArchiveNeitherRemovedNorMarkedIsNotRestoredAgain() throws {
        let scratch = ScratchDirectory("unmarked")
        defer { scratch.cleanup() }
        let dir = scratch.path
        try engine(FileStore(directory: dir)).0.preserve()
        let unlinkAt = try #require(try operationsOfALaunch(dir).firstIndex(of: "unlink")) + 1
        try engine(FileStore(directory: dir)).0.preserve()

        let disk = FileStore(directory: dir)
        disk.faults = FaultInjector(failAt: unlinkAt, persistent: true)
        let first = try launch(disk)
        #expect(first.value == "saved", "R14 the first launch restores: \(first.report)")
        #expect(first.report.notes.contains { $0.contains("could not be discarded, nor marked consumed") && $0.contains("injected") },
                "R14 the report says the archive was neither removed nor marked: \(first.report.notes)")

        let next = try launch(disk)
        #expect(next.value == nil, "R14 the archive is not restored a second time: \(next.report)")
        guard case .launchGuardUnusable(let why)? = next.report.freshLaunchReason else {
            Issue.record("R14 expected a fresh launch for the launch guard, got \(next.report)")
            return
        }
        #expect(why.contains("launch guard could not be written") && why.contains("injected"), "R14 \(why)")
        #expect(try FileStore(directory: dir).read() != nil, "R14 the archive that was not restored is kept")
    }

    // R14 (issue 39, item 4): two faults far apart, the discard's unlink and the first write of
    // the consumed mark: the discard tries again, and the next launch, on a healthy disk, does
    // not restore the archive.
    @Test func testR14TwoFaultsInTheDiscardStillEndTheArchive() throws {
        let scratch = ScratchDirectory("twofaults")
        defer { scratch.cleanup() }
        let dir = scratch.path
        try engine(FileStore(directory: dir)).0.preserve()
        let unlinkAt = try #require(try operationsOfALaunch(dir).firstIndex(of: "unlink")) + 1
        try engine(FileStore(directory: dir)).0.preserve()

        let faulty = FileStore(directory: dir)
        faulty.faults = FaultInjector(failing: [unlinkAt, unlinkAt + 1])
        let first = try launch(faulty)
        #expect(first.value == "saved", "R14 \(first.report)")
        let failed = faulty.faults?.operations.count ?? 0
        #expect(failed > unlinkAt + 1, "R14 the discard went on after two failures: \(faulty.faults?.operations ?? [])")

        let next = try launch(FileStore(directory: dir))
        #expect(next.value == nil && next.report.freshLaunchReason == .noArchive, "R14 not restored again: \(next.report)")
        #expect(try FileStore(directory: dir).read() == nil, "R14 the archive is gone")
    }

    // R14 R19 (issue 39, item 5): a FIFO, a directory or a socket at the launch guard's path:
    // the launch does not block, does not restore (a crash while restoring could not be
    // counted), says why, keeps the archive, and leaves what is there as it is.
    @Test func testR14ALaunchGuardThatIsNotARegularFileIsRefused() throws {
        let scratch = ScratchDirectory("guardkind")
        defer { scratch.cleanup() }
        func place(_ kind: String, at path: String) -> Int32 {
            switch kind {
            case "FIFO": return mkfifo(path, 0o600)
            case "directory": return mkdir(path, 0o700)
            default:
                let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { raw in
                    for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
                }
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                close(sock)
                return bound
            }
        }
        for kind in ["FIFO", "directory", "socket"] {
            let dir = scratch.path + "/" + kind
            try engine(FileStore(directory: dir)).0.preserve()
            let store = FileStore(directory: dir)
            #expect(place(kind, at: store.guardPath) == 0, "\(kind) at \(store.guardPath)")
            let started = FileSystem.monotonicSeconds()
            let (report, value) = try launch(store)
            let seconds = FileSystem.monotonicSeconds() - started
            #expect(seconds < 0.1, "R14 a \(kind) at the launch guard took \(seconds) s")
            #expect(value == nil, "R14 a \(kind) at the launch guard: not restored: \(report)")
            if case .launchGuardUnusable(let why)? = report.freshLaunchReason {
                #expect(why.contains("launch guard") && why.contains(kind), "R14 the reason names the guard and what is there: \(why)")
            } else {
                Issue.record("R14 a \(kind) at the launch guard: expected a fresh launch for the guard, got \(report)")
            }
            #expect(try store.read() != nil, "R14 the archive is kept")
            var info = stat()
            #expect(lstat(store.guardPath, &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "R14 the \(kind) is left as it is")
        }
    }

    // R9 (issue 39, item 9): an archive saved by another application (its archive copied into
    // this one's store) is refused with one reason naming both ids, and discarded; the same
    // application restores it.
    @Test func testR9AnotherApplicationsArchiveIsRefused() throws {
        let theirs = MemoryStore()
        try engine(theirs, appID: "org.example.other", value: "their text").0.preserve()
        let copied = MemoryStore(bytes: theirs.bytes)
        let (report, value) = try launch(copied, appID: "org.example.mine")
        #expect(value == nil, "R9 another application's value is never decoded: \(report)")
        guard case .otherApplication(let why)? = report.freshLaunchReason else {
            Issue.record("R9 expected another application's archive, got \(report)")
            return
        }
        #expect(why.contains("'org.example.other'") && why.contains("'org.example.mine'"), "R9 \(why)")
        #expect(copied.bytes == nil, "R9 it is discarded")
        #expect(try launch(theirs, appID: "org.example.other").value == "their text", "R9 its own application restores it")
    }

    // R9 (issue 39, item 9): an archive of 0.2, which recorded no application id, still restores.
    // The id's key is renamed in place in a plain archive, which is then an archive without it.
    @Test func testR9AnArchiveWithoutAnApplicationIDStillRestores() throws {
        let store = MemoryStore()
        try engine(store, appID: "org.example.old").0.preserve()
        var bytes = try #require(store.bytes)
        let key = Array(ArchiveLayout.applicationID.utf8)
        let at = try #require((0 ... bytes.count - key.count).first { Array(bytes[$0 ..< $0 + key.count]) == key })
        bytes[at + key.count - 1] = UInt8(ascii: "X")
        let old = MemoryStore(bytes: bytes)
        let session = try RestoreSession(bytes: bytes, limits: .default, registry: ArchiveClassRegistry())
        #expect(session.app.applicationID == nil, "R9 the archive has no application id")
        session.endDecoding()
        let (report, value) = try launch(old, appID: "org.example.new")
        #expect(value == "saved" && report.freshLaunchReason == nil, "R9 \(report)")
    }
}
