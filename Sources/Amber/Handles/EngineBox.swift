// The box behind an amber_engine handle: the engine and everything the C layer keeps for it.

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// An engine opened by amber_engine_open(), with its objects, the host's contexts and plugins.
final class EngineBox {
    let engine: Engine
    /// The handle given out (the box's address).
    var handle: OpaquePointer!
    /// The objects made for this engine, each at its `slot` (nil: a slot freed, listed in
    /// `freeObjectSlots`).
    private(set) var objects: [ObjectBox?] = []
    private var freeObjectSlots: [Int] = []
    /// The object made last for this engine while it is still kept (`add`, `remove`): what a
    /// make callback usually gives back, recognised without a look-up in the handle registry.
    /// Unowned(unsafe): `objects` holds it, and `remove` and `close` clear it.
    private unowned var lastMade: ObjectBox?
    /// Contexts of restoration classes and blueprint factories, released at close.
    var classContexts: [HostContext] = []
    var delegateContext: HostContext?
    var storeContext: HostContext?
    /// The key callback's context (AMBER_PROTECTION_KEY_CALLBACK), released at close.
    var keyContext: HostContext?
    /// dlopen handles of loaded plugins, closed last at close.
    var plugins: [UnsafeMutableRawPointer] = []
    /// How many engine operations are running (close is refused from inside one).
    var busy = 0
    /// The coder box lent to callbacks and reused (`CoderBox.with`), made at first use and held
    /// here; `spareCoderRef` reaches it without a retain, and `spareCoderLent` says whether it
    /// is lent now (a nested callback then gets a box of its own).
    var spareCoder: CoderBox?
    var spareCoderRef: Unmanaged<CoderBox>?
    var spareCoderLent = false
    /// The decoder box lent to callbacks and reused (`DecoderBox.with`).
    var spareDecoder: DecoderBox?
    /// The C restoration paths of make callbacks (`withCPath`), and whether one is lent.
    private let pathArena = ScratchArena()
    private var pathArenaLent = false

    init(engine: Engine) { self.engine = engine }

    /// Keeps an object made for this engine.
    func add(_ box: ObjectBox) {
        if let slot = freeObjectSlots.popLast() {
            objects[slot] = box
            box.slot = slot
        } else {
            box.slot = objects.count
            objects.append(box)
        }
        lastMade = box
    }

    /// Forgets an object (freed by the host).
    func remove(_ box: ObjectBox) {
        let slot = box.slot
        guard slot >= 0, slot < objects.count, objects[slot] === box else { return }
        if lastMade === box { lastMade = nil }
        objects[slot] = nil
        freeObjectSlots.append(slot)
        box.slot = -1
    }

    /// Runs an operation that calls back into the host.
    func operation<T>(_ body: () throws -> T) rethrows -> T {
        busy += 1
        defer { busy -= 1 }
        return try body()
    }

    /// The object of a handle, which must be live and belong to this engine.
    func object(_ handle: OpaquePointer?, _ what: String = "the object") throws(AmberError) -> ObjectBox {
        guard let handle else { throw invalid("\(what) is NULL") }
        let box = try HandleRegistry.shared.resolve(handle, .object, as: ObjectBox.self)
        guard box.engine === self else { throw invalid("\(what) belongs to another engine") }
        return box
    }

    /// An object a host callback gave through `amber_object **out` (NULL: none).
    func given(_ handle: OpaquePointer?, by what: @autoclosure () -> String) throws -> RestorableObject? {
        guard let handle else { return nil }
        // The object made last (live: freeing it would have cleared `lastMade`), or a look-up.
        if let last = lastMade, last.handle == handle { return last.object }
        if let box = try? object(handle, "") { return box.object }
        let name = what()
        do {
            return try object(handle, "the object \(name) gave").object
        } catch {
            throw AmberError(.callbackFailed, "\(name) gave an object that is not a live object of this engine: \(error.message)")
        }
    }

    /// Class names given so far, each kept as one string (up to 1,024 of them): every object of
    /// a class then shares its class name's storage, so that comparing two objects' class names
    /// (as a preservation does for each record) finds them equal without reading their bytes.
    private var names: [String: String] = [:]
    /// The last C strings read as class names, by address: a host passes the same few
    /// constants, and comparing their bytes with the kept name costs less than reading them.
    private var recentNames = [(pointer: UnsafePointer<CChar>?, name: String)](repeating: (nil, ""), count: 16)

    /// The class name `p` holds (valid UTF-8, as `inputString` reads it), as the string kept for
    /// it if an equal one was given before.
    func className(_ p: UnsafePointer<CChar>?, _ what: String) throws(AmberError) -> String {
        guard let p else { return try inputString(p, what) }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: p) >> 3) & 15
        if recentNames[slot].pointer == p {
            let kept = recentNames[slot].name
            var name = kept
            // The host may have put a shorter text at the same address: strncmp stops at its
            // NUL (memcmp could read past it), and then `p[count]` is within the text or its NUL.
            let same = name.withUTF8 { utf8 in
                guard let base = utf8.baseAddress else { return p[0] == 0 }
                return strncmp(p, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), utf8.count) == 0
                    && p[utf8.count] == 0
            }
            if same { return kept }
        }
        let read = try inputString(p, what)
        let name: String
        if let kept = names[read] {
            name = kept
        } else {
            if names.count < 1024 { names[read] = read }
            name = read
        }
        recentNames[slot] = (p, name)
        return name
    }

    /// The C paths of restoration classes' make callbacks, each built from the previous one's.
    private let cPaths = CPathCache()

    /// Calls `body` with the restoration path of the record `decoder` decodes as a C array of C
    /// strings, built from the previous make callback's path.
    func withCPath<T>(of decoder: StateDecoder, _ body: (UnsafePointer<UnsafePointer<CChar>?>, Int) throws -> T) throws -> T {
        guard !pathArenaLent else { return try withCPath(decoder.restorationPath, body) }
        pathArenaLent = true
        defer { pathArenaLent = false }
        let (array, count) = try cPaths.path(of: decoder)
        return try body(array, count)
    }

    /// Calls `body` with the path as a C array of C strings.
    func withCPath<T>(_ path: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>, Int) throws -> T) throws -> T {
        guard !pathArenaLent else {
            let arena = ScratchArena()  // a make callback inside another's
            let array = try arena.stringArray(path)
            return try withExtendedLifetime(arena) { try body(UnsafePointer(array), path.count) }
        }
        pathArenaLent = true
        defer {
            pathArena.reset()
            pathArenaLent = false
        }
        let array = try pathArena.stringArray(path)
        return try body(UnsafePointer(array), path.count)
    }

    // MARK: Closing

    /// Takes the engine's handle out of the registry, then closes the box (`close()`): what
    /// amber_engine_close does once it is allowed.
    func closeHandle() {
        HandleRegistry.shared.unregister(handle)
        withExtendedLifetime(self) { close() }
    }

    /// The handle of a new report of `report`, which this engine made (its protection goes
    /// with it).
    func registerReport(_ report: RestorationReport) throws(AmberError) -> OpaquePointer {
        try HandleRegistry.shared.register(ReportBox(report, protection: engine.configuration.envelope.protection), .report)
    }

    /// Frees every object, releases every context (ctx_free), closes plugins. The box is dead
    /// afterwards.
    func close() {
        let boxes = objects.compactMap { $0 }
        for box in boxes {
            box.detach()
            HandleRegistry.shared.unregister(box.handle)
            box.engine = nil  // unowned: must not outlive this box
        }
        lastMade = nil
        objects = []
        freeObjectSlots = []
        for box in boxes { box.releaseContext() }
        engine.notificationCenter.removeAllObservers()  // each observer's ctx_free
        engine.delegate = EngineDelegate()
        delegateContext?.release()
        delegateContext = nil
        for c in classContexts { c.release() }
        classContexts = []
        storeContext?.release()
        storeContext = nil
        keyContext?.release()
        keyContext = nil
        for p in plugins.reversed() { dlclose(p) }
        plugins = []
    }

    // MARK: Host callbacks as engine closures

    // The closures hold the box unowned: the engine they are given to is this box's and goes
    // with it, so none runs after the box is gone.

    /// The engine's make closure of a restoration class.
    func restorationMake(_ cls: amber_restoration_class, _ ctx: HostContext, name: String)
        -> (([String], StateDecoder) throws -> RestorableObject?)?
    {
        guard let make = cls.make else { return nil }
        return { [unowned self] _, decoder in
            do {
                let box = self
                var out: OpaquePointer?
                try box.withCPath(of: decoder) { p, n in
                    try DecoderBox.with(.state(decoder), engine: box) { d in
                        try callHost("the make callback of restoration class \(name)") { make(&out, box.handle, p, n, d, ctx.ctx) }
                    }
                }
                return try box.given(out, by: "restoration class \(name)")
            }
        }
    }

    /// The engine's make closure of a blueprint factory.
    func factoryMake(_ factory: amber_blueprint_factory, _ ctx: HostContext, name: String)
        -> (String, [String], StateDecoder) throws -> RestorableObject?
    {
        let make = factory.make
        return { [unowned self] blueprint, path, decoder in
            guard let make else { return nil }
            var out: OpaquePointer?
            try self.withCPath(path) { p, n in
                try DecoderBox.with(.state(decoder), engine: self) { d in
                    try callHost("the make callback of blueprint factory \(name)") {
                        blueprint.withCString { b in make(&out, self.handle, b, p, n, d, ctx.ctx) }
                    }
                }
            }
            return try self.given(out, by: "blueprint factory \(name)")
        }
    }

    /// The engine's migrate closure of a class's state version (SPEC R30): true when the host
    /// migrated the state, false when it declined.
    func migrate(_ f: amber_migrate_fn, _ ctx: HostContext, className: String) -> StateVersion.Migrate {
        return { [unowned self] new, old, from, to in
            var answer = AMBER_MIGRATION_DONE
            try CoderBox.with(.migration(new), engine: self) { c in
                try DecoderBox.with(.state(old), engine: self) { d in
                    try callHost("the migrate callback of class \(className)") {
                        f(&answer, c, d, CUnsignedInt(truncatingIfNeeded: from), CUnsignedInt(truncatingIfNeeded: to), ctx.ctx)
                    }
                }
            }
            switch answer {
            case AMBER_MIGRATION_DONE: return true
            case AMBER_MIGRATION_DECLINED: return false
            default:
                throw AmberError(.callbackFailed, "the migrate callback of class \(className) set *out to \(answer.rawValue), which is neither AMBER_MIGRATION_DONE nor AMBER_MIGRATION_DECLINED")
            }
        }
    }

    /// The engine's delegate over the host's.
    func delegate(_ d: amber_delegate, _ ctx: HostContext) -> EngineDelegate {
        var e = EngineDelegate()
        let c = ctx.ctx
        if let f = d.should_save {
            e.shouldSave = { [unowned self] coder in
                return (try? CoderBox.with(.app(coder), engine: self) { h in f(self.handle, h, c) != 0 }) ?? false
            }
        }
        if let f = d.will_encode {
            e.willEncode = { [unowned self] coder in
                try CoderBox.with(.app(coder), engine: self) { h in
                    try callHost("the delegate's will_encode callback") { f(self.handle, h, c) }
                }
            }
        }
        if let f = d.should_restore {
            e.shouldRestore = { [unowned self] decoder in
                return (try? DecoderBox.with(.app(decoder), engine: self) { h in f(self.handle, h, c) != 0 }) ?? false
            }
        }
        if let f = d.did_decode {
            e.didDecode = { [unowned self] decoder in
                try DecoderBox.with(.app(decoder), engine: self) { h in
                    try callHost("the delegate's did_decode callback") { f(self.handle, h, c) }
                }
            }
        }
        if let f = d.object_for_path {
            e.objectForPath = { [unowned self] path, decoder in
                var out: OpaquePointer?
                try self.withCPath(path) { p, n in
                    try DecoderBox.with(.state(decoder), engine: self) { h in
                        try callHost("the delegate's object_for_path callback for /\(path.joined(separator: "/"))") {
                            f(&out, self.handle, p, n, h, c)
                        }
                    }
                }
                return try self.given(out, by: "the delegate's object_for_path")
            }
        }
        if let f = d.will_finish_launching {
            e.willFinishLaunching = { [unowned self] in f(self.handle, c) }
        }
        if let f = d.did_finish_launching {
            e.didFinishLaunching = { [unowned self] in f(self.handle, c) }
        }
        return e
    }
}
