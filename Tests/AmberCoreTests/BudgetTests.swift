import AmberArchive
@testable import AmberCore
import Testing

/// SPEC R31: the size budgets, per object and per archive, and the largest objects.
@Suite struct BudgetTests {
    /// Root; under it Small, Big and Medium (values of 100, 5000 and 600 bytes); under Big,
    /// UnderBig. Each saves its value under "value" and logs what it decodes.
    struct Tree {
        let root = controller("Root")
        let small = controller("Small")
        let big = controller("Big")
        let underBig = controller("UnderBig")
        let medium = controller("Medium")

        init(_ engine: Engine, log: Log) throws {
            saving(root, "r", log: log)
            saving(small, String(repeating: "s", count: 100), log: log)
            saving(big, String(repeating: "b", count: 5000), log: log)
            saving(underBig, String(repeating: "u", count: 20), log: log)
            saving(medium, String(repeating: "m", count: 600), log: log)
            try root.addChild(small)
            try root.addChild(big)
            try big.addChild(underBig)
            try root.addChild(medium)
            try engine.addRoot(root)
        }
    }

    /// An engine as `makeEngine` makes them, with these budgets.
    func engine(_ store: MemoryStore, objectBudget: Int? = nil, archiveBudget: Int? = nil) -> Engine {
        let engine = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: store, envelope: PlainEnvelope(), systemVersion: "test-os 1",
            objectBudget: objectBudget, archiveBudget: archiveBudget))
        engine.delegate.shouldSave = { _ in true }
        engine.delegate.shouldRestore = { _ in true }
        return engine
    }

    func entry(_ report: PreservationReport, _ path: String...) -> PreservationReport.Entry? {
        report.first { $0.path.map(\.identifier) == path }
    }

    // R31
    @Test func testR31ObjectOverBudgetIsLeftOutWithItsSubtree() throws {
        let store = MemoryStore()
        let first = engine(store, objectBudget: 1000)
        _ = try Tree(first, log: Log())
        let report = try first.preserve()
        #expect(report.saved)
        let big = try #require(entry(report, "Root", "Big"))
        guard case .overBudget(let size, let budget)? = big.leftOut else {
            Issue.record("Big: \(String(describing: big.leftOut))")
            return
        }
        #expect(size > 5000 && size < 6000 && budget == 1000 && big.byteCount == size)
        #expect(big.leftOut!.description.contains("\(size) bytes") && big.leftOut!.description.contains("1000"))
        let under = try #require(entry(report, "Root", "Big", "UnderBig"))
        guard case .underLeftOut(let above)? = under.leftOut else {
            Issue.record("UnderBig: \(String(describing: under.leftOut))")
            return
        }
        #expect(above.contains("/Root/Big"))
        #expect(report.filter(\.isPreserved).map { $0.path.map(\.identifier).joined(separator: "/") } == ["Root", "Root/Small", "Root/Medium"])
        #expect(report.description.contains("left out /Root/Big (ViewController): its record is \(size) bytes"))
        // Its value was dropped from the archive (compacted): less than Big's 5000 bytes in all.
        let bytes = try #require(store.bytes)
        #expect(bytes.count < 5000 && report.byteCount == bytes.count)
        #expect(try RestorationArchive(bytes: bytes).records.count == 5)

        // Killed and launched again (SPEC R33; the relaunch saves once more, with the same
        // budget): the rest is restored; Big and UnderBig are not.
        let log = Log()
        let relaunched = try first.relaunch { engine in
            engine.delegate.shouldSave = { _ in true }
            engine.delegate.shouldRestore = { _ in true }
            _ = try Tree(engine, log: log)
        }
        #expect(entry(relaunched.preservation, "Root", "Big")?.leftOut == big.leftOut)
        let restored = relaunched.report
        #expect(restored.freshLaunchReason == nil)
        #expect(log.entries.contains("decode Small=\(String(repeating: "s", count: 100))"))
        #expect(log.entries.contains("decode Medium=\(String(repeating: "m", count: 600))"))
        #expect(!log.entries.contains { $0.hasPrefix("decode Big") || $0.hasPrefix("decode UnderBig") })
        #expect(restored.records.first { $0.path == ["Root", "Big"] }?.outcome == .leftOut)
        // R16: the restore says it was over its budget, not that an encode callback failed.
        #expect(restored.records.first { $0.path == ["Root", "Big"] }?.note
            == "its state was not saved: its record was \(size) bytes at preservation, over the budget per object (R31)")
        #expect(restored.records.first { $0.path == ["Root", "Big", "UnderBig"] }?.note == "an object above it was left out at preservation")
    }

    // R31
    @Test func testR31NoBudgetByDefault() throws {
        let engine = engine(MemoryStore())
        _ = try Tree(engine, log: Log())
        let report = try engine.preserve()
        #expect(report.preservedCount == 5 && report.leftOut.isEmpty)
    }

    // R31
    @Test func testR31LargestObjectsFirstAtMostTen() throws {
        let engine = engine(MemoryStore())
        let root = controller("Root")
        try engine.addRoot(root)
        for i in 0 ..< 15 {
            let c = controller("S\(i)")
            saving(c, String(repeating: "x", count: 100 * (i + 1)))
            try root.addChild(c)
        }
        let report = try engine.preserve()
        let largest = report.largest
        #expect(largest.map { $0.path.last?.identifier } == (5 ..< 15).reversed().map { "S\($0)" })
        #expect(largest.count == PreservationReport.largestCount)
        #expect(zip(largest, largest.dropFirst()).allSatisfy { $0.byteCount >= $1.byteCount })
        #expect(report.largestIndices.map { report[$0].byteCount } == largest.map(\.byteCount))
        #expect(report.description.contains("  largest:\n    1. /Root/S14 (ViewController): \(largest[0].byteCount) bytes"))
    }

    // R31
    @Test func testR31ArchiveOverBudgetKeepsThePreviousArchive() throws {
        let store = MemoryStore()
        let first = engine(store)
        _ = try Tree(first, log: Log())
        try first.preserve()
        let kept = store.bytes

        let second = engine(store, archiveBudget: 500)
        _ = try Tree(second, log: Log())
        do {
            try second.preserve()
            Issue.record("an archive over its budget was saved")
        } catch {
            #expect(code(error) == .limitExceeded && (error as? AmberError)?.message.contains("500") == true)
        }
        #expect(store.bytes == kept)
        let report = try #require(second.lastPreservation)
        guard case .overBudget(let message)? = report.notSaved else {
            Issue.record("not saved: \(String(describing: report.notSaved))")
            return
        }
        #expect(message.contains("500"))
        #expect(report.largest.first?.path.map(\.identifier) == ["Root", "Big"])
        #expect(report.count == 5 && report.byteCount == 0)
    }

    // R31 R22: an archive over the reader's limit, with no budget given, is over its budget
    // (the limit), reported as such with the largest objects.
    @Test func testR31ArchiveOverTheLimitIsOverBudget() throws {
        let store = MemoryStore()
        let engine = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: store, limits: ArchiveLimits(maxBytes: 4000)))
        engine.delegate.shouldSave = { _ in true }
        let root = controller("root")
        saving(root, String(repeating: "x", count: 5000))
        try engine.addRoot(root)
        #expect(throws: AmberError.self) { try engine.preserve() }
        #expect(store.bytes == nil)
        let report = try #require(engine.lastPreservation)
        guard case .overBudget(let message)? = report.notSaved else {
            Issue.record("not saved: \(String(describing: report.notSaved))")
            return
        }
        #expect(message.contains("its budget is 4000 bytes"))
        #expect(report.largest.map { $0.path.map(\.identifier) } == [["root"]])
    }

    // R31
    @Test func testR31ArchiveBudgetIsBoundedByTheLimit() throws {
        var configuration = makeEngine().configuration
        configuration.archiveBudget = Int.max
        #expect(configuration.effectiveArchiveBudget == ArchiveLimits.default.maxBytes)
        configuration.archiveBudget = nil
        #expect(configuration.effectiveArchiveBudget == ArchiveLimits.default.maxBytes)
        configuration.archiveBudget = 10
        #expect(configuration.effectiveArchiveBudget == 10)
    }

    // R31
    @Test func testR31BudgetsMustBePositive() throws {
        var options = EngineOptions()
        options.storage = .memory
        options.objectBudget = 0
        #expect(throws: AmberError.self) { try EngineConfiguration(appID: "org.amber.tests", options: options) }
        options.objectBudget = 1
        options.archiveBudget = -5
        #expect(throws: AmberError.self) { try EngineConfiguration(appID: "org.amber.tests", options: options) }
        options.archiveBudget = 1 << 20
        let configuration = try EngineConfiguration(appID: "org.amber.tests", options: options)
        #expect(configuration.objectBudget == 1 && configuration.archiveBudget == 1 << 20)
    }

    // R31: the sizes `amber inspect --sizes` shows, from the archive.
    @Test func testR31SizesInTheArchive() throws {
        let store = MemoryStore()
        let engine = engine(store)
        _ = try Tree(engine, log: Log())
        let report = try engine.preserve()
        let archive = try RestorationArchive(bytes: try #require(store.bytes))
        let keyed = archive.unarchiver.archive
        #expect(archive.recordUIDs.count == 5)
        let sizes = archive.recordUIDs.map { keyed.byteSize(ofUID: $0) }
        // Big's record reaches its 5000-byte value; each record more than its value.
        let big = try #require(archive.records.firstIndex { $0.path == ["Root", "Big"] })
        #expect(sizes[big] > 5000 && sizes.max() == sizes[big])
        let keys = keyed.keySizes(ofUID: archive.records[big].stateUID)
        #expect(keys.map(\.key) == ["value"])
        // A UID (a marker and 1 byte) and the string: a marker, its length (an integer: a marker
        // and 2 bytes) and 5000 bytes.
        #expect(keys.first?.bytes == 2 + 1 + 3 + 5000)
        // The same order of sizes as the report's.
        #expect(report.largest.first?.path.map(\.identifier) == ["Root", "Big"])
    }
}
