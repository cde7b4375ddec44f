@testable import AmberCore
import Testing

/// Where an engine's files live (`StateFiles`, what `amber inspect --app` asks), and the
/// restoration report kept on disk (`KeptRestorationReport`, what `amber report` reads).
@Suite struct KeptReportTests {
    /// An engine with the default options but for its directory, restoring what it saves.
    private func engine(_ directory: String, keep: Bool = true) throws -> Engine {
        var options = EngineOptions()
        options.storage = .directory(directory)
        options.keepsRestorationReport = keep
        let engine = Engine(configuration: try EngineConfiguration(appID: "org.amber.tests", options: options))
        engine.delegate.shouldSave = { _ in true }
        engine.delegate.shouldRestore = { _ in true }
        return engine
    }

    // R19
    @Test func theFilesAreWhereAnEngineWithTheDefaultOptionsKeepsThem() throws {
        let files = try StateFiles(appID: "org.example.homepwner")
        let configuration = try EngineConfiguration(appID: "org.example.homepwner", options: EngineOptions())
        let store = try #require(configuration.store as? FileStore)
        #expect(files.directory == store.directory)
        #expect(files.directory == (try FileStore.defaultDirectory(appID: "org.example.homepwner")))
        #expect(files.archivePath == store.archivePath)
        #expect(files.guardPath == store.guardPath)
        #expect(files.keyPath == configuration.keyFile?.path)
        #expect(files.archivePath.hasSuffix("/org.example.homepwner/state.archive"))
        #expect(files.keyPath.hasSuffix("/org.example.homepwner/archive.key"))
        #expect(files.reportPath.hasSuffix("/org.example.homepwner/last-restore.report"))
        #expect(StateFiles(directory: "/s/x/").archivePath == "/s/x/state.archive")
        #expect(throws: AmberError.self) { try StateFiles(appID: "../escape") }
        // Off by default.
        if !EngineOptions.environmentKeepsReport() { #expect(configuration.reportDirectory == nil) }
    }

    // R19
    @Test func findingNothingNamesThePathsTried() throws {
        let scratch = ScratchDirectory("state-files")
        defer { scratch.cleanup() }
        let files = StateFiles(directory: scratch.path)
        let missing = #expect(throws: AmberError.self) { try files.existingArchive() }
        #expect(missing?.code == .notFound)
        #expect(missing?.message.contains(files.archivePath) == true)
        #expect(missing?.message.contains("'\(scratch.path)' does not exist") == true)
        #expect(throws: AmberError.self) { try files.existingReport() }

        let e = try engine(scratch.path)
        try e.addRoot(controller("Root"))
        try e.preserve()
        let found = try files.existingArchive()
        #expect(found.archive == files.archivePath && found.key == files.keyPath)

        _ = e.launch()  // the archive is consumed, its report kept
        let consumed = #expect(throws: AmberError.self) { try files.existingArchive() }
        #expect(consumed?.message.contains(files.reportPath) == true)
        #expect(try files.existingReport() == files.reportPath)
    }

    // R28
    @Test func eachLaunchKeepsItsReportWithoutStateValues() throws {
        let scratch = ScratchDirectory("kept-report")
        defer { scratch.cleanup() }
        let files = StateFiles(directory: scratch.path)
        let e = try engine(scratch.path)
        let root = controller("Nav", "NavController", stack: true)
        let detail = controller("Detail", "DetailController")
        try root.addChild(detail)
        saving(root, "secret-root-value")
        saving(detail, "secret-detail-value")
        try e.addRoot(root)

        // First launch: nothing saved yet.
        _ = e.launch()
        var kept = try KeptRestorationReport.read(path: files.reportPath)
        #expect(kept.freshLaunchReason == .noArchive)
        #expect(kept.appID == "org.amber.tests")
        #expect(FileSystem.permissions(files.reportPath) == 0o600)

        try e.preserve()
        let next = try engine(scratch.path)
        let nav = controller("Nav", "NavController", stack: true)
        try nav.addChild(controller("Detail", "OtherClass"))  // a class mismatch
        try next.addRoot(nav)
        let report = next.launch()
        kept = try KeptRestorationReport.read(path: files.reportPath)
        #expect(kept == KeptRestorationReport(report, appID: "org.amber.tests", written: kept.written))
        #expect(kept.records.map(\.outcome) == [.restored, .classMismatch])
        #expect(kept.records.map { PathComponent.describe($0.path) } == ["/Nav", "/Nav/Detail"])
        #expect(kept.description == report.description)
        let text = String(decoding: try #require(try FileSystem.readFile(files.reportPath, maxBytes: 1 << 20)), as: UTF8.self)
        #expect(!text.contains("secret"))
        #expect(text.hasPrefix("amber-restoration-report\t1\n"))
        #expect(text.hasSuffix("end\n"))
        // No temporary file is left beside it.
        #expect(FileSystem.directoryEntries(scratch.path)?.filter { $0.hasSuffix(".tmp") } == [])
    }

    // R28
    @Test func offByDefaultAndNeverForAMemoryStore() throws {
        let scratch = ScratchDirectory("no-report")
        defer { scratch.cleanup() }
        guard !EngineOptions.environmentKeepsReport() else { return }  // AMBER_KEEP_REPORT=1 set around the tests
        _ = try engine(scratch.path, keep: false).launch()
        #expect(FileSystem.linkStatusMode(StateFiles(directory: scratch.path).reportPath) == nil)
        var options = EngineOptions()
        options.storage = .memory
        options.keepsRestorationReport = true
        #expect(try EngineConfiguration(appID: "a", options: options).reportDirectory == nil)
        #expect(EngineOptions.environmentKeepsReport { $0 == "AMBER_KEEP_REPORT" ? "1" : nil })
        #expect(!EngineOptions.environmentKeepsReport { $0 == "AMBER_KEEP_REPORT" ? "yes" : nil })
        #expect(!EngineOptions.environmentKeepsReport { _ in nil })
    }

    // R28
    @Test func aReportThatCannotBeWrittenIsNotedNotFatal() throws {
        let scratch = ScratchDirectory("blocked-report")
        defer { scratch.cleanup() }
        let e = try engine(scratch.path)
        try FileSystem.makeDirectories(scratch.path + "/" + KeptRestorationReport.fileName)  // a directory in its place
        let report = e.launch()
        #expect(report.freshLaunchReason == .noArchive)
        #expect(report.notes.contains { $0.contains("could not be kept") })
    }

    // R28
    @Test func everyReasonOutcomeAndAwkwardTextRoundTrips() throws {
        let reasons: [FreshLaunchReason] = [
            .noArchive, .shouldRestoreDeclined, .corruptArchive("bad\tbyte %41"), .crashLoop, .keyUnavailable("locked"),
            .authenticationFailed("tag"), .unreadableArchive("EIO\n"), .discardedByHost, .restorationInProgress,
            .extendedRestorationUnfinished, .launchGuardUnusable("FIFO"), .otherApplication("org.a, not org.b"),
        ]
        for reason in reasons {
            let kept = KeptRestorationReport(RestorationReport(freshLaunchReason: reason, notes: ["n"]), appID: "a", written: 7)
            #expect(try KeptRestorationReport(bytes: kept.encoded()) == kept, "\(reason)")
        }
        let outcomes: [RestorationOutcome] = [.restored, .declinedByClass, .notFound, .classMismatch, .leftOut, .decodeError("x\ny"), .duplicate]
        var records = outcomes.enumerated().map { i, o in
            RestorationRecord(
                path: [PathComponent("a/b\t%", position: 0), PathComponent("é\u{0}", position: i)], className: "C\r",
                kind: ObjectKind(rawValue: UInt8(i % 3))!, outcome: o, note: i == 2 ? "note\twith tab" : nil)
        }
        records[0].droppedModelIdentifiers = ["item-1", "item-2"]
        let report = RestorationReport(records: records, notes: ["one", ""], isExtended: true)
        let kept = KeptRestorationReport(report, appID: "org.x", written: -5)
        let back = try KeptRestorationReport(bytes: kept.encoded())
        #expect(back == kept)
        #expect(back.records[0].droppedModelIdentifiers == 2)
        #expect(!String(decoding: kept.encoded(), as: UTF8.self).contains("item-1"))
    }

    // R28
    @Test func damagedReportsAreRefusedWithAReason() {
        let good = KeptRestorationReport(RestorationReport(freshLaunchReason: .crashLoop), appID: "a", written: 1).encoded()
        let text = String(decoding: good, as: UTF8.self)
        let bad: [(String, String)] = [
            ("", "does not start"),
            ("amber-restoration-report\t2\nend\n", "format 2"),
            (String(text.dropLast(4)), "'end' line is missing"),
            (replacing(text, "crash-loop", "meteor"), "unknown reason"),
            ("amber-restoration-report\t1\napp\ta\nwritten\t1\nresult\trestored\nrecord\trestored\n" + "end\n", "fewer than it needs"),
            ("amber-restoration-report\t1\napp\ta\nwritten\t1\nresult\trestored\nrecord\trestored\t\tview\tC\t0\t\tA\n" + "end\n", "without its position"),
            ("amber-restoration-report\t1\napp\ta\nwritten\tsoon\nresult\trestored\nend\n", "whole number"),
            ("amber-restoration-report\t1\napp\ta\nwritten\t1\nresult\tfresh\nend\n", "disagree"),
            (text + "more\n", "after 'end'"),
        ]
        for (bytes, why) in bad {
            let error = #expect(throws: AmberError.self, "\(why)") { try KeptRestorationReport(bytes: Array(bytes.utf8)) }
            #expect(error?.code == .corrupt)
            #expect(error?.message.contains(why) == true, "\(error?.message ?? "") ∌ \(why)")
        }
        // Lines of a later writer are skipped.
        let extra = replacing(text, "end\n", "future\tfield\nend\n")
        #expect(throws: Never.self) { try KeptRestorationReport(bytes: Array(extra.utf8)) }
    }
}

/// `text` with each `old` replaced by `new`.
private func replacing(_ text: String, _ old: String, _ new: String) -> String {
    text.split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
}
