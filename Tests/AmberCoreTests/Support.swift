import AmberArchive
@testable import AmberCore
import Testing

/// An engine on a memory store that saves and restores, its archives in the plain envelope so
/// that tests can read them (the default, encrypted, has tests of its own: EnvelopeTests).
func makeEngine(_ store: MemoryStore = MemoryStore()) -> Engine {
    let engine = Engine(configuration: EngineConfiguration(
        appID: "org.amber.tests", bundleVersion: "2.1", interfaceIdiom: "phone", store: store,
        envelope: PlainEnvelope(), systemVersion: "test-os 1"))
    engine.delegate.shouldSave = { _ in true }
    engine.delegate.shouldRestore = { _ in true }
    return engine
}

func controller(_ id: String?, _ className: String = "ViewController", stack: Bool = false) -> RestorableObject {
    RestorableObject(kind: .controller, className: className, restorationIdentifier: id, isStackContainer: stack)
}

func view(_ id: String?, _ className: String = "ScrollView") -> RestorableObject {
    RestorableObject(kind: .view, className: className, restorationIdentifier: id)
}

func plain(_ id: String?, _ className: String = "DataSource") -> RestorableObject {
    RestorableObject(kind: .object, className: className, restorationIdentifier: id)
}

/// Gives an object callbacks that save `value` under "value" and record, into `log`, the
/// value decoded back.
final class Log {
    var entries: [String] = []
    func add(_ s: String) { entries.append(s) }
}

func saving(_ object: RestorableObject, _ value: String, log: Log? = nil) {
    object.callbacks.encode = { _, coder in try coder.encode(value, forKey: "value") }
    object.callbacks.decode = { o, coder in
        let v = try coder.decodeString(forKey: "value")
        log?.add("decode \(o.restorationIdentifier ?? "?")=\(v)")
    }
    object.callbacks.finishedRestoring = { o in log?.add("finished \(o.restorationIdentifier ?? "?")") }
}

/// The paths an archive in `store` records, by restoring it with everything found implicitly
/// from fresh objects made by a delegate.
func archivedPaths(_ store: MemoryStore) -> [[String]] {
    let probe = makeEngine(MemoryStore(bytes: store.bytes))
    return probe.restore().records.map(\.path)
}

/// A scratch directory, removed (with its contents, one level deep) by `cleanup`.
struct ScratchDirectory {
    let path: String
    init(_ name: String) {
        path = "/tmp/amber-core-tests-\(name)-\(UInt32.random(in: 0 ... .max))"
    }
    func cleanup() {
        removeTree(path)
    }
}

func removeTree(_ path: String) {
    if let entries = FileSystem.directoryEntries(path) {
        for e in entries { removeTree(path + "/" + e) }
        _ = try? FileSystem.removeDirectory(path)
    } else {
        let parts = path.split(separator: "/")
        let dir = "/" + parts.dropLast().joined(separator: "/")
        try? FileSystem.removeFile(directory: dir, name: String(parts.last ?? ""))
    }
}

/// The code of an error, if it is an `AmberError`.
func code(_ error: any Error) -> AmberError.Code? { (error as? AmberError)?.code }
