@testable import AmberCore
import Testing

/// A store with an archive of one root `root` whose state is "v".
private func storeWithArchive() throws -> MemoryStore {
    let store = MemoryStore()
    let engine = makeEngine(store)
    let root = controller("root")
    saving(root, "v")
    try engine.addRoot(root)
    try engine.preserve()
    return store
}

/// One launch whose host extends restoration and never completes it: the process "dies" when
/// the engine is dropped.
private func launchThatDiesWhileRestoring(_ store: MemoryStore) -> RestorationReport {
    let engine = makeEngine(store)
    let root = controller("root")
    try? engine.addRoot(root)
    root.callbacks.decode = { _, _ in _ = try engine.extendRestoration() }
    return engine.launch()
}

@Suite struct LifecycleTests {
    // R14
    @Test func theArchiveIsDiscardedAfterEveryAttempt() throws {
        let store = try storeWithArchive()
        let engine = makeEngine(store)
        let root = controller("root")
        try engine.addRoot(root)
        let report = engine.restore()
        #expect(report[0].outcome == .restored)
        #expect(store.bytes == nil && store.guardCount == 0)
        #expect(makeEngine(store).restore().freshLaunchReason == .noArchive)
    }

    // R14: two launches in a row that died while restoring (the guard a process leaves when it
    // dies in a decode callback: written by the store before anything is decoded).
    @Test func twoLaunchesThatDiedWhileRestoringMeanNoThirdTry() throws {
        let store = try storeWithArchive()
        store.guardCount = 2
        let engine = makeEngine(store)
        var decoded = false
        let root = controller("root")
        root.callbacks.decode = { _, _ in decoded = true }
        try engine.addRoot(root)
        var asked = false
        engine.delegate.shouldRestore = { _ in asked = true; return true }
        let third = engine.launch()
        #expect(third.freshLaunchReason == .crashLoop)
        #expect(!asked && !decoded)
        #expect(store.bytes == nil && store.guardCount == 0)
        #expect(third.description.contains("two previous launches"))
    }

    // R15 R14: a process that dies while its restoration is extended leaves the archive for one
    // launch only: the next discards it without restoring, as UIKit does.
    @Test func aDeathWhileRestorationIsExtendedDiscardsTheArchive() throws {
        let store = try storeWithArchive()
        let first = launchThatDiesWhileRestoring(store)
        #expect(first.freshLaunchReason == nil && first.isExtended)
        #expect(store.bytes != nil && store.guardCount == LaunchGuard.extended)
        let engine = makeEngine(store)
        var decoded = false
        let root = controller("root")
        root.callbacks.decode = { _, _ in decoded = true }
        try engine.addRoot(root)
        let second = engine.launch()
        #expect(second.freshLaunchReason == .extendedRestorationUnfinished)
        #expect(!decoded)
        #expect(store.bytes == nil && store.guardCount == 0)
    }

    // R14
    @Test func aCrashDuringRestorationIsCountedByTheGuard() throws {
        // The guard a process left behind when it died while restoring (written by the store,
        // as the engine writes it before anything is decoded).
        let store = try storeWithArchive()
        store.guardCount = 1
        let engine = makeEngine(store)
        try engine.addRoot(controller("root"))
        let report = engine.restore()
        #expect(report.freshLaunchReason == nil)  // one failed launch: still a second try
        #expect(store.guardCount == 0 && store.bytes == nil)

        let looping = try storeWithArchive()
        looping.guardCount = 2
        #expect(makeEngine(looping).restore().freshLaunchReason == .crashLoop)
        #expect(looping.bytes == nil)
    }

    // R14
    @Test func theGuardIsSetWhileRestoring() throws {
        let store = try storeWithArchive()
        let engine = makeEngine(store)
        var guardDuringDecode = -1
        let root = controller("root")
        root.callbacks.decode = { _, _ in guardDuringDecode = store.guardCount }
        try engine.addRoot(root)
        _ = engine.restore()
        #expect(guardDuringDecode == 1)
        #expect(store.guardCount == 0)
    }

    // R14
    @Test func theHostCanDiscardTheArchive() throws {
        let store = try storeWithArchive()
        let engine = makeEngine(store)
        try engine.discardArchive()
        #expect(store.bytes == nil)
        #expect(engine.restore().freshLaunchReason == .discardedByHost)
    }

    // R14 R16: the discard is reported by the next launch of another process too (a new engine
    // on the same store), once; a save after the discard restores as usual.
    @Test func aDiscardIsReportedByTheNextProcess() throws {
        let store = try storeWithArchive()
        try makeEngine(store).discardArchive()
        #expect(makeEngine(store).restore().freshLaunchReason == .discardedByHost)
        #expect(makeEngine(store).restore().freshLaunchReason == .noArchive)

        try makeEngine(store).discardArchive()
        let saver = makeEngine(store)
        try saver.addRoot(controller("root"))
        try saver.preserve()
        let next = makeEngine(store)
        try next.addRoot(controller("root"))
        let report = next.restore()
        #expect(report.freshLaunchReason == nil && report[0].outcome == .restored)
    }

    // R15
    @Test func anExtensionKeepsTheArchiveUntilItCompletes() throws {
        let store = try storeWithArchive()
        let engine = makeEngine(store)
        let root = controller("root")
        try engine.addRoot(root)
        var tokens: [RestorationToken] = []
        root.callbacks.decode = { _, _ in
            tokens.append(try engine.extendRestoration())
            tokens.append(try engine.extendRestoration())
        }
        let report = engine.restore()
        #expect(report.isExtended && report[0].outcome == .restored)
        #expect(store.bytes != nil && store.guardCount == LaunchGuard.extended)
        #expect(engine.isRestorationExtended)
        // Another restore waits for this one.
        #expect(engine.restore().freshLaunchReason == .restorationInProgress)
        try engine.completeRestoration(tokens[0])
        #expect(store.bytes != nil)
        // Extending again while waiting is allowed.
        let late = try engine.extendRestoration()
        try engine.completeRestoration(tokens[1])
        #expect(store.bytes != nil)
        try engine.completeRestoration(late)
        #expect(store.bytes == nil && store.guardCount == 0)
        #expect(!engine.isRestorationExtended)
        let twice = #expect(throws: AmberError.self) { try engine.completeRestoration(late) }
        #expect(twice?.code == .misuse)
    }

    // R15
    @Test func extendingOutsideRestorationIsMisuse() throws {
        let engine = makeEngine()
        let error = #expect(throws: AmberError.self) { _ = try engine.extendRestoration() }
        #expect(error?.code == .misuse)
        #expect(throws: AmberError.self) { try engine.completeRestoration(RestorationToken(id: 99)) }
    }

    // R15
    @Test func completingAfterANewSaveKeepsTheNewArchive() throws {
        let store = try storeWithArchive()
        let engine = makeEngine(store)
        let root = controller("root")
        try engine.addRoot(root)
        var token: RestorationToken?
        root.callbacks.decode = { _, _ in token = try engine.extendRestoration() }
        _ = engine.restore()
        root.callbacks.decode = nil
        try engine.preserve()          // the user moved on: a newer archive
        let newer = store.bytes
        try engine.completeRestoration(try #require(token))
        #expect(store.bytes == newer && newer != nil)
        #expect(store.guardCount == 0)
    }
}
