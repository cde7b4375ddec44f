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
        try store.remove()
        try store.remove()
        #expect(try store.read() == nil)
    }

    // R19
    @Test func aFailedWriteKeepsTheOldArchiveAndRemovesTheTemporaryFile() throws {
        let scratch = ScratchDirectory("fault")
        defer { scratch.cleanup() }
        let store = FileStore(directory: scratch.path)
        try store.write(Array("old".utf8))
        store.fault = .beforeRename
        let error = #expect(throws: AmberError.self) { try store.write(Array("new".utf8)) }
        #expect(error?.code == .io)
        store.fault = nil
        #expect(try store.read() == Array("old".utf8))
        #expect(FileSystem.directoryEntries(scratch.path) == ["state.archive"])
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
        #expect(FileSystem.directoryEntries(scratch.path) == [])
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
