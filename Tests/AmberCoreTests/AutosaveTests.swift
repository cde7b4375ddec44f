import AmberArchive
@testable import AmberCore
import Testing

/// A clock a test moves by hand, so that autosave is tested without sleeping.
final class ManualClock: @unchecked Sendable {
    var now: Int64 = 1_000
    var clock: MonotonicClock { MonotonicClock { self.now } }
}

/// An archive as a property list with every date set to zero: two archives of the same state
/// made at different times are then equal.
func undated(_ store: MemoryStore) throws -> PropertyList {
    func strip(_ p: PropertyList) -> PropertyList {
        switch p {
        case .date: return .date(0)
        case .array(let items): return .array(items.map(strip))
        case .dictionary(let pairs):
            return .dictionary(pairs.map { pair in
                if case .string("NS.time") = pair.key { return PropertyListPair(pair.key, .double(0)) }
                return PropertyListPair(pair.key, strip(pair.value))
            })
        default: return p
        }
    }
    return strip(try BinaryPropertyList.decode(try #require(store.bytes)))
}

@Suite struct AutosaveTests {
    /// An engine with one root and a child whose state is `value`, on a manual clock.
    func setUp(_ policy: AutosavePolicy?) throws -> (Engine, MemoryStore, ManualClock, RestorableObject) {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let clock = ManualClock()
        engine.clock = clock.clock
        try engine.setAutosave(policy)
        let root = controller("root")
        let child = controller("child")
        try root.addChild(child)
        saving(child, "v1")
        try engine.addRoot(root)
        return (engine, store, clock, child)
    }

    // R32
    @Test func testR32AutosaveFiresAfterAChangeAndNotWithoutOne() throws {
        let (engine, store, clock, child) = try setUp(AutosavePolicy(quietMilliseconds: 100, minimumIntervalMilliseconds: 1_000))
        // No change: nothing to wait for, and a tick saves nothing, however late.
        #expect(engine.autosaveTimeout() == nil)
        clock.now += 10_000
        #expect(try engine.tick() == false)
        #expect(store.writeCount == 0)

        engine.markDirty(child)
        #expect(engine.autosaveTimeout() == 100)
        clock.now += 60
        #expect(engine.autosaveTimeout() == 40)
        #expect(try engine.tick() == false)
        #expect(store.writeCount == 0)
        clock.now += 40
        #expect(engine.autosaveTimeout() == 0)
        #expect(try engine.tick() == true)
        #expect(store.writeCount == 1)
        // Saved: nothing more until the next change.
        #expect(engine.autosaveTimeout() == nil)
        clock.now += 5_000
        #expect(try engine.tick() == false)
        #expect(store.writeCount == 1)
    }

    // R32: a burst of changes makes one save, after the burst; a save waits for the minimum
    // interval since the last one.
    @Test func testR32QuietTimeAndMinimumInterval() throws {
        let (engine, store, clock, child) = try setUp(AutosavePolicy(quietMilliseconds: 100, minimumIntervalMilliseconds: 1_000))
        for _ in 0 ..< 5 {
            engine.markDirty(child)
            clock.now += 50
            #expect(try engine.tick() == false)
        }
        #expect(engine.autosaveTimeout() == 50)
        clock.now += 50
        #expect(try engine.tick() == true)
        let saved = clock.now
        engine.markDirty(child)
        clock.now += 100
        // Quiet long enough, but the last save was only 100 ms ago.
        #expect(engine.autosaveTimeout() == 900)
        #expect(try engine.tick() == false)
        clock.now = saved + 1_000
        #expect(try engine.tick() == true)
        #expect(store.writeCount == 2)
    }

    // R32 R23: the move to the background saves, and the changes are then saved.
    @Test func testR32BackgroundSaveClearsTheChanges() throws {
        let (engine, store, _, child) = try setUp(AutosavePolicy(quietMilliseconds: 100, minimumIntervalMilliseconds: 0))
        _ = engine.launch()
        try engine.transition(to: .active)
        engine.markDirty(child)
        #expect(engine.autosaveTimeout() != nil)
        try engine.transition(to: .inactive)
        try engine.transition(to: .background)
        #expect(store.writeCount == 1)
        #expect(engine.autosaveTimeout() == nil)
    }

    // R32: without a policy, marking dirty never makes a save due.
    @Test func testR32NoPolicyNoAutosave() throws {
        let (engine, store, clock, child) = try setUp(nil)
        engine.markDirty(child)
        #expect(engine.autosaveTimeout() == nil)
        clock.now += 100_000
        #expect(try engine.tick() == false)
        #expect(store.writeCount == 0)
        #expect(throws: AmberError.self) { try engine.setAutosave(AutosavePolicy(quietMilliseconds: -1)) }
    }

    // R32: a save that fails leaves the changes unsaved; autosave tries again after the quiet time.
    @Test func testR32FailedSaveIsTriedAgain() throws {
        let (engine, store, clock, child) = try setUp(AutosavePolicy(quietMilliseconds: 100, minimumIntervalMilliseconds: 0))
        engine.delegate.willEncode = { _ in throw AmberError(.io, "disk full") }
        engine.markDirty(child)
        clock.now += 100
        #expect(throws: AmberError.self) { try engine.tick() }
        #expect(engine.autosaveTimeout() == 100)
        engine.delegate.willEncode = nil
        clock.now += 100
        #expect(try engine.tick() == true)
        #expect(store.writeCount == 1)
    }

    /// A tree of `count` objects under one root, each saving several kinds of value from
    /// `values`, and counting its encode calls; the object at index 3 references the one at 7.
    final class Tree {
        var values: [Int64]
        var encodes = 0
        let root = controller("root")
        var objects: [RestorableObject] = []

        init(count: Int) throws {
            values = (0 ..< count).map { Int64($0) }
            for i in 0 ..< count {
                let o = controller("o\(i)")
                try root.addChild(o)
                objects.append(o)
            }
            for (i, o) in objects.enumerated() { install(o, i) }
        }

        func install(_ o: RestorableObject, _ i: Int) {
            o.callbacks.encode = { [unowned self] _, coder in
                encodes += 1
                let v = values[i]
                try coder.encode(v, forKey: "n")
                try coder.encode("text \(v)", forKey: "s")
                try coder.encode(bytes: [UInt8(truncatingIfNeeded: v), 1, 2], forKey: "b")
                try coder.encode(Double(v) / 2, forKey: "d")
                try coder.encode(indexPath: [Int(v), 1], forKey: "ip")
                try coder.encode(.array([.int(v), .string("x")]), forKey: "a")
                if i == 3 { try coder.encodeReference(to: objects[7], forKey: "ref") }
            }
        }
    }

    /// The archive a full save (nothing reused) of `tree` makes, undated.
    func fullSave(_ tree: Tree) throws -> PropertyList {
        let store = MemoryStore()
        let engine = makeEngine(store)
        try engine.addRoot(tree.root)
        try engine.preserve()
        try engine.removeRoot(tree.root)
        return try undated(store)
    }

    // R32: a save that reuses the clean objects' states calls only the dirty objects' encode
    // callbacks (and those whose state cannot be reused: a reference), and writes the same
    // archive as a full save.
    @Test func testR32IncrementalSaveMatchesAFullSave() throws {
        let tree = try Tree(count: 40)
        let store = MemoryStore()
        let engine = makeEngine(store)
        try engine.setAutosave(AutosavePolicy())
        try engine.addRoot(tree.root)
        try engine.preserve()
        #expect(tree.encodes == 40)

        tree.values[5] = 500
        tree.values[20] = 2000
        engine.markDirty(tree.objects[5])
        engine.markDirty(tree.objects[20])
        tree.encodes = 0
        try engine.preserve()
        // The two dirty ones and the one with a reference.
        #expect(tree.encodes == 3)
        let incremental = try undated(store)
        try engine.removeRoot(tree.root)
        #expect(incremental == (try fullSave(tree)))

        // A clean object whose change was not marked keeps its old state: reuse trusts the marks.
        try engine.addRoot(tree.root)
        tree.values[9] = 900
        try engine.preserve()
        let probe = makeEngine(MemoryStore(bytes: store.bytes))
        var restored: [String: Int64] = [:]
        let fresh = controller("root")
        for i in [5, 9, 20] {
            let o = controller("o\(i)")
            o.callbacks.decode = { o, coder in restored[o.restorationIdentifier!] = try coder.decodeInt64(forKey: "n") }
            try fresh.addChild(o)
        }
        try probe.addRoot(fresh)
        _ = probe.restore()
        #expect(restored == ["o5": 500, "o9": 9, "o20": 2000])
    }

    // R32: structural changes (an object added, removed, moved, renamed) re-encode what they
    // touch; the archive is still the full save's.
    @Test func testR32StructuralChangesMatchAFullSave() throws {
        let tree = try Tree(count: 12)
        let store = MemoryStore()
        let engine = makeEngine(store)
        try engine.setAutosave(AutosavePolicy())
        try engine.addRoot(tree.root)
        try engine.preserve()

        // Removed, moved under another, renamed, and a new one.
        try tree.root.removeChild(tree.objects[2])
        try tree.objects[0].addChild(tree.objects[4])
        tree.objects[6].restorationIdentifier = "renamed"
        let added = controller("added")
        tree.values.append(77)
        tree.objects.append(added)
        tree.install(added, 12)
        try tree.objects[8].addChild(added)
        tree.encodes = 0
        try engine.preserve()
        // Only the new object (never encoded) and the one with a reference.
        #expect(tree.encodes == 2)
        let incremental = try undated(store)
        try engine.removeRoot(tree.root)
        #expect(incremental == (try fullSave(tree)))
    }

    // R32: turning reuse off forgets what was kept: a later reuse calls every callback again.
    @Test func testR32TurningReuseOffForgetsKeptStates() throws {
        let tree = try Tree(count: 10)
        let engine = makeEngine()
        try engine.setAutosave(AutosavePolicy())
        try engine.addRoot(tree.root)
        try engine.preserve()
        try engine.setAutosave(nil)
        tree.values[1] = 10
        tree.encodes = 0
        try engine.preserve()
        #expect(tree.encodes == 10)
        try engine.setAutosave(AutosavePolicy())
        tree.encodes = 0
        try engine.preserve()
        #expect(tree.encodes == 10)
    }

    // R32 R14: with keepsArchiveAfterRestore, a restore keeps the archive until the next save;
    // the restoration completed, so no launch count is left (issue 39, item 2; launches that
    // die while restoring: LaunchGuardTests).
    @Test func testR32KeepArchiveAfterRestore() throws {
        var configuration = makeEngine().configuration
        configuration.keepsArchiveAfterRestore = true
        func engine(_ store: MemoryStore) throws -> (Engine, RestorableObject) {
            var c = configuration
            c.store = store
            let e = Engine(configuration: c)
            e.delegate.shouldSave = { _ in true }
            e.delegate.shouldRestore = { _ in true }
            let root = controller("root")
            saving(root, "kept")
            try e.addRoot(root)
            return (e, root)
        }
        let store = MemoryStore()
        try engine(store).0.preserve()
        let first = try engine(store).0.launch()
        #expect(first.records.first?.outcome == .restored)
        #expect(store.bytes != nil && store.guardCount == 0)
        let (running, _) = try engine(store)
        #expect(running.launch().records.first?.outcome == .restored)
        #expect(store.guardCount == 0)
        try running.preserve()
        #expect(store.bytes != nil && store.guardCount == 0)

        // An extended restoration (R15) keeps it too once the extensions complete.
        let extended = MemoryStore()
        try engine(extended).0.preserve()
        let (waiting, waitingRoot) = try engine(extended)
        var token: RestorationToken?
        waitingRoot.callbacks.decode = { _, _ in token = try waiting.extendRestoration() }
        _ = waiting.launch()
        #expect(extended.guardCount == LaunchGuard.extended)
        try waiting.completeRestoration(try #require(token))
        #expect(extended.bytes != nil && extended.guardCount == 0)
        try waiting.preserve()
        #expect(extended.guardCount == 0)

        // The default is UIKit's: discarded once restored.
        let plain = MemoryStore()
        let e = makeEngine(plain)
        let root = controller("root")
        saving(root, "gone")
        try e.addRoot(root)
        try e.preserve()
        _ = makeEngine(plain).launch()
        #expect(plain.bytes == nil)
    }
}

@Suite struct StateRecordingTests {
    // R32: values are kept; a reference or a coding-class object makes the state not reusable.
    @Test func testR32RecorderKeepsValuesAndGivesUpOnReferences() {
        let recorder = StateRecorder()
        recorder.add("a", .int(1))
        recorder.add("b", .string("x"))
        #expect(recorder.recording(epoch: 7)?.entries.map(\.key) == ["a", "b"])
        #expect(recorder.recording(epoch: 7)?.epoch == 7)
        recorder.giveUp()
        recorder.add("c", .int(2))
        #expect(recorder.recording(epoch: 7) == nil)
        recorder.reset()
        recorder.add("d", .bool(true))
        #expect(recorder.recording(epoch: 1)?.entries.count == 1)
    }
}

@Suite struct AutosaveRestoreTests {
    // R32: an object restored in a running engine is encoded again at the next save: its state
    // now comes from the archive, not from what it wrote before.
    @Test func testR32RestoredObjectIsEncodedAgain() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        try engine.setAutosave(AutosavePolicy())
        let root = controller("root")
        var value: Int64 = 1
        var encodes = 0
        root.callbacks.encode = { _, coder in
            encodes += 1
            try coder.encode(value, forKey: "n")
        }
        root.callbacks.decode = { _, coder in value = try coder.decodeInt64(forKey: "n") }
        try engine.addRoot(root)
        try engine.preserve()
        let saved = store.bytes
        value = 2
        engine.markDirty(root)
        try engine.preserve()
        // Back to the first archive, restored into the running engine: value is 1 again.
        store.bytes = saved
        _ = engine.restore()
        #expect(value == 1)
        encodes = 0
        try engine.preserve()
        #expect(encodes == 1)
    }
}
