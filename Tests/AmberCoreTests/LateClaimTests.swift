import AmberArchive
@testable import AmberCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Saves root → [tab → [field]], the tab writing "title" and the field "text".
private func savedTabs() throws -> MemoryStore {
    let store = MemoryStore()
    let engine = makeEngine(store)
    let root = controller("root", "Root"), tab = controller("tab", "Tab"), field = controller("field", "Field")
    try engine.addRoot(root)
    try root.addChild(tab)
    try tab.addChild(field)
    tab.callbacks.encode = { _, c in try c.encode("Inbox", forKey: "title") }
    field.callbacks.encode = { _, c in try c.encode("typed", forKey: "text") }
    try engine.preserve()
    return store
}

/// A tab → [field] made after launch, their decode callbacks writing into `log`.
private func lateTab(_ log: Log) throws -> RestorableObject {
    let tab = controller("tab", "Tab"), field = controller("field", "Field")
    try tab.addChild(field)
    tab.callbacks.decode = { _, d in log.add("title=\(try d.decodeString(forKey: "title"))") }
    tab.callbacks.finishedRestoring = { _ in log.add("finished tab") }
    field.callbacks.decode = { _, d in log.add("text=\(try d.decodeString(forKey: "text"))") }
    return tab
}

@Suite struct LateClaimTests {
    // R35: a tab created after launch claims its record and its subtree's.
    @Test func testR35TabCreatedAfterLaunchClaimsItsState() throws {
        let engine = makeEngine(try savedTabs())
        try engine.keepUnclaimed(milliseconds: 60_000)
        let root = controller("root", "Root")
        let report = engine.launch { try? engine.addRoot(root) }
        #expect(report.record(forPath: ["root", "tab"])?.outcome == .notFound)
        #expect(report.notes.contains { $0.contains("2 record(s) that found no object are kept") })
        #expect(engine.hasUnclaimedRecords)

        let log = Log()
        let tab = try lateTab(log)
        try root.addChild(tab)
        #expect(try engine.restorePending(tab) == 2)
        #expect(log.entries == ["title=Inbox", "text=typed", "finished tab"])
        let now = try #require(engine.currentRestorationReport())
        #expect(now.record(forPath: ["root", "tab"])?.outcome == .restored)
        #expect(now.record(forPath: ["root", "tab", "field"])?.outcome == .restored)
        #expect(now.record(forPath: ["root", "tab"])?.note == "claimed after launch by an object created later")
        #expect(now.record(forPath: ["root", "tab"])?.object === tab)
        #expect(now.notes.contains("/root/tab claimed 2 kept record(s) after launch"))
        // Every kept record claimed: nothing is kept any more.
        #expect(!engine.hasUnclaimedRecords)
        do {
            try engine.restorePending(tab)
            Issue.record("a second claim was accepted")
        } catch {
            #expect(error.code == .notFound)
            // R35: it says the record was claimed already, not merely that none is kept.
            #expect(error.message == "no state is kept for /root/tab: its kept record was claimed already after launch, by an object of class Tab")
        }
    }

    // R35: a claim after the deadline gets nothing, and the report says why.
    @Test func testR35ClaimAfterTheDeadlineGetsNothing() throws {
        let engine = makeEngine(try savedTabs())
        try engine.keepUnclaimed(milliseconds: 50)
        let root = controller("root", "Root")
        _ = engine.launch { try? engine.addRoot(root) }
        usleep(150_000)
        let log = Log()
        let tab = try lateTab(log)
        try root.addChild(tab)
        do {
            try engine.restorePending(tab)
            Issue.record("a claim after the deadline was accepted")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message == "no state is kept for /root/tab: the records kept after launch were dropped at their deadline, 50 ms after launch")
        }
        #expect(log.entries.isEmpty)
        let report = try #require(engine.currentRestorationReport())
        let record = try #require(report.record(forPath: ["root", "tab"]))
        #expect(record.outcome == .notFound)
        #expect(record.note?.contains("kept for an object created later, none claimed it: dropped at their deadline") == true)
        #expect(report.notes.contains { $0.hasPrefix("2 kept record(s) no object claimed were dropped at their deadline") })
    }

    // R35: the host ends restoration; without keepUnclaimed nothing is kept.
    @Test func testR35EndRestorationAndNotKept() throws {
        let store = try savedTabs()
        let engine = makeEngine(MemoryStore(bytes: store.bytes))
        try engine.keepUnclaimed(milliseconds: 60_000)
        let root = controller("root", "Root")
        _ = engine.launch { try? engine.addRoot(root) }
        engine.endRestoration()
        #expect(!engine.hasUnclaimedRecords)
        let tab = try lateTab(Log())
        try root.addChild(tab)
        #expect(throws: AmberError.self) { try engine.restorePending(tab) }
        #expect(engine.currentRestorationReport()?.notes.last?.contains("when the host ended restoration") == true)

        let plainEngine = makeEngine(MemoryStore(bytes: store.bytes))
        let root2 = controller("root", "Root")
        _ = plainEngine.launch { try? plainEngine.addRoot(root2) }
        let tab2 = try lateTab(Log())
        try root2.addChild(tab2)
        do {
            try plainEngine.restorePending(tab2)
            Issue.record("a claim without keepUnclaimed was accepted")
        } catch {
            #expect(error.message.contains("no restoration kept the records"))
        }
        #expect(throws: AmberError.self) { try plainEngine.keepUnclaimed(milliseconds: -1) }
    }

    // R35 R16: the report kept on disk follows the late claim.
    @Test func testR35KeptReportFollowsTheClaim() throws {
        let scratch = ScratchDirectory("late-claim-report")
        defer { scratch.cleanup() }
        let store = try savedTabs()
        let engine = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: MemoryStore(bytes: store.bytes), envelope: PlainEnvelope(),
            reportDirectory: scratch.path))
        engine.delegate.shouldRestore = { _ in true }
        try engine.keepUnclaimed(milliseconds: 60_000)
        let root = controller("root", "Root")
        _ = engine.launch { try? engine.addRoot(root) }
        let path = StateFiles(directory: scratch.path).reportPath
        #expect(try KeptRestorationReport.read(path: path).records.map(\.outcome) == [.restored, .notFound, .notFound])
        let tab = try lateTab(Log())
        try root.addChild(tab)
        try engine.restorePending(tab)
        let kept = try KeptRestorationReport.read(path: path)
        #expect(kept.records.map(\.outcome) == [.restored, .restored, .restored])
        #expect(kept.notes.contains("/root/tab claimed 2 kept record(s) after launch"))
    }

    // R35: a second claim while other records are still kept says it was claimed already.
    @Test func testR35SecondClaimSaysClaimedAlready() throws {
        let store = MemoryStore()
        let writer = makeEngine(store)
        let root = controller("root", "Root"), tab = controller("tab", "Tab"), other = controller("other", "Other")
        try writer.addRoot(root)
        try root.addChild(tab)
        try root.addChild(other)
        try writer.preserve()
        let engine = makeEngine(MemoryStore(bytes: store.bytes))
        try engine.keepUnclaimed(milliseconds: 60_000)
        let root2 = controller("root", "Root")
        _ = engine.launch { try? engine.addRoot(root2) }
        let late = controller("tab", "Tab")
        try root2.addChild(late)
        #expect(try engine.restorePending(late) == 1)
        #expect(engine.hasUnclaimedRecords)  // /root/other is still kept
        do {
            try engine.restorePending(late)
            Issue.record("a second claim was accepted")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message == "no state is kept for /root/tab: its kept record was claimed already after launch, by an object of class Tab")
        }
    }
}
