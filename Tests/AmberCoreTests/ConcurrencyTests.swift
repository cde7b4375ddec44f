import AmberArchive
@testable import AmberCore
import Testing

/// A host data object of the shared coding class below.
private final class Note {
    var text: String
    init(text: String) { self.text = text }
}

/// One registry shared by every engine of the test, complete before the threads start
/// (ArchiveClassRegistry may be shared once it is no longer changed).
private let sharedRegistry: ArchiveClassRegistry = {
    let registry = ArchiveClassRegistry()
    try! registry.register(ArchiveClass(
        name: "Note",
        encode: { object, coder in coder.encode((object as! Note).text, forKey: "text") },
        make: { coder in Note(text: try coder.decodeString(forKey: "text")) }
    ), for: Note.self)
    return registry
}()

/// Saves and restores `rounds` times through engines of its own: a file store in its own
/// directory with the default key file there (created by the first save), and a memory store
/// with an ephemeral key. Returns how many rounds restored what they saved.
private func saveAndRestore(worker: Int, directory: String, rounds: Int) throws -> Int {
    let store = FileStore(directory: directory + "/worker\(worker)")
    let keys = KeyFileProvider(directory: store.directory)
    let memory = MemoryStore()
    let ephemeral = EphemeralKeyProvider()
    var good = 0
    for round in 0 ..< rounds {
        for (archiveStore, provider) in [(store, keys), (memory, ephemeral)] as [(any ArchiveStore, any KeyProvider)] {
            func engine() -> Engine {
                let e = Engine(
                    configuration: EngineConfiguration(
                        appID: "org.amber.threads", bundleVersion: "1", store: archiveStore,
                        envelope: SealedEnvelope(keyProvider: provider, bundleVersion: "1"), systemVersion: "test"),
                    codingClasses: sharedRegistry)
                e.delegate.shouldSave = { _ in true }
                e.delegate.shouldRestore = { _ in true }
                return e
            }
            let text = "worker \(worker) round \(round)"
            let saver = engine()
            let root = controller("Root")
            root.callbacks.encode = { _, coder in
                try coder.encode(text, forKey: "title")
                try coder.encodeObject(Note(text: text), forKey: "note")
            }
            try saver.addRoot(root)
            try root.addView(view("Scroll"))
            _ = try saver.preserve()

            let restorer = engine()
            let again = controller("Root")
            var seen: [String] = []
            again.callbacks.decode = { _, coder in
                seen.append(try coder.decodeString(forKey: "title"))
                let note = try coder.decodeObject(forKey: "note", ofClasses: ["Note"]) as? Note
                seen.append(note?.text ?? "no note")
            }
            try restorer.addRoot(again)
            let report = restorer.restore()
            if report.freshLaunchReason == nil, report.count(of: .restored) == 1, seen == [text, text],
               try archiveStore.read() == nil
            {
                good += 1
            }
        }
    }
    return good
}

@Suite struct ConcurrencyTests {
    // Header "Thread safety": separate engines may be used from separate threads at once.
    // Run under ThreadSanitizer by scripts/test.sh (swift test --sanitize=thread).
    @Test func separateEnginesOnSeparateThreadsAtOnce() async throws {
        let scratch = ScratchDirectory("threads")
        defer { scratch.cleanup() }
        let workers = 6, rounds = 8
        let path = scratch.path
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0 ..< workers {
                group.addTask { try saveAndRestore(worker: worker, directory: path, rounds: rounds) }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == workers * rounds * 2)
    }

    // Header "Thread safety": an engine may be used by one thread at a time, so it may move
    // from thread to thread between calls (here: a save on one task, the restore on another).
    @Test func anEngineHandedFromThreadToThread() async throws {
        let store = MemoryStore()
        let box = EngineBox(makeEngine(store))
        let root = controller("Root")
        saving(root, "handed over")
        try box.engine.addRoot(root)
        let saved = try await Task.detached { try box.engine.preserve().objectCount }.value
        let log = Log()
        let again = controller("Root")
        saving(again, "", log: log)
        let restorer = EngineBox(makeEngine(store))
        try restorer.engine.addRoot(again)
        let restored = await Task.detached { restorer.engine.restore().count(of: .restored) }.value
        #expect(saved == 1 && restored == 1)
        #expect(log.entries.contains("decode Root=handed over"))
    }
}

/// Hands an engine to another task; the test never uses it from two at once.
private final class EngineBox: @unchecked Sendable {
    let engine: Engine
    init(_ engine: Engine) { self.engine = engine }
}
