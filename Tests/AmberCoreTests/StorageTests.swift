@testable import AmberCore
import Testing

@Suite struct StorageTests {
    // R19
    @Test func fileStoreWritesOwnerOnlyFilesAtomically() throws {
        let scratch = ScratchDirectory("atomic")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path + "/state/org.amber.app")
        #expect(try store.read() == nil)
        try store.write([1, 2, 3])
        #expect(try store.read() == [1, 2, 3])
        #expect(FileSystem.permissions(store.archivePath) == 0o600)
        #expect(FileSystem.permissions(store.directory) == 0o700)
        try store.write(Array(repeating: 7, count: 100_000))
        #expect(try store.read() == Array(repeating: 7, count: 100_000))
        #expect(FileSystem.directoryEntries(store.directory) == ["state.archive"])  // no temporary left
        // Written in 512 KiB pieces, each one's write-back started: every byte in its place.
        let large = (0 ..< 1_300_007).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try store.write(large)
        #expect(try store.read() == large)
        #expect(FileSystem.directoryEntries(store.directory) == ["state.archive"])
        try store.remove()
        try store.remove()
        #expect(try store.read() == nil)
    }

    // R19: the k-th operation of a save fails, for every k, once or from then on
    @Test func everyFailedOperationOfASaveKeepsAWholeArchive() throws {
        let key = try FixedKeyProvider(key: Array(repeating: 3, count: 32))
        func engine(_ store: FileStore) throws -> Engine {
            let e = Engine(configuration: EngineConfiguration(
                appID: "org.amber.tests", store: store,
                envelope: SealedEnvelope(keyProvider: key, bundleVersion: "1")))
            e.delegate.shouldSave = { _ in true }
            e.delegate.shouldRestore = { _ in true }
            return e
        }
        /// Saves `value` with faults; returns the error, if any.
        func save(_ value: String, in dir: String, faults: FaultInjector?) throws -> AmberError? {
            let store = FileStore(directory: dir)
            store.faults = faults
            let e = try engine(store)
            let root = controller("Root")
            saving(root, value)
            try e.addRoot(root)
            do { _ = try e.preserve(); return nil } catch { return AmberError.wrapping(error) }
        }
        /// What a fresh launch restores from `dir`.
        func restored(_ dir: String) throws -> (String?, RestorationReport) {
            let e = try engine(FileStore(directory: dir))
            let log = Log()
            let root = controller("Root")
            saving(root, "", log: log)
            try e.addRoot(root)
            let report = e.restore()
            let value = log.entries.first { $0.hasPrefix("decode Root=") }.map { String($0.dropFirst(12)) }
            return (value, report)
        }

        let probe = ScratchDirectory("faults-probe")
        defer { probe.cleanup() }
        let counter = FaultInjector()
        #expect(try save("old", in: probe.path, faults: counter) == nil)
        let operations = counter.operations
        #expect(operations == ["create", "write", "fsync", "close", "rename", "fsync directory"])

        var cases = 0
        for persistent in [false, true] {
            for k in 1 ... operations.count + 1 {
                let scratch = ScratchDirectory("faults-\(k)-\(persistent)")
                defer { scratch.cleanup() }
                #expect(try save("old", in: scratch.path, faults: nil) == nil)
                let error = try save("new", in: scratch.path, faults: FaultInjector(failAt: k, persistent: persistent))
                let (value, report) = try restored(scratch.path)
                let entries = FileSystem.directoryEntries(scratch.path) ?? []
                #expect(!entries.contains { $0.hasSuffix(".tmp") }, "k=\(k) persistent=\(persistent): \(entries)")
                #expect(report.freshLaunchReason == nil, "k=\(k) persistent=\(persistent): \(report)")
                if k > operations.count {
                    #expect(error == nil && value == "new")
                    continue
                }
                cases += 1
                #expect(error?.code == .io, "k=\(k): the save must fail")
                #expect(error?.message.contains("injected failure of operation \(k)") == true)
                // Before the rename the old archive stays; a failed directory sync comes after it.
                let expected = operations[k - 1] == "fsync directory" ? "new" : "old"
                #expect(value == expected, "k=\(k) persistent=\(persistent) (\(operations[k - 1])): restored \(value ?? "nothing")")
            }
        }
        #expect(cases == 2 * operations.count)
    }

    // R19: a temporary file left by a process that died mid-save is removed at launch
    @Test func staleTemporaryFilesAreRemovedAtLaunch() throws {
        let scratch = ScratchDirectory("stale")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        try store.write(Array("old".utf8))
        try FileSystem.writeFileAtomically(directory: scratch.path, name: ".state.archive.00ff12.tmp", bytes: [1])
        try FileSystem.writeFileAtomically(directory: scratch.path, name: "keep.tmp", bytes: [2])
        let engine = Engine(configuration: EngineConfiguration(appID: "org.amber.tests", store: store))
        let report = engine.restore()
        #expect(report.notes.contains { $0.contains("removed 1 temporary file") })
        #expect(FileSystem.directoryEntries(scratch.path) == ["keep.tmp"])
    }

    // R19
    @Test func aRenameThatFailsLeavesNothingBehind() throws {
        // The archive's name is taken by a non-empty directory: the rename fails (for root too).
        let scratch = ScratchDirectory("rename")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        try FileSystem.makeDirectories(store.archivePath + "/inside")
        let error = #expect(throws: AmberError.self) { try store.write([9]) }
        #expect(error?.code == .io)
        #expect(FileSystem.directoryEntries(scratch.path) == ["state.archive"])
        #expect(FileSystem.directoryEntries(store.archivePath) == ["inside"])
    }

    // R14
    @Test func theLaunchGuardIsAFileBesideTheArchive() throws {
        let scratch = ScratchDirectory("guard")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        #expect(try store.readGuard() == 0)
        try store.writeGuard(2)
        #expect(try store.readGuard() == 2)
        #expect(FileSystem.permissions(store.guardPath) == 0o600)
        try FileSystem.writeFileAtomically(directory: scratch.path, name: store.guardName, bytes: Array("garbage".utf8))
        #expect(try store.readGuard() == 1)
        try store.removeGuard()
        #expect(try store.readGuard() == 0)
    }

    // R14 R19
    @Test func anEngineOnDiskSavesRestoresAndDiscards() throws {
        let scratch = ScratchDirectory("engine")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        let config = EngineConfiguration(appID: "org.amber.app", bundleVersion: "1", store: store)
        let engine = Engine(configuration: config)
        engine.delegate.shouldSave = { _ in true }
        let root = controller("root")
        saving(root, "on disk")
        try engine.addRoot(root)
        try engine.preserve()
        #expect(FileSystem.permissions(store.archivePath) == 0o600)

        let next = Engine(configuration: config)
        next.delegate.shouldRestore = { _ in true }
        let log = Log()
        let root2 = controller("root")
        saving(root2, "", log: log)
        try next.addRoot(root2)
        let report = next.launch()
        #expect(report[0].outcome == .restored)
        #expect(log.entries.first == "decode root=on disk")
        // R14, R20: the archive and the guard are gone; the key (the default protection) stays
        // for the next save.
        #expect(FileSystem.directoryEntries(scratch.path) == ["archive.key"])
    }

    // R19
    @Test func oversizedFilesAreRefused() throws {
        let scratch = ScratchDirectory("size")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path, maxBytes: 10)
        try store.write(Array(repeating: 0, count: 11))
        let error = #expect(throws: AmberError.self) { _ = try store.read() }
        #expect(error?.code == .limitExceeded)
        let report = Engine(configuration: EngineConfiguration(appID: "a", store: store)).restore()
        guard case .unreadableArchive? = report.freshLaunchReason else {
            Issue.record("expected an unreadable archive, got \(String(describing: report.freshLaunchReason))")
            return
        }
    }

    // R19
    @Test func defaultDirectoryFollowsXDG() throws {
        let dir = try FileStore.defaultDirectory(appID: "org.amber.app")
        #expect(dir.hasSuffix("/org.amber.app"))
        if let state = FileSystem.environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            #expect(dir == state + "/org.amber.app")
        } else {
            #expect(dir.hasSuffix("/.local/state/org.amber.app"))
        }
        for bad in ["", ".", "..", "a/b"] {
            let error = #expect(throws: AmberError.self) { _ = try FileStore.defaultDirectory(appID: bad) }
            #expect(error?.code == .invalidArgument)
        }
    }
}
