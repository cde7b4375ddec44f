import AmberArchive
@testable import AmberCore
import Testing

@Suite struct PreservationTests {
    // R5
    @Test func nothingIsSavedWithoutShouldSave() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        engine.delegate.shouldSave = nil
        let root = controller("root")
        try engine.addRoot(root)
        var encoded = false
        root.callbacks.encode = { _, _ in encoded = true }
        #expect(try engine.preserve().saved == false)
        engine.delegate.shouldSave = { _ in false }
        #expect(try engine.preserve().saved == false)
        #expect(store.bytes == nil && store.writeCount == 0 && !encoded)
    }

    // R5 R8
    @Test func applicationCoderCarriesHostKeysAndMetadata() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        var order: [String] = []
        engine.delegate.shouldSave = { coder in
            order.append("shouldSave")
            try? coder.encode("3.4", forKey: "appVersion")
            return true
        }
        engine.delegate.willEncode = { coder in
            order.append("willEncode")
            try coder.encode(Int64(7), forKey: "launches")
        }
        let root = controller("root")
        root.callbacks.encode = { _, _ in order.append("encode root") }
        try engine.addRoot(root)
        let before = FileSystem.now()
        try engine.preserve()
        let after = FileSystem.now()
        #expect(order == ["shouldSave", "willEncode", "encode root"])

        let next = makeEngine(store)
        var seen: (String?, String?, Double?, String?, String?, Int64?) = (nil, nil, nil, nil, nil, nil)
        next.delegate.shouldRestore = { app in
            seen = (app.bundleVersion, app.interfaceIdiom, app.timestamp, app.systemVersion,
                    try? app.decodeString(forKey: "appVersion"), try? app.decodeInt64(forKey: "launches"))
            return false
        }
        let report = next.restore()
        #expect(report.freshLaunchReason == .shouldRestoreDeclined)
        #expect(seen.0 == "2.1" && seen.1 == "phone" && seen.3 == "test-os 1")
        #expect(seen.4 == "3.4" && seen.5 == 7)
        let t = try #require(seen.2)
        #expect(t >= before && t <= after)  // the engine's own clock brackets the stamp exactly
        #expect(t > 700_000_000)  // after 2023, in seconds since 2001
    }

    // R8
    @Test func systemVersionDefaultsToTheKernelRelease() throws {
        let store = MemoryStore()
        let engine = Engine(configuration: EngineConfiguration(appID: "org.amber.tests", store: store, envelope: PlainEnvelope()))
        engine.delegate.shouldSave = { _ in true }
        try engine.preserve()
        let next = makeEngine(store)
        var system: String?
        next.delegate.shouldRestore = { app in system = app.systemVersion; return false }
        _ = next.restore()
        #expect(system == FileSystem.systemRelease())
        #expect(system?.isEmpty == false)
    }

    // R2
    @Test func onlyObjectsWithIdentifiedAncestorsArePreserved() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        let anonymous = controller(nil)
        let underAnonymous = controller("lost")
        let anonymousView = view(nil)
        let named = controller("named")
        let namedView = view("scroll")
        let presented = controller("modal")
        try engine.addRoot(root)
        try root.addChild(anonymous)
        try anonymous.addChild(underAnonymous)
        try anonymous.present(controller("lostModal"))
        try anonymous.addView(view("lostView"))
        try root.addChild(named)
        try named.addView(namedView)
        try named.addView(anonymousView)
        try named.present(presented)
        // A root without identifier is left out whole.
        let otherRoot = controller(nil)
        try otherRoot.addChild(controller("orphan"))
        try engine.addRoot(otherRoot)
        let result = try engine.preserve()
        #expect(result.objectCount == 4)
        #expect(archivedPaths(store) == [["root"], ["root", "named"], ["root", "named", "scroll"], ["root", "named", "modal"]])
    }

    // R3
    @Test func duplicatesAreReportedAndNotPreserved() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        let first = controller("same"), second = controller("same")
        try second.addChild(controller("underSecond"))
        try engine.addRoot(root)
        try root.addChild(first)
        try root.addChild(second)
        let twin = controller("root")
        try engine.addRoot(twin)
        var encodedSecond = false
        second.callbacks.encode = { _, _ in encodedSecond = true }
        let result = try engine.preserve()
        #expect(result.duplicates == [["root"], ["root", "same"]])
        #expect(!encodedSecond)
        #expect(archivedPaths(store) == [["root"], ["root", "same"]])
    }

    // R3, R4: the walk keeps recorded identifiers in the archive only; the paths of
    // duplicates and of the check on references are made from them, ASCII or not.
    @Test func pathsOfDuplicatesAndReferencesUseTheIdentifiersStored() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("Überblick")
        let tabs = controller("タブ", stack: true)
        let first = controller("détail"), second = controller("détail"), clash = controller("détail#1")
        try engine.addRoot(root)
        try root.addChild(tabs)
        for c in [first, second, clash] { try tabs.addChild(c) }
        // A controller in no tree whose path is another's once its parent chain is counted.
        let lookalike = controller("détail#1")
        let elsewhere = controller("タブ")
        let top = controller("Überblick")
        try top.addChild(elsewhere)
        try elsewhere.addChild(lookalike)
        var thrown: AmberError?
        first.callbacks.encode = { _, coder in
            do { try coder.encodeReference(to: lookalike, forKey: "twin") } catch let e as AmberError { thrown = e }
        }
        let result = try engine.preserve()
        // R3: "détail" at position 1 and a sibling named "détail#1" are different objects; the
        // lookalike outside the tree has the sibling's path and is the duplicate.
        #expect(result.duplicates == [["Überblick", "タブ", "détail#1"]])
        #expect(thrown?.code == .duplicate)
        #expect(archivedPaths(store) == [
            ["Überblick"], ["Überblick", "タブ"], ["Überblick", "タブ", "détail"], ["Überblick", "タブ", "détail"],
            ["Überblick", "タブ", "détail#1"],
        ])
        let kept = try #require(result.entries.first { $0.leftOut != nil })
        #expect(kept.leftOut == .duplicatePath(kept: "/Überblick/タブ/détail#1 (ViewController)"))
    }

    // R3
    @Test func stackContainerPreservesSameIdentifiersByPosition() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let nav = controller("nav", stack: true)
        try engine.addRoot(nav)
        for i in 0 ..< 3 {
            let c = controller("detail")
            saving(c, "page \(i)")
            try nav.addChild(c)
        }
        let result = try engine.preserve()
        #expect(result.duplicates.isEmpty && result.objectCount == 4)

        // At the next launch the host rebuilds three plain controllers in the stack; each gets
        // its own state back, in order.
        let next = makeEngine(store)
        let log = Log()
        let nav2 = controller("nav", stack: true)
        try next.addRoot(nav2)
        for _ in 0 ..< 3 {
            let c = controller("detail")
            saving(c, "", log: log)
            try nav2.addChild(c)
        }
        let report = next.restore()
        #expect(report.map(\.path) == [["nav"], ["nav", "detail"], ["nav", "detail"], ["nav", "detail"]])
        #expect(report.map(\.position) == [0, 0, 1, 2])
        #expect(log.entries.filter { $0.hasPrefix("decode") } == ["decode detail=page 0", "decode detail=page 1", "decode detail=page 2"])
    }

    // R6
    @Test func eachObjectHasItsOwnCoderAndRecord() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root", "RootController")
        root.restorationClassName = "RootRestorer"
        let child = controller("child", "ChildController")
        child.blueprintIdentifier = "Main/Child"
        let scroll = view("scroll", "UIScrollView")
        try engine.addRoot(root)
        try root.addChild(child)
        try child.addView(scroll)
        for (o, v) in [(root, "r"), (child, "c"), (scroll, "s")] { saving(o, v) }
        try engine.preserve()

        // The archive, read with the codec alone: one record per object with its metadata.
        let u = try KeyedUnarchiver(bytes: try #require(store.bytes))
        #expect(try u.decodeInt64(forKey: "amber.format") == 3)
        let uids = try u.decodeObjectUIDs(forKey: "objects")
        #expect(uids.count == 3)
        let second = try u.withObject(uid: uids[1]) { r, cls -> [String] in
            #expect(cls == "AmberObjectRecord")
            #expect(try r.decodeInt64(forKey: "parent") == 0)
            // Format 2: a controller that is a child of its parent has neither kind nor relation.
            #expect(!r.containsValue(forKey: "kind") && !r.containsValue(forKey: "relation"))
            let state = try #require(try r.objectUID(forKey: "state"))
            let value = try r.withObject(uid: state) { s, _ in try s.decodeString(forKey: "value") }
            return [try r.decodeString(forKey: "class"), try r.decodeString(forKey: "id"), try r.decodeString(forKey: "blueprint"), value]
        }
        #expect(second == ["ChildController", "child", "Main/Child", "c"])
        // The view: its kind and relation are not the usual ones, so they are written.
        let third = try u.withObject(uid: uids[2]) { r, _ in
            (try r.decodeInt64(forKey: "kind"), try r.decodeInt64(forKey: "relation"), try r.decodeInt64(forKey: "parent"))
        }
        #expect(third == (Int64(ObjectKind.view.rawValue), Int64(ObjectRelation.view.rawValue), 1))
        let first = try u.withObject(uid: uids[0]) { r, _ in
            (try r.decodeString(forKey: "restorationClass"), try r.decodeValue(forKey: "path"))
        }
        #expect(first.0 == "RootRestorer" && first.1 == .array([.string("root")]))

        // Restored: the same key in three coders gives three values.
        let next = makeEngine(store)
        let log = Log()
        let root2 = controller("root", "RootController"), child2 = controller("child", "ChildController"), scroll2 = view("scroll", "UIScrollView")
        try next.addRoot(root2)
        try root2.addChild(child2)
        try child2.addView(scroll2)
        for o in [root2, child2, scroll2] { saving(o, "", log: log) }
        let report = next.restore()
        #expect(report.map(\.kind) == [.controller, .controller, .view])
        #expect(report.map(\.className) == ["RootController", "ChildController", "UIScrollView"])
        #expect(log.entries.prefix(3) == ["decode root=r", "decode child=c", "decode scroll=s"])
    }

    /// An archive in the engine's layout written by hand: a root controller and a child
    /// controller, with kind and relation written as format 1 always did (`explicit`) or left
    /// out.
    private func handMadeArchive(format: Int64, explicit: Bool) throws -> [UInt8] {
        let a = KeyedArchiver()
        a.encode(format, forKey: "amber.format")
        a.encodeObject(forKey: "app", className: "AmberAppState") { app in app.encode("2.1", forKey: "bundleVersion") }
        let state = a.objectClass("AmberState")
        let root = a.encodeDetachedObject(className: "AmberObjectRecord") { r in
            r.encode("RootController", forKey: "class")
            if explicit { r.encode(Int64(0), forKey: "kind") }
            r.encode("root", forKey: "id")
            if explicit { r.encode(Int64(ObjectRelation.none.rawValue), forKey: "relation") }
            r.encode(.array([.string("root")]), forKey: "path")
            r.encode(true, forKey: "root")
            r.encodeObject(forKey: ArchiveKey("state"), class: state) { s in s.encode("r", forKey: "value") }
        }
        let child = a.encodeDetachedObject(className: "AmberObjectRecord") { r in
            r.encode("ChildController", forKey: "class")
            if explicit { r.encode(Int64(0), forKey: "kind") }
            r.encode("child", forKey: "id")
            r.encode(Int64(0), forKey: "parent")
            if explicit { r.encode(Int64(ObjectRelation.child.rawValue), forKey: "relation") }
            r.encodeObject(forKey: ArchiveKey("state"), class: state) { s in s.encode("c", forKey: "value") }
        }
        try a.encode(objectUIDs: [root, child], forKey: "objects")
        return try a.finishEncoding()
    }

    /// Restores a hand-made archive into a root with one child; returns the report.
    private func restoreHandMade(_ bytes: [UInt8]) throws -> (RestorationReport, Log) {
        let store = MemoryStore()
        store.bytes = bytes
        let engine = makeEngine(store)
        let log = Log()
        let root = controller("root", "RootController"), child = controller("child", "ChildController")
        try engine.addRoot(root)
        try root.addChild(child)
        for o in [root, child] { saving(o, "", log: log) }
        return (engine.restore(), log)
    }

    // R5: archives of the format before (kind and relation always written) still restore; in
    // the format written now they may be left out; a format this engine does not know is
    // refused by name, and a format 1 record without its kind is corrupt.
    @Test func formatsOneAndTwoRestore() throws {
        for (format, explicit) in [(Int64(1), true), (2, false), (2, true), (3, false)] {
            let (report, log) = try restoreHandMade(try handMadeArchive(format: format, explicit: explicit))
            #expect(report.map(\.path) == [["root"], ["root", "child"]], "format \(format)")
            #expect(report.map(\.kind) == [.controller, .controller], "format \(format)")
            #expect(log.entries.prefix(2) == ["decode root=r", "decode child=c"], "format \(format)")
        }
        func corruption(_ report: RestorationReport) -> String {
            guard case .corruptArchive(let message) = report.freshLaunchReason else { return "not corrupt: \(report)" }
            return message
        }
        let (unknown, _) = try restoreHandMade(try handMadeArchive(format: 4, explicit: true))
        #expect(corruption(unknown).contains("the archive's format is 4; this engine reads formats 1 to 3"))
        let (missing, _) = try restoreHandMade(try handMadeArchive(format: 1, explicit: false))
        #expect(corruption(missing).contains("no value for key 'kind'"))
    }

    // R4
    @Test func referencesPreserveObjectsTheWalkLeftOut() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        let list = controller("list")
        let source = plain("dataSource")       // a plain object: preserved only because referenced
        let unreferenced = plain("cursor")     // registered, referenced by nothing
        let detached = controller("offscreen") // in no tree
        try engine.addRoot(root)
        try root.addChild(list)
        try source.setRestorationParent(list)
        try unreferenced.setRestorationParent(list)
        saving(source, "rows")
        saving(detached, "hidden")
        var plainEncoded = false
        unreferenced.callbacks.encode = { _, _ in plainEncoded = true }
        list.callbacks.encode = { _, coder in
            try coder.encodeReference(to: source, forKey: "source")
            try coder.encodeReference(to: detached, forKey: "offscreen")
            try coder.encodeReference(to: root, forKey: "up")
            try coder.encodeReference(to: nil, forKey: "none")
        }
        let result = try engine.preserve()
        #expect(result.objectCount == 4)
        #expect(!plainEncoded)

        // Restore: references decode to the objects restored for those paths.
        let next = makeEngine(store)
        let root2 = controller("root"), list2 = controller("list")
        let source2 = plain("dataSource"), detached2 = controller("offscreen")
        try next.addRoot(root2)
        try root2.addChild(list2)
        try source2.setRestorationParent(list2)
        next.delegate.objectForPath = { path, _ in path == ["offscreen"] ? detached2 : nil }
        let log = Log()
        saving(source2, "", log: log)
        saving(detached2, "", log: log)
        var resolved: [RestorableObject?] = []
        list2.callbacks.decode = { _, coder in
            resolved = [try coder.decodeReference(forKey: "source"), try coder.decodeReference(forKey: "offscreen"),
                        try coder.decodeReference(forKey: "up"), try coder.decodeReference(forKey: "none")]
        }
        let report = next.restore()
        #expect(report.map(\.path) == [["root"], ["root", "list"], ["root", "list", "dataSource"], ["offscreen"]])
        #expect(report.allSatisfy { $0.outcome == .restored })
        #expect(resolved.count == 4)
        #expect(resolved[0] === source2 && resolved[1] === detached2 && resolved[2] === root2 && resolved[3] == nil)
        #expect(log.entries.contains("decode dataSource=rows") && log.entries.contains("decode offscreen=hidden"))
    }

    // R4: a referenced object needs an identifier of its own; ancestors without one are
    // skipped in its path.
    @Test func aReferenceNeedsAnIdentifier() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        try engine.addRoot(root)
        let nameless = plain(nil)
        let orphanOfNameless = plain("p")
        let namelessParent = controller(nil)
        try orphanOfNameless.setRestorationParent(namelessParent)
        var errors: [AmberError.Code] = []
        root.callbacks.encode = { _, coder in
            for target in [nameless, orphanOfNameless] {
                do { try coder.encodeReference(to: target, forKey: "ref \(errors.count)") } catch { errors.append(code(error)!) }
            }
        }
        try engine.preserve()
        #expect(errors == [.invalidArgument])
        #expect(archivedPaths(store) == [["root"], ["p"]])
        withExtendedLifetime(namelessParent) {}
    }

    // R4 R3
    @Test func aReferenceToADuplicatePathIsRefused() throws {
        let engine = makeEngine()
        let root = controller("root")
        try engine.addRoot(root)
        let impostor = controller("root")  // outside the tree, same path as the root
        var code: AmberError.Code?
        root.callbacks.encode = { _, coder in
            do { try coder.encodeReference(to: impostor, forKey: "r") } catch { code = AmberCoreTests.code(error) }
        }
        let result = try engine.preserve()
        #expect(code == .duplicate)
        #expect(result.duplicates == [["root"]])
    }

    // R28: an encode callback that fails leaves its object and what is under it out, with
    // what it wrote taken back; the rest is saved, and the report names it.
    @Test func anEncodeErrorLeavesItsSubtreeOutAndSavesTheRest() throws {
        struct HostFailure: Error, CustomStringConvertible { var description: String { "the host failed" } }
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root"), bad = controller("bad"), under = controller("under"), good = controller("good")
        try engine.addRoot(root)
        try root.addChild(bad)
        try bad.addChild(under)
        try root.addChild(good)
        saving(root, "r")
        saving(good, "g")
        var underEncoded = false
        under.callbacks.encode = { _, _ in underEncoded = true }
        bad.callbacks.encode = { _, coder in
            try coder.encode("half", forKey: "value")
            throw HostFailure()
        }
        let report = try engine.preserve()
        #expect(report.saved && report.preservedCount == 2)
        #expect(!underEncoded)
        let out = report.leftOut
        #expect(out.map { $0.path.map(\.identifier) } == [["root", "bad"], ["root", "bad", "under"]])
        #expect(out[0].leftOut == .encodeFailed("the host failed"))
        #expect(out[1].leftOut == .underLeftOut("/root/bad (ViewController)"))
        #expect(report.description.contains("left out /root/bad (ViewController): its encode callback failed: the host failed"))

        // The next launch restores the rest; the omitted records are not looked up.
        let next = makeEngine(store)
        let log = Log()
        let root2 = controller("root"), good2 = controller("good"), bad2 = controller("bad")
        try next.addRoot(root2)
        try root2.addChild(bad2)
        try root2.addChild(good2)
        for o in [root2, good2, bad2] { saving(o, "", log: log) }
        let restored = next.restore()
        #expect(restored.map(\.outcome) == [.restored, .leftOut, .leftOut, .restored])
        #expect(log.entries.filter { $0.hasPrefix("decode") } == ["decode root=r", "decode good=g"])
    }

    // R2 R22: a chain deeper than the limit restoration reads (512 levels) is walked without
    // recursion; the records down to the limit are saved, the rest is left out as one entry
    // counting what is under it, and what was saved restores.
    @Test func deepTreesAreCutAtTheDepthLimit() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        try engine.addRoot(root)
        var top = root
        for i in 0 ..< 20_000 {
            let c = controller("c\(i % 3)")
            try top.present(c)
            top = c
        }
        let report = try engine.preserve()
        #expect(report.objectCount == 512)
        let cut = try #require(report.leftOut.first)
        #expect(report.leftOut.count == 1)
        #expect(cut.path.count == 513)
        #expect(cut.leftOut == .tooDeep(limit: 512, below: 20_001 - 513))
        let next = makeEngine(store)
        next.delegate.objectForPath = { path, _ in controller(path.last) }
        #expect(next.restore().count(of: .restored) == 512)
    }

    // R22: an archive whose records nest deeper than the limit is refused whole.
    @Test func anArchiveDeeperThanTheLimitIsRefused() throws {
        let store = MemoryStore()
        let saver = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: store, limits: ArchiveLimits(maxDepth: 1000), envelope: PlainEnvelope(),
            systemVersion: "x"))
        saver.delegate.shouldSave = { _ in true }
        var top = controller("root")
        try saver.addRoot(top)
        for _ in 0 ..< 600 {
            let c = controller("c")
            try top.present(c)
            top = c
        }
        #expect(try saver.preserve().objectCount == 601)
        let report = makeEngine(store).restore()
        guard case .corruptArchive(let message) = report.freshLaunchReason else {
            Issue.record("not refused: \(report)")
            return
        }
        #expect(message.contains("object record 512 is 513 levels deep; the limit is 512"))
    }
}

/// Archives of the formats before 3 spelled a stack position into the last component of a
/// record's whole path (`id#k`); they still read, as the identifier and its position (SPEC R3).
@Suite struct LegacyPathTests {
    @Test func aFormatTwoRootPathEndingInIdHashKReadsAsItsPosition() throws {
        let a = KeyedArchiver()
        a.encode(Int64(2), forKey: "amber.format")
        a.encodeObject(forKey: "app", className: "AmberAppState") { app in app.encode("2.1", forKey: "bundleVersion") }
        let state = a.objectClass("AmberState")
        let record = a.encodeDetachedObject(className: "AmberObjectRecord") { r in
            r.encode("DetailController", forKey: "class")
            r.encode("detail", forKey: "id")
            r.encode(Int64(1), forKey: "position")
            r.encode(.array([.string("nav"), .string("detail#1")]), forKey: "path")
            r.encodeObject(forKey: ArchiveKey("state"), class: state) { _ in }
        }
        try a.encode(objectUIDs: [record], forKey: "objects")
        let archive = try RestorationArchive(bytes: try a.finishEncoding())
        #expect(archive.records[0].path == ["nav", "detail"])
        #expect(archive.records[0].components == [PathComponent("nav"), PathComponent("detail", position: 1)])
    }
}
