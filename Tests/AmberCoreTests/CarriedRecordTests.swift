import AmberArchive
@testable import AmberCore
import Synchronization
import Testing

/// Saves root → [tab → [field], list], the tab writing "title", the field "text" and a
/// reference to the list, the list "rows".
private func savedTabs() throws -> MemoryStore {
    let store = MemoryStore()
    let engine = makeEngine(store)
    let root = controller("root", "Root"), tab = controller("tab", "Tab"), field = controller("field", "Field")
    let list = controller("list", "List")
    try engine.addRoot(root)
    try root.addChild(tab)
    try root.addChild(list)
    try tab.addChild(field)
    tab.callbacks.encode = { _, c in try c.encode("Inbox", forKey: "title") }
    field.callbacks.encode = { _, c in
        try c.encode("typed", forKey: "text")
        try c.encodeReference(to: list, forKey: "list")
    }
    list.callbacks.encode = { _, c in try c.encode(3, forKey: "rows") }
    try engine.preserve()
    return store
}

/// An engine on `store` that keeps the records no object claims, launched with the root and
/// the list only: the tab and its field are kept for later.
private func launchedWithoutTheTab(_ store: MemoryStore) throws -> (Engine, RestorableObject) {
    let engine = makeEngine(store)
    try engine.keepUnclaimed(milliseconds: 60_000)
    let root = controller("root", "Root"), list = controller("list", "List")
    list.callbacks.encode = { _, c in try c.encode(4, forKey: "rows") }
    _ = engine.launch {
        try? engine.addRoot(root)
        try? root.addChild(list)
    }
    return (engine, root)
}

/// What a later launch on `store` gives the tab and field, created at launch.
private func relaunch(_ store: MemoryStore, tabTitle: String? = nil) -> (log: [String], report: RestorationReport) {
    let engine = makeEngine(MemoryStore(bytes: store.bytes))
    let log = Log()
    let root = controller("root", "Root"), tab = controller("tab", "Tab"), field = controller("field", "Field")
    let list = controller("list", "List")
    tab.callbacks.decode = { _, d in log.add("title=\(try d.decodeString(forKey: "title"))") }
    field.callbacks.decode = { _, d in
        log.add("text=\(try d.decodeString(forKey: "text"))")
        let target = try d.decodeReference(forKey: "list")
        log.add("list=\(target.map { $0 === list } ?? false)")
    }
    let report = engine.launch {
        try? engine.addRoot(root)
        try? root.addChild(tab)
        try? root.addChild(list)
        try? tab.addChild(field)
    }
    return (log.entries, report)
}

@Suite struct CarriedRecordTests {
    // R35 R28: a save made while records are kept carries them; a later launch restores them.
    @Test func testR35SaveCarriesTheKeptRecords() throws {
        let store = try savedTabs()
        let (engine, _) = try launchedWithoutTheTab(store)
        #expect(engine.hasUnclaimedRecords)
        let lines = Mutex<[String]>([])
        engine.logSink = LogSink(level: .debug) { level, line in lines.withLock { $0.append("\(level): \(line)") } }
        let saved = try engine.preserve()  // an autosave before the tab is opened
        #expect(saved.carried.map(\.pathDescription) == ["/root/tab", "/root/tab/field"])
        #expect(saved.carried.allSatisfy { $0.byteCount > 0 })
        #expect(saved.leftOut.isEmpty)
        #expect(saved.preservedCount == 2)
        #expect(saved.description.contains("  carried /root/tab (Tab): "))
        // R29: the log tells them apart from the objects left out.
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.hasPrefix("info: preserve: saved 2 objects in ") && $0.contains("(0 left out, 2 kept record(s) carried)") })
        #expect(logged.contains { $0.hasPrefix("debug: preserve: carried /root/tab (Tab, controller), kept for an object created later: ") })
        #expect(engine.currentRestorationReport()?.notes.contains {
            $0.hasPrefix("2 kept record(s) no object has claimed yet were carried into the archive saved")
        } == true)

        // The process dies; the next launch has the tab's state, its reference to the list
        // pointing at the list of the new archive.
        let (log, report) = relaunch(store)
        #expect(report.records.map { PathComponent.describe($0.components) } == ["/root", "/root/list", "/root/tab", "/root/tab/field"])
        #expect(report.records.allSatisfy { $0.outcome == .restored })
        #expect(log == ["title=Inbox", "text=typed", "list=true"])
        // And it is still claimable in this process.
        #expect(engine.hasUnclaimedRecords)
    }

    // R35: a kept record whose path a live object has now is not carried (the live object
    // wins); a kept record under it hangs from the live object's record.
    @Test func testR35LiveObjectWinsOverAKeptRecord() throws {
        let store = try savedTabs()
        let (engine, root) = try launchedWithoutTheTab(store)
        let live = controller("tab", "Tab")
        live.callbacks.encode = { _, c in try c.encode("Live", forKey: "title") }
        try root.addChild(live)
        let saved = try engine.preserve()
        #expect(saved.carried.map(\.pathDescription) == ["/root/tab/field"])
        let (log, report) = relaunch(store)
        #expect(report.records.map { PathComponent.describe($0.components) } == ["/root", "/root/list", "/root/tab", "/root/tab/field"])
        #expect(log == ["title=Live", "text=typed", "list=true"])
    }

    // R35: past their deadline the kept records are dropped and no longer carried.
    @Test func testR35DroppedRecordsAreNotCarried() throws {
        let store = try savedTabs()
        let (engine, _) = try launchedWithoutTheTab(store)
        engine.endRestoration()
        let saved = try engine.preserve()
        #expect(saved.carried.isEmpty)
        #expect(relaunch(store).report.record(forPath: ["root", "tab"]) == nil)
    }

    // R35 R34: a kept state that names sensitive keys is not carried into an archive that is
    // not encrypted (nor what is under it), and the report says why.
    @Test func testR35SensitiveKeptStateIsNotWrittenInTheClear() throws {
        // An encrypted save whose tab holds a sensitive value, opened: the plaintext archive a
        // plain engine then reads (as an archive made elsewhere could be).
        let envelope = SealedEnvelope(keyProvider: try FixedKeyProvider(key: [UInt8](repeating: 7, count: 32)), bundleVersion: "1")
        let sealedStore = MemoryStore()
        let writer = Engine(configuration: EngineConfiguration(appID: "org.amber.tests", store: sealedStore, envelope: envelope))
        writer.delegate.shouldSave = { _ in true }
        let root = controller("root", "Root"), tab = controller("tab", "Tab"), field = controller("field", "Field")
        try writer.addRoot(root)
        try root.addChild(tab)
        try tab.addChild(field)
        tab.callbacks.encode = { _, c in
            try c.markSensitive("password")
            try c.encode("SECRET-7f3a9c", forKey: "password")
        }
        try writer.preserve()
        let store = MemoryStore(bytes: try envelope.open(try #require(sealedStore.bytes)))

        let engine = makeEngine(store)
        try engine.keepUnclaimed(milliseconds: 60_000)
        _ = engine.launch { try? engine.addRoot(controller("root", "Root")) }
        #expect(engine.hasUnclaimedRecords)
        let saved = try engine.preserve()
        #expect(saved.carried.isEmpty)
        let notCarried = saved.filter { if case .notCarried = $0.leftOut { return true } else { return false } }
        #expect(notCarried.map(\.pathDescription) == ["/root/tab", "/root/tab/field"])
        #expect(notCarried.first?.leftOut?.description.contains("sensitive values and this archive is not encrypted") == true)
        #expect(!String(decoding: store.bytes ?? [], as: UTF8.self).contains("SECRET-7f3a9c"))
    }

    // R35 R16: the report kept on disk (what `amber report` prints) says the save carried them.
    @Test func testR35KeptReportSaysTheRecordsWereCarried() throws {
        let scratch = ScratchDirectory("carried-report")
        defer { scratch.cleanup() }
        let store = try savedTabs()
        let engine = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: store, envelope: PlainEnvelope(), reportDirectory: scratch.path))
        engine.delegate.shouldRestore = { _ in true }
        engine.delegate.shouldSave = { _ in true }
        try engine.keepUnclaimed(milliseconds: 60_000)
        _ = engine.launch { try? engine.addRoot(controller("root", "Root")) }
        try engine.preserve()
        try engine.preserve()  // said once, not at every autosave
        let kept = try KeptRestorationReport.read(path: StateFiles(directory: scratch.path).reportPath)
        #expect(kept.notes.filter { $0.contains("were carried into the archive saved") }
            == ["3 kept record(s) no object has claimed yet were carried into the archive saved, until their deadline: /root/tab, /root/tab/field, /root/list"])
    }

    // R35 R30: a state migrated at launch is the one carried, at its class's current version.
    @Test func testR35CarriesTheMigratedState() throws {
        let store = try savedTabs()  // Tab at state version 1: "title"
        let engine = makeEngine(store)
        try engine.registerStateVersion(className: "Tab", version: 2) { new, old, _, _ in
            try new.encode("[\(try old.decodeString(forKey: "title"))]", forKey: "caption")
            return true
        }
        try engine.keepUnclaimed(milliseconds: 60_000)
        _ = engine.launch { try? engine.addRoot(controller("root", "Root")) }
        try engine.preserve()

        let next = makeEngine(MemoryStore(bytes: store.bytes))
        let log = Log()
        try next.registerStateVersion(className: "Tab", version: 2) { _, _, _, _ in
            log.add("migrated again")
            return true
        }
        let root = controller("root", "Root"), tab = controller("tab", "Tab")
        tab.callbacks.decode = { _, d in log.add("caption=\(try d.decodeString(forKey: "caption"))") }
        let report = next.launch {
            try? next.addRoot(root)
            try? root.addChild(tab)
        }
        #expect(report.record(forPath: ["root", "tab"])?.outcome == .restored)
        #expect(log.entries == ["caption=[Inbox]"])
    }

    // R35: a kept record whose parent is neither kept nor an object of the trees any more is
    // written with its whole path, and the records under it still hang from it.
    @Test func testR35KeptRecordWithoutItsParentKeepsItsPath() throws {
        let store = MemoryStore()
        let writer = makeEngine(store)
        let root = controller("root", "Root"), nav = controller("nav", "Nav"), tab = controller("tab", "Tab")
        let field = controller("field", "Field")
        try writer.addRoot(root)
        try root.addChild(nav)
        try nav.addChild(tab)
        try tab.addChild(field)
        tab.callbacks.encode = { _, c in try c.encode("Inbox", forKey: "title") }
        field.callbacks.encode = { _, c in try c.encode("typed", forKey: "text") }
        try writer.preserve()

        let middle = MemoryStore(bytes: store.bytes)
        let engine = makeEngine(middle)
        try engine.keepUnclaimed(milliseconds: 60_000)
        let root2 = controller("root", "Root"), nav2 = controller("nav", "Nav")
        _ = engine.launch {
            try? engine.addRoot(root2)
            try? root2.addChild(nav2)
        }
        nav2.removeFromParent()  // /root/nav is gone before the autosave
        let saved = try engine.preserve()
        #expect(saved.carried.map(\.pathDescription) == ["/root/nav/tab", "/root/nav/tab/field"])

        let next = makeEngine(MemoryStore(bytes: middle.bytes))
        try next.keepUnclaimed(milliseconds: 60_000)
        let root3 = controller("root", "Root"), nav3 = controller("nav", "Nav")
        let report = next.launch {
            try? next.addRoot(root3)
            try? root3.addChild(nav3)
        }
        #expect(report.records.map { PathComponent.describe($0.components) } == ["/root", "/root/nav/tab", "/root/nav/tab/field"])
        // The tab created later claims its record and its field's, as at the first launch.
        let log = Log()
        let tab3 = controller("tab", "Tab"), field3 = controller("field", "Field")
        tab3.callbacks.decode = { _, d in log.add("title=\(try d.decodeString(forKey: "title"))") }
        field3.callbacks.decode = { _, d in log.add("text=\(try d.decodeString(forKey: "text"))") }
        try nav3.addChild(tab3)
        try tab3.addChild(field3)
        #expect(try next.restorePending(tab3) == 2)
        #expect(log.entries == ["title=Inbox", "text=typed"])
    }
}
