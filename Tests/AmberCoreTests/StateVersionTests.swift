import AmberArchive
@testable import AmberCore
import Testing

/// Saves root → [tab → [field]] where tab is a `Tab` whose state is "title" (version 1 unless
/// `version` declares another) and field a `Field`.
private func savedTabs(tabVersion version: Int? = nil, title: String = "Inbox") throws -> MemoryStore {
    let store = MemoryStore()
    let engine = makeEngine(store)
    if let version { try engine.registerStateVersion(className: "Tab", version: version, migrate: nil) }
    let root = controller("root", "Root"), tab = controller("tab", "Tab"), field = controller("field", "Field")
    try engine.addRoot(root)
    try root.addChild(tab)
    try tab.addChild(field)
    tab.callbacks.encode = { _, coder in try coder.encode(title, forKey: "title") }
    field.callbacks.encode = { _, coder in try coder.encode("typed", forKey: "text") }
    try engine.preserve()
    return store
}

/// A fresh tree root → [tab → [field]] in `engine`, the tab's decode reading "caption" (its
/// version 2 state) into `log`, the field's its "text".
private func freshTabs(_ engine: Engine, _ log: Log) throws {
    let root = controller("root", "Root"), tab = controller("tab", "Tab"), field = controller("field", "Field")
    try engine.addRoot(root)
    try root.addChild(tab)
    try tab.addChild(field)
    tab.callbacks.decode = { _, d in log.add("caption=\(try d.decodeString(forKey: "caption"))") }
    field.callbacks.decode = { _, d in log.add("text=\(try d.decodeString(forKey: "text"))") }
}

@Suite struct StateVersionTests {
    // R30: a record of version 1 (written before any version was declared) goes to the migrate
    // callback, whose new values the decode callback reads.
    @Test func testR30MigratesOlderRecord() throws {
        let store = try savedTabs()
        let engine = makeEngine(store)
        let log = Log()
        try engine.registerStateVersion(className: "Tab", version: 2) { new, old, from, to in
            log.add("migrate \(from)->\(to)")
            try new.encode("[\(try old.decodeString(forKey: "title"))]", forKey: "caption")
            return true
        }
        try freshTabs(engine, log)
        let report = engine.restore()
        #expect(log.entries == ["migrate 1->2", "caption=[Inbox]", "text=typed"])
        #expect(report.record(forPath: ["root", "tab"])?.outcome == .migrated(from: 1, to: 2))
        #expect(report.record(forPath: ["root", "tab", "field"])?.outcome == .restored)
        #expect(report.restoredCount == 3)
        #expect(report.description.contains("migrated (from 1 to 2)  /root/tab"))
        // The kept report (SPEC R16) reads the outcome back.
        let kept = try KeptRestorationReport(bytes: KeptRestorationReport(report, appID: "t", written: 0).encoded())
        #expect(kept.records.map(\.outcome) == [.restored, .migrated(from: 1, to: 2), .restored])
        #expect(kept.description.contains("restored 3 of 3"))
    }

    // R30: a record of a newer version than the class knows is declined with its subtree.
    @Test func testR30DeclinesNewerRecord() throws {
        let store = try savedTabs(tabVersion: 3)
        let engine = makeEngine(store)
        let log = Log()
        try engine.registerStateVersion(className: "Tab", version: 2) { _, _, _, _ in
            log.add("migrate")
            return true
        }
        try freshTabs(engine, log)
        let report = engine.restore()
        #expect(log.entries.isEmpty)
        let tab = try #require(report.record(forPath: ["root", "tab"]))
        #expect(tab.outcome == .declinedVersion)
        #expect(tab.note?.contains("archived at state version 3; class Tab is at version 2") == true)
        #expect(report.record(forPath: ["root", "tab", "field"])?.outcome == .leftOut)
        // R16: the record under it says its ancestor was declined for its version.
        #expect(report.record(forPath: ["root", "tab", "field"])?.note == "an object above it was declined for its state's version (R30)")
        #expect(report.record(forPath: ["root"])?.outcome == .restored)
    }

    // R30: the version is recorded per record; a class without a declaration reads version 1.
    @Test func testR30VersionIsRecordedAndReadBack() throws {
        let store = try savedTabs(tabVersion: 2)
        let archive = try RestorationArchive(bytes: try #require(store.bytes))
        #expect(archive.records.map(\.stateVersion) == [1, 2, 1])  // root, tab, field
        let undeclared = makeEngine(MemoryStore(bytes: store.bytes))
        let log = Log()
        try freshTabs(undeclared, log)
        let report = undeclared.restore()
        #expect(report.record(forPath: ["root", "tab"])?.outcome == .declinedVersion)
        // The same archive with the version declared restores without migrating.
        let declared = makeEngine(MemoryStore(bytes: store.bytes))
        try declared.registerStateVersion(className: "Tab", version: 2) { _, _, _, _ in
            Issue.record("a record of the current version is not migrated")
            return true
        }
        let root = controller("root", "Root"), tab2 = controller("tab", "Tab")
        try declared.addRoot(root)
        try root.addChild(tab2)
        tab2.callbacks.decode = { _, d in log.add("title=\(try d.decodeString(forKey: "title"))") }
        #expect(declared.restore().record(forPath: ["root", "tab"])?.outcome == .restored)
        #expect(log.entries == ["title=Inbox"])
    }

    // R30: a migrate callback that declines, one that throws, and a class without one.
    @Test func testR30DeclinedOrFailedMigration() throws {
        let store = try savedTabs()
        for answer in ["decline", "throw", "none"] {
            let engine = makeEngine(MemoryStore(bytes: store.bytes))
            let migrate: StateVersion.Migrate? = answer == "none" ? nil : { _, _, _, _ in
                if answer == "throw" { throw AmberError(.invalidArgument, "no title") }
                return false
            }
            try engine.registerStateVersion(className: "Tab", version: 2, migrate: migrate)
            let log = Log()
            try freshTabs(engine, log)
            let report = engine.restore()
            let tab = try #require(report.record(forPath: ["root", "tab"]))
            let field = try #require(report.record(forPath: ["root", "tab", "field"]))
            switch answer {
            case "decline":
                #expect(tab.outcome == .declinedVersion)
                #expect(tab.note?.contains("declined state version 1") == true)
                #expect(field.outcome == .leftOut)
            case "throw":
                #expect(tab.outcome == .decodeError("migrating the state of class Tab from version 1 to 2 failed: no title"))
                #expect(field.outcome == .restored)
            default:
                #expect(tab.outcome == .declinedVersion)
                #expect(tab.note?.contains("has no migrate callback") == true)
            }
            #expect(!log.entries.contains { $0.hasPrefix("caption") })
        }
    }

    // R30: declarations are checked.
    @Test func testR30RegistrationIsChecked() throws {
        let engine = makeEngine()
        #expect(throws: AmberError.self) { try engine.registerStateVersion(className: "", version: 2, migrate: nil) }
        #expect(throws: AmberError.self) { try engine.registerStateVersion(className: "Tab", version: 0, migrate: nil) }
        try engine.registerStateVersion(className: "Tab", version: 2, migrate: nil)
        #expect(engine.stateVersion(ofClass: "Tab") == 2)
        #expect(engine.stateVersion(ofClass: "Other") == 1)
        do {
            try engine.registerStateVersion(className: "Tab", version: 3, migrate: nil)
            Issue.record("a second declaration was accepted")
        } catch {
            #expect(error.code == .duplicate)
        }
    }
}
