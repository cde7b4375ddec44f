// The box behind an amber_object handle.

import AmberCore
import CAmber

/// A restorable object made by amber_object_new(), owned by its engine: the core's object with
/// what the C layer keeps of it, in one allocation (a subclass), so that an object the engine
/// hands back (a restored object, a reference) is its own box, and a preservation, which meets
/// every object once, cold, reads one block of memory per object rather than two (an object
/// and a box apart). The host's callbacks are kept here and reached through trampolines that
/// capture nothing, so that making an object allocates no closure.
///
/// Owned by its engine (`EngineBox.objects`) until it is freed or the engine closes.
final class ObjectBox: RestorableObject {
    // What the encode and decode trampolines read come first, next to the core's fields.

    /// The handle given out.
    var handle: OpaquePointer!
    /// The host's context pointer and its ctx_free (called once, by `releaseContext`).
    let ctx: UnsafeMutableRawPointer?
    /// The engine the object was made for; nil once it is closed (`EngineBox.close` clears it,
    /// so it never names a box that is gone). Unretained rather than weak, so that the engine's
    /// box has no side table to slow every retain and release of it.
    var engine: EngineBox? {
        get { engineRef?.takeUnretainedValue() }
        set { engineRef = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// The engine, as `engine`, for the trampolines: passed on without a retain and release
    /// (plain reads and writes).
    private(set) var engineRef: Unmanaged<EngineBox>?
    /// The host's callbacks (`install`).
    private(set) var callbacksC = amber_object_callbacks()
    private var ctxFree: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    /// Where the engine keeps the box (`EngineBox.objects`).
    var slot = -1
    /// The C strings of amber_object_class_name() and amber_object_identifier(), made when
    /// first asked for (most objects are never asked).
    lazy var classNameC = CStringSlot()
    lazy var identifierC = CStringSlot()
    /// The contexts of a view's accessors and model association (SPEC R17, R18).
    var accessorsContext: HostContext?
    var associationContext: HostContext?

    init(
        kind: ObjectKind, className: String, restorationIdentifier: String?, engine: EngineBox,
        ctx: UnsafeMutableRawPointer?, ctxFree: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    ) throws(AmberError) {
        self.engineRef = Unmanaged.passUnretained(engine)
        self.ctx = ctx
        self.ctxFree = ctxFree
        try super.init(kind: kind, checkedClassName: className, restorationIdentifier: restorationIdentifier)
    }

    /// The core's object: the box itself.
    @inline(__always)
    var object: RestorableObject { self }

    /// Calls ctx_free, once.
    func releaseContext() {
        guard let f = ctxFree else { return }
        ctxFree = nil
        f(ctx)
    }

    /// The box of an object the engine hands back, if it was made through the C layer.
    @inline(__always)
    static func of(_ object: RestorableObject?) -> ObjectBox? {
        object as? ObjectBox
    }

    /// Installs trampolines to the host's callbacks.
    func install(_ c: amber_object_callbacks) {
        callbacksC = c
        var callbacks = RestorableCallbacks()
        if c.encode != nil { callbacks.encode = ObjectBox.encode }
        if c.decode != nil { callbacks.decode = ObjectBox.decode }
        if c.finished_restoring != nil { callbacks.finishedRestoring = ObjectBox.finishedRestoring }
        object.callbacks = callbacks
    }

    /// Called for every object preserved: the closure lent the coder captures no reference
    /// (nothing to retain and release per object), and the message is made only on failure.
    private static func encode(_ object: RestorableObject, _ coder: StateCoder) throws {
        guard let box = of(object), let encode = box.callbacksC.encode else { return }
        let handle = box.handle
        let ctx = box.ctx
        let code = try CoderBox.with(.state(coder), engine: box.engineRef) { c -> CInt in
            ThreadError.clearCurrent()
            return encode(handle, c, ctx)
        }
        if code != 0 { throw hostFailure("the encode callback of '\(object.className)'", code) }
    }

    private static func decode(_ object: RestorableObject, _ decoder: StateDecoder) throws {
        guard let box = of(object), let decode = box.callbacksC.decode else { return }
        let handle = box.handle
        let ctx = box.ctx
        try DecoderBox.with(.state(decoder), engine: box.engine) { d in
            try callHost("the decode callback of '\(object.className)'") { decode(handle, d, ctx) }
        }
    }

    private static func finishedRestoring(_ object: RestorableObject) {
        guard let box = of(object), let finished = box.callbacksC.finished_restoring else { return }
        finished(box.handle, box.ctx)
    }

    /// Takes the object out of every tree, forgets the host's callbacks and releases the contexts
    /// of a view's accessors and model association (before the object's own ctx_free).
    func detach() {
        let o = object
        o.removeFromParent()
        o.removeAllDependents()
        if let engine = engine?.engine, engine.isRoot(o) { try? engine.removeRoot(o) }
        o.callbacks = RestorableCallbacks()
        if o.kind == .view {  // only a view has them
            try? o.setViewAccessors(nil)
            try? o.setModelAssociation(nil)
        }
        accessorsContext?.release()
        accessorsContext = nil
        associationContext?.release()
        associationContext = nil
    }
}
