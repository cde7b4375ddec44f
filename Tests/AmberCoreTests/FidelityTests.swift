import AmberArchive
@testable import AmberCore
import Synchronization
import Testing

/// Where Amber follows UIKit exactly, and where it is never silent: manual references, the
/// delegate's questions, identifiers never rewritten, declined subtrees, the preservation report
/// and the log (SPEC R3, R4, R10, R28, R29).
@Suite struct FidelityTests {
    /// The seeds' case: a navigation controller without an identifier, whose three identified
    /// children the application delegate saves by reference and pushes back at restore.
    private func excludedNavigation(_ engine: Engine) throws -> (nav: RestorableObject, children: [RestorableObject]) {
        let window = controller("window")
        let nav = controller(nil, "UINavigationController", stack: true)
        try engine.addRoot(window)
        try window.addChild(nav)
        var children: [RestorableObject] = []
        for (i, id) in ["list", "detail", "edit"].enumerated() {
            let c = controller(id)
            saving(c, "page \(i)")
            try nav.addChild(c)
            children.append(c)
        }
        return (nav, children)
    }

    // R4: references from the application coder preserve objects the walk left out; their
    // paths skip the ancestor without an identifier; did-decode reads them back.
    @Test func theDelegateSavesTheChildrenOfAnExcludedContainer() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let (_, children) = try excludedNavigation(engine)
        engine.delegate.willEncode = { coder in
            for (i, c) in children.enumerated() { try coder.encodeReference(to: c, forKey: "stack\(i)") }
        }
        let report = try engine.preserve()
        #expect(report.preservedCount == 4)
        #expect(archivedPaths(store) == [["window"], ["window", "list"], ["window", "detail"], ["window", "edit"]])

        // The next launch: a fresh navigation controller; a restoration class makes the
        // children; did-decode pushes them back in order.
        let next = makeEngine(store)
        let log = Log()
        let window2 = controller("window")
        let nav2 = controller(nil, "UINavigationController", stack: true)
        try next.addRoot(window2)
        try window2.addChild(nav2)
        next.delegate.objectForPath = { path, coder in
            guard path.count == 2 else { return nil }  // the window is found where it is
            let c = controller(path.last, coder.recordClassName)
            saving(c, "", log: log)
            return c
        }
        var pushed: [String] = []
        next.delegate.didDecode = { app in
            for i in 0 ..< 3 {
                guard let c = try app.decodeReference(forKey: "stack\(i)") else { continue }
                try nav2.addChild(c)
                pushed.append(c.restorationIdentifier ?? "?")
            }
        }
        let restored = next.restore()
        #expect(restored.count(of: .restored) == 4, "\(restored)")
        #expect(pushed == ["list", "detail", "edit"])
        #expect(log.entries.filter { $0.hasPrefix("decode") } == ["decode list=page 0", "decode detail=page 1", "decode edit=page 2"])
        #expect(nav2.children.map(\.restorationIdentifier) == ["list", "detail", "edit"])
    }

    // R10 step 2: the delegate is asked for controllers only; a view is found among its
    // restored controller's views. Every lookup callback reads the record's kind, class and
    // blueprint.
    @Test func theDelegateIsAskedForControllersOnly() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root", "RootController")
        let detail = controller("detail", "DetailController")
        detail.blueprintIdentifier = "Main/Detail"
        let scroll = view("scroll", "UIScrollView")
        try engine.addRoot(root)
        try root.addChild(detail)
        try detail.addView(scroll)
        for (o, v) in [(root, "r"), (detail, "d"), (scroll, "s")] { saving(o, v) }
        try engine.preserve()

        let next = makeEngine(store)
        let log = Log()
        var asked: [([String], ObjectKind, String, String?)] = []
        next.delegate.objectForPath = { path, coder in
            asked.append((path, coder.recordKind, coder.recordClassName, coder.recordBlueprint))
            // Written as in the seeds: a controller for any path it is given.
            let c = controller(path.last, coder.recordClassName)
            saving(c, "", log: log)
            if path.last == "detail" {
                let v = view("scroll", "UIScrollView")
                saving(v, "", log: log)
                try? c.addView(v)
            }
            return c
        }
        let report = next.restore()
        #expect(asked.map(\.0) == [["root"], ["root", "detail"]])
        #expect(asked.map(\.1) == [.controller, .controller])
        #expect(asked.map(\.2) == ["RootController", "DetailController"])
        #expect(asked.map(\.3) == [nil, "Main/Detail"])
        #expect(report.map(\.outcome) == [.restored, .restored, .restored], "\(report)")
        #expect(log.entries.contains("decode scroll=s"))
    }

    // R3: identifiers are never rewritten. `A`, `A` and `A#1` in one stack are three objects;
    // a restoration class that takes the last path component as the identifier (as the seeds
    // advise) restores each with its own identifier, and reads the position from the coder.
    @Test func sameIdentifiersAndLookalikesInAStackAllRestore() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let nav = controller("nav", stack: true)
        try engine.addRoot(nav)
        for (id, value) in [("A", "first A"), ("A", "second A"), ("A#1", "the real A#1")] {
            let c = controller(id)
            c.restorationClassName = "Pages"
            saving(c, value)
            try nav.addChild(c)
        }
        let saved = try engine.preserve()
        #expect(saved.preservedCount == 4 && saved.leftOut.isEmpty)

        let next = makeEngine(store)
        let log = Log()
        let nav2 = controller("nav", stack: true)
        try next.addRoot(nav2)
        var positions: [Int] = []
        try next.registerRestorationClass(name: "Pages") { path, coder in
            positions.append(coder.recordPosition)
            let c = controller(path.last)
            saving(c, "", log: log)
            return c
        }
        let report = next.restore()
        #expect(report.count(of: .restored) == 4)
        #expect(positions == [0, 1, 0])
        #expect(nav2.children.map(\.restorationIdentifier) == ["A", "A", "A#1"])
        #expect(log.entries.filter { $0.hasPrefix("decode") } == ["decode A=first A", "decode A=second A", "decode A#1=the real A#1"])
        #expect(report.map(\.position) == [0, 0, 1, 0])
    }

    // R3: a duplicate names the object kept and the one dropped.
    @Test func aDuplicateNamesTheObjectKept() throws {
        let engine = makeEngine()
        let root = controller("root")
        try engine.addRoot(root)
        try root.addChild(controller("same", "FirstController"))
        try root.addChild(controller("same", "SecondController"))
        let report = try engine.preserve()
        let dropped = try #require(report.leftOut.first)
        #expect(dropped.className == "SecondController")
        #expect(dropped.leftOut == .duplicatePath(kept: "/root/same (FirstController)"))
    }

    // R10: nothing under a declined object is looked up, also an object recorded by reference
    // whose parent was a duplicate: it is under its nearest recorded ancestor.
    @Test func nothingUnderADeclinedObjectIsLookedUp() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        root.restorationClassName = "Declining"
        let kept = controller("tab"), twin = controller("tab")
        let hidden = controller("hidden")
        try engine.addRoot(root)
        try root.addChild(kept)
        try root.addChild(twin)
        try twin.addChild(hidden)
        hidden.restorationClassName = "Hidden"
        kept.callbacks.encode = { _, coder in try coder.encodeReference(to: hidden, forKey: "hidden") }
        let saved = try engine.preserve()
        #expect(saved.duplicates == [["root", "tab"]])
        #expect(archivedPaths(store).last == ["root", "tab", "hidden"])

        let next = makeEngine(store)
        var lookedUp: [String] = []
        try next.registerRestorationClass(name: "Declining") { path, _ in
            lookedUp.append(path.joined(separator: "/"))
            return nil
        }
        try next.registerRestorationClass(name: "Hidden") { path, _ in
            lookedUp.append(path.joined(separator: "/"))
            return controller("hidden")
        }
        next.delegate.objectForPath = { path, _ in
            lookedUp.append(path.joined(separator: "/"))
            return controller(path.last)
        }
        let report = next.restore()
        #expect(lookedUp == ["root"])
        #expect(report.map(\.outcome) == [.declinedByClass, .leftOut, .leftOut])
    }

    // R28: identified screens under a container without an identifier: preserve returns a
    // report naming each and why; nothing about it is silent.
    @Test func thePreservationReportNamesWhatWasLeftOut() throws {
        let engine = makeEngine()
        let (nav, _) = try excludedNavigation(engine)
        let plainObject = plain("source")
        try plainObject.setRestorationParent(nav)
        let report = try engine.preserve()
        #expect(report.saved && report.preservedCount == 1)
        let out = report.leftOut
        #expect(out.map(\.pathDescription) == ["/window/(UINavigationController)", "/window/list", "/window/detail", "/window/edit", "/window/source"])
        #expect(out[0].leftOut == .noIdentifier)
        for e in out[1...] { #expect(e.leftOut == .ancestorWithoutIdentifier("/window/(UINavigationController)")) }
        #expect(report.description.contains("left out /window/list (ViewController): an ancestor has no restoration identifier (/window/(UINavigationController))"))

        engine.delegate.shouldSave = { _ in false }
        #expect(try engine.preserve().notSaved == .shouldSaveDeclined)
        engine.delegate.shouldSave = nil
        let none = try engine.preserve()
        #expect(none.notSaved == .noShouldSave)
        #expect(none.description == "nothing saved: the delegate has no should-save callback")
        #expect(engine.lastPreservation?.notSaved == .noShouldSave)
    }

    // R28: the report gives each preserved object's size; a bigger state is bigger.
    @Test func thePreservationReportGivesSizes() throws {
        let engine = makeEngine()
        let root = controller("root"), small = controller("small"), big = controller("big")
        try engine.addRoot(root)
        try root.addChild(small)
        try root.addChild(big)
        small.callbacks.encode = { _, coder in try coder.encode("x", forKey: "value") }
        big.callbacks.encode = { _, coder in try coder.encode(bytes: [UInt8](repeating: 7, count: 10_000), forKey: "value") }
        let report = try engine.preserve()
        let sizes = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.path.last!.identifier, $0.byteCount) })
        #expect(sizes["small"]! > 0 && sizes["big"]! > 10_000 && sizes["big"]! < 10_200)
        #expect(report.byteCount > 10_000)
    }

    // R29: the log takes every decision at debug level, from the engine's sink, and never a
    // state value or a key.
    @Test func theLogTellsEveryDecisionAndNoSecret() throws {
        let lines = Mutex<[String]>([])
        let store = MemoryStore()
        let engine = makeEngine(store)
        engine.logSink = LogSink(level: .debug) { level, line in lines.withLock { $0.append("\(level): \(line)") } }
        let (_, children) = try excludedNavigation(engine)
        children[0].callbacks.encode = { _, coder in
            try coder.encode("hunter2-secret-value", forKey: "password-key-name")
        }
        let window = engine.roots[0]
        window.callbacks.encode = { _, coder in try coder.encode(Int64(424_242_4242), forKey: "distinctive") }
        try engine.preserve()
        let next = makeEngine(store)
        next.logSink = engine.logSink
        try next.addRoot(controller("window"))
        _ = next.restore()

        let all = lines.withLock { $0 }
        #expect(all.contains { $0.hasPrefix("info: preserve: saved 1 objects") })
        #expect(all.contains("debug: preserve: left out /window/list (ViewController, controller): an ancestor has no restoration identifier (/window/(UINavigationController))"))
        #expect(all.contains { $0.hasPrefix("debug: preserve: preserved /window (ViewController, controller): ") })
        #expect(all.contains { $0.hasPrefix("info: restore: restored 1 of 1 archived objects") })
        #expect(all.contains { $0.hasPrefix("debug: restore: /window (ViewController, controller): restored — found in the existing trees") })
        for secret in ["hunter2", "password-key-name", "4242424242", "distinctive", "page 0"] {
            #expect(!all.contains { $0.contains(secret) }, "\(secret) logged")
        }
        // A sink's level filters; the process-wide sink takes the lines of engines without one.
        let quiet = Mutex<Int>(0)
        engine.logSink = LogSink(level: .warn) { _, _ in quiet.withLock { $0 += 1 } }
        try engine.preserve()
        #expect(quiet.withLock { $0 } == 0)
    }
}
