import AmberArchive
@testable import AmberCore
import Testing

/// Adds the tree root → [a → [a1], b] to `engine` (controllers of classes Root, A, A1, B).
private func addTree(to engine: Engine) throws -> (RestorableObject, RestorableObject, RestorableObject, RestorableObject) {
    let root = controller("root", "Root"), a = controller("a", "A"), a1 = controller("a1", "A1"), b = controller("b", "B")
    try engine.addRoot(root)
    try root.addChild(a)
    try a.addChild(a1)
    try root.addChild(b)
    return (root, a, a1, b)
}

/// Saves root → [a → [a1], b] with each object's identifier as its state.
private func savedTree(_ configure: (RestorableObject, RestorableObject, RestorableObject, RestorableObject) -> Void = { _, _, _, _ in }) throws -> MemoryStore {
    let store = MemoryStore()
    let engine = makeEngine(store)
    let (root, a, a1, b) = try addTree(to: engine)
    for o in [root, a, a1, b] { saving(o, o.restorationIdentifier!) }
    configure(root, a, a1, b)
    try engine.preserve()
    return store
}

@Suite struct RestorationTests {
    // R9
    @Test func launchRunsRestorationBetweenTheLaunchSteps() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        let log = Log()
        engine.delegate.willFinishLaunching = { log.add("willFinish") }
        engine.delegate.didFinishLaunching = { log.add("didFinish") }
        engine.delegate.shouldRestore = { _ in log.add("shouldRestore"); return true }
        engine.delegate.didDecode = { _ in log.add("didDecode") }
        let report = engine.launch {
            log.add("defaultSetup")
            let root = controller("root", "Root")
            try? engine.addRoot(root)
        }
        #expect(log.entries == ["willFinish", "defaultSetup", "shouldRestore", "didDecode", "didFinish"])
        #expect(report.freshLaunchReason == nil)
        #expect(report[0].outcome == .restored)
    }

    // R9 R16
    @Test func freshLaunchesSayWhy() throws {
        #expect(makeEngine().restore().freshLaunchReason == .noArchive)

        let store = try savedTree()
        let engine = makeEngine(store)
        engine.delegate.shouldRestore = nil
        let report = engine.restore()
        #expect(report.freshLaunchReason == .shouldRestoreDeclined)
        #expect(report.isFresh && report.records.isEmpty)
        #expect(report.description.contains("should-restore declined"))
        #expect(store.bytes == nil)  // R14: discarded after the attempt

        let garbage = MemoryStore(bytes: Array("not an archive at all".utf8))
        let corrupt = makeEngine(garbage).restore()
        guard case .corruptArchive(let message)? = corrupt.freshLaunchReason else {
            Issue.record("expected a corrupt archive, got \(String(describing: corrupt.freshLaunchReason))")
            return
        }
        #expect(!message.isEmpty)
        #expect(garbage.bytes == nil && garbage.guardCount == 0)

        // A keyed archive, but not a restoration archive.
        let foreign = MemoryStore(bytes: try KeyedArchiver.archive(.string("hello")))
        guard case .corruptArchive? = makeEngine(foreign).restore().freshLaunchReason else {
            Issue.record("a foreign keyed archive must be refused")
            return
        }
    }

    // R10
    @Test func restorationClassComesFirstAndNoneDropsTheSubtree() throws {
        let store = try savedTree { _, a, _, b in
            a.restorationClassName = "ARestorer"
            b.restorationClassName = "BRestorer"
        }
        let engine = makeEngine(store)
        var asked: [[String]] = []
        engine.delegate.objectForPath = { path, _ in asked.append(path); return nil }
        try engine.registerRestorationClass(name: "ARestorer", make: { _, _ in nil })
        let madeB = controller(nil, "B")
        try engine.registerRestorationClass(name: "BRestorer", make: { path, coder in
            #expect(path == ["root", "b"])
            let value = try coder.decodeString(forKey: "value")
            #expect(value == "b")  // the object's own coder
            return madeB
        })
        // The host created a1 by default: still not restored, because its parent was declined.
        let root = controller("root", "Root"), a = controller("a", "A"), a1 = controller("a1", "A1")
        try engine.addRoot(root)
        try root.addChild(a)
        try a.addChild(a1)
        let report = engine.restore()
        #expect(report.map(\.outcome) == [.restored, .declinedByClass, .leftOut, .restored])
        #expect(report[1].note == "restoration class ARestorer gave none: neither it nor anything under it is restored")  // R16
        #expect(asked == [["root"]])  // the delegate was never asked for a, a1 or b
        #expect(report[3].object === madeB)
        #expect(madeB.restorationIdentifier == "b" && madeB.parent === root)  // identity adopted, placed
    }

    // R10
    @Test func lookupChainOrder() throws {
        let store = try savedTree { _, a, a1, b in
            a.blueprintIdentifier = "Main/A"
            a1.blueprintIdentifier = "Main/A1"
            b.blueprintIdentifier = "Other"
        }
        let engine = makeEngine(store)
        let fromDelegate = controller("root", "Root")
        engine.delegate.objectForPath = { path, _ in path == ["root"] ? fromDelegate : nil }
        // Implicit: the host's default tree has a root and an `a` under another root object.
        let defaultRoot = controller("root", "Root"), defaultA = controller("a", "A")
        try engine.addRoot(defaultRoot)
        try defaultRoot.addChild(defaultA)
        var factoryCalls: [String] = []
        let madeA1 = controller(nil, "A1")
        try engine.registerBlueprintFactory(name: "Main") { bp, path, _ in
            factoryCalls.append(bp + " " + path.joined(separator: "/"))
            return bp == "Main/A1" ? madeA1 : controller(nil, "A")
        }
        let report = engine.restore()
        #expect(report[0].object === fromDelegate)     // 2. the delegate before implicit lookup
        #expect(report[1].object === defaultA)         // 3. implicit before the factory
        #expect(report[2].object === madeA1)           // 4. the factory
        #expect(factoryCalls == ["Main/A1 root/a/a1"])
        #expect(report[3].outcome == .notFound)        // "Other" names no registered factory
        #expect(report[3].note?.contains("the delegate's object-for-path gave none") == true)
        #expect(report[3].note?.contains("no blueprint factory named Other") == true)
        #expect(report[3].path == ["root", "b"])
        #expect(report.map(\.outcome) == [.restored, .restored, .restored, .notFound])
        #expect(madeA1.blueprintIdentifier == "Main/A1" && madeA1.parent === defaultA)
    }

    // R10
    @Test func objectsUnderANotFoundObjectAreStillLookedUp() throws {
        let store = try savedTree { _, _, a1, _ in a1.restorationClassName = "A1Restorer" }
        let engine = makeEngine(store)
        let madeA1 = controller("a1", "A1")
        try engine.registerRestorationClass(name: "A1Restorer", make: { _, _ in madeA1 })
        let report = engine.restore()
        #expect(report.map(\.outcome) == [.notFound, .notFound, .restored, .notFound])
        #expect(report[2].object === madeA1 && madeA1.parent == nil)  // nowhere to place it
        #expect(report.description.contains("not found"))
        // R16: the report says why, step by step.
        #expect(report[0].note == "nothing provided it: the delegate has no object-for-path callback; no object had this path at launch; no blueprint recorded")
    }

    // R10
    @Test func unregisteredRestorationClassFallsThroughAndIsNoted() throws {
        let store = try savedTree { _, a, _, _ in a.restorationClassName = "Gone" }
        let engine = makeEngine(store)
        let root = controller("root", "Root"), a = controller("a", "A")
        try engine.addRoot(root)
        try root.addChild(a)
        let report = engine.restore()
        #expect(report[1].outcome == .restored && report[1].object === a)
        #expect(report[1].note == "restoration class Gone is not registered")
    }

    // R11
    @Test func classMismatchKeepsTheObjectButSkipsDecoding() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        try engine.registerClass(name: "FancyA", superclass: "A")
        let log = Log()
        let root = controller("root", "Root"), a = controller("a", "FancyA"), b = controller("b", "NotB")
        try engine.addRoot(root)
        try root.addChild(a)
        try root.addChild(b)
        for o in [root, a, b] { saving(o, "", log: log) }
        let report = engine.restore()
        #expect(report[1].outcome == .restored)       // a registered subclass of A
        #expect(report[3].outcome == .classMismatch)  // NotB is not a B
        #expect(report[3].object === b)               // kept
        #expect(!log.entries.contains { $0.contains("b=") })
        #expect(!log.entries.contains("finished b"))
        #expect(report[3].note?.contains("NotB") == true)
        #expect(engine.isClass("FancyA", kindOf: "A") && !engine.isClass("A", kindOf: "FancyA"))
    }

    // R11
    @Test func kindMismatchIsAClassMismatch() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        engine.delegate.objectForPath = { path, _ in path == ["root"] ? RestorableObject(kind: .object, className: "Root") : nil }
        #expect(engine.restore()[0].outcome == .classMismatch)
    }

    // R12 R13
    @Test func decodeRunsAfterAllObjectsExistParentsFirstThenFinishThenDidDecode() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        let log = Log()
        engine.delegate.objectForPath = { path, _ in
            log.add("make \(path.last!)")
            let className = ["root": "Root", "a": "A", "a1": "A1", "b": "B"][path.last!]!
            let o = controller(nil, className)
            saving(o, "", log: log)
            return o
        }
        engine.delegate.didDecode = { _ in log.add("didDecode") }
        let report = engine.restore()
        #expect(report.count(of: .restored) == 4)
        #expect(log.entries == [
            "make root", "make a", "make a1", "make b",
            "decode root=root", "decode a=a", "decode a1=a1", "decode b=b",
            "finished root", "finished a", "finished a1", "finished b",
            "didDecode",
        ])
        // Placed where they were.
        let root = try #require(report[0].object)
        #expect(engine.roots.contains { $0 === root })
        #expect(root.children.map(\.restorationIdentifier) == ["a", "b"])
    }

    // R12
    @Test func decodingIsTypeCheckedAndNeverTraps() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        root.callbacks.encode = { _, coder in
            try coder.encode("text", forKey: "s")
            try coder.encode(Int64(5), forKey: "i")
            try coder.encode(bytes: [1, 2], forKey: "d")
            try coder.encode(indexPath: [0, 4], forKey: "ip")
            try coder.encode(date: 12.5, forKey: "t")
            try coder.encode(true, forKey: "flag")
            try coder.encode(2.5, forKey: "x")
        }
        try engine.addRoot(root)
        try engine.preserve()

        let next = makeEngine(store)
        let root2 = controller("root")
        try next.addRoot(root2)
        var codes: [AmberError.Code?] = []
        var values: [String] = []
        root2.callbacks.decode = { _, coder in
            func failure(_ body: () throws -> Void) -> AmberError.Code? {
                do { try body(); return nil } catch { return code(error) }
            }
            codes.append(failure { _ = try coder.decodeInt64(forKey: "s") })     // string as integer
            codes.append(failure { _ = try coder.decodeString(forKey: "i") })    // integer as string
            codes.append(failure { _ = try coder.decodeString(forKey: "nope") }) // missing
            codes.append(failure { _ = try coder.decodeBool(forKey: "d") })
            values.append(try coder.decodeString(forKey: "s"))
            values.append(String(try coder.decodeInt(forKey: "i")))
            values.append("\(try coder.decodeBytes(forKey: "d"))")
            values.append("\(try coder.decodeIndexPath(forKey: "ip"))")
            values.append("\(try coder.decodeDate(forKey: "t"))")
            values.append("\(try coder.decodeBool(forKey: "flag"))")
            values.append("\(try coder.decodeDouble(forKey: "x"))")
            #expect(coder.containsValue(forKey: "s") && !coder.containsValue(forKey: "nope"))
            #expect(coder.allKeys() == ["s", "i", "d", "ip", "t", "flag", "x"])
        }
        let report = next.restore()
        #expect(report[0].outcome == .restored)
        #expect(codes == [.typeMismatch, .typeMismatch, .notFound, .typeMismatch])
        #expect(values == ["text", "5", "[1, 2]", "[0, 4]", "12.5", "true", "2.5"])
    }

    // R12 R16
    @Test func aFailingDecodeIsReportedAndOthersGoOn() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        let log = Log()
        let root = controller("root", "Root"), a = controller("a", "A"), b = controller("b", "B")
        try engine.addRoot(root)
        try root.addChild(a)
        try root.addChild(b)
        for o in [root, b] { saving(o, "", log: log) }
        a.callbacks.decode = { _, coder in _ = try coder.decodeInt64(forKey: "value") }
        a.callbacks.finishedRestoring = { _ in log.add("finished a") }
        let report = engine.restore()
        guard case .decodeError(let message) = report[1].outcome else {
            Issue.record("expected a decode error, got \(report[1].outcome)")
            return
        }
        #expect(message.contains("value"))
        #expect((report[1].error as? AmberError)?.code == .typeMismatch)
        #expect(report[3].outcome == .restored)
        #expect(!log.entries.contains("finished a") && log.entries.contains("finished b"))
        #expect(report.description.contains("decode error"))
    }

    // R12
    @Test func codersAreValidOnlyDuringTheirCallback() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        var kept: StateCoder?
        root.callbacks.encode = { _, coder in kept = coder }
        try engine.addRoot(root)
        try engine.preserve()
        #expect((try? kept?.encode(1, forKey: "late")) == nil)
        let error = #expect(throws: AmberError.self) { try kept!.encode(1, forKey: "late") }
        #expect(error?.code == .misuse)

        let next = makeEngine(store)
        let root2 = controller("root")
        try next.addRoot(root2)
        var keptDecoder: StateDecoder?
        root2.callbacks.decode = { _, coder in keptDecoder = coder }
        _ = next.restore()
        let late = #expect(throws: AmberError.self) { try keptDecoder!.decodeString(forKey: "x") }
        #expect(late?.code == .misuse)
    }

    // R12: decoders the host did not keep are reused by the engine for the next objects; one
    // it kept stays dead and stays its own object's, and the others still read their objects.
    @Test func aKeptDecoderStaysDeadWhileLaterObjectsDecode() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        let (root, a, a1, b) = try addTree(to: engine)
        let log = Log()
        for o in [root, a1, b] { saving(o, "", log: log) }
        var kept: StateDecoder?
        a.callbacks.decode = { _, coder in
            kept = coder
            log.add("decode a=\(try coder.decodeString(forKey: "value"))")
        }
        let report = engine.restore()
        #expect(report.count(of: .restored) == 4)
        #expect(log.entries.filter { $0.hasPrefix("decode") } == ["decode root=root", "decode a=a", "decode a1=a1", "decode b=b"])
        let late = #expect(throws: AmberError.self) { try kept!.decodeString(forKey: "value") }
        #expect(late?.code == .misuse)
        #expect(kept?.recordIndex == 1 && kept?.restorationPath == ["root", "a"])
    }

    // R10, R16: the delegate's object-for-path failing is a note in the report (the engine's,
    // for Swift and C hosts alike), and the lookup goes on to the existing trees.
    @Test func objectForPathFailingIsANoteAndTheLookupGoesOn() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "the model is not loaded" } }
        let store = try savedTree()
        let engine = makeEngine(store)
        engine.delegate.objectForPath = { path, _ in
            if path == ["root", "a"] { throw Refused() }
            return nil
        }
        let root = controller("root", "Root")
        try engine.addRoot(root)
        let report = engine.restore()
        #expect(report.notes.contains("the model is not loaded"), "R16 \(report.notes)")
        #expect(report.description.contains("note: the model is not loaded"))
        #expect(report.record(forPath: ["root"])?.outcome == .restored, "R10 the existing root is still found")
        #expect(report.record(forPath: ["root", "a"])?.outcome == .notFound, "R10 the lookup went on: \(report)")
    }

    // R16
    @Test func reportIsWalkableAndPrintable() throws {
        let store = try savedTree { _, a, _, _ in a.restorationClassName = "No" }
        let engine = makeEngine(store)
        try engine.registerRestorationClass(name: "No", make: { _, _ in nil })
        let root = controller("root", "Root")
        try engine.addRoot(root)
        let report = engine.restore()
        #expect(report.count == 4)
        #expect(report.indices == 0 ..< 4)
        #expect(report.record(forPath: ["root", "a", "a1"])?.outcome == .leftOut)
        let lines = report.description.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0] == "restored 1 of 4 archived objects")
        #expect(lines[2].contains("declined by class") && lines[2].contains("/root/a"))
    }

    // R10
    @Test func theSameObjectIsNotRestoredTwice() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        let only = controller(nil, "Root")
        engine.delegate.objectForPath = { _, _ in only }
        let report = engine.restore()
        #expect(report[0].outcome == .restored)
        #expect(report[1].outcome == .duplicate)
    }

    // R9
    @Test func restoreCannotBeReentered() throws {
        let store = try savedTree()
        let engine = makeEngine(store)
        var inner: RestorationReport?
        engine.delegate.shouldRestore = { _ in inner = engine.restore(); return true }
        _ = engine.restore()
        #expect(inner?.freshLaunchReason == .restorationInProgress)
        var preserveError: AmberError?
        let store2 = try savedTree()
        let engine2 = makeEngine(store2)
        engine2.delegate.didDecode = { _ in
            do { try engine2.preserve() } catch { preserveError = error as? AmberError }
        }
        _ = engine2.restore()
        #expect(preserveError?.code == .misuse)
    }
}
