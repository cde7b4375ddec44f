// The box behind an amber_object handle.

import AmberCore
import CAmber

/// What a `RestorableObject.host` holds: a weak link back to the object's box, so that an
/// object the engine hands back (a restored object, a reference) finds its handle.
final class HostLink {
    weak var box: ObjectBox?
    init(_ box: ObjectBox) { self.box = box }
}

/// A restorable object made by amber_object_new(), owned by its engine.
final class ObjectBox {
    let object: RestorableObject
    weak var engine: EngineBox?
    let context: HostContext
    /// The handle given out (the box's address).
    var handle: OpaquePointer!
    /// The C strings of amber_object_class_name() and amber_object_identifier(), made when
    /// first asked for (most objects are never asked).
    lazy var classNameC = CStringSlot()
    lazy var identifierC = CStringSlot()
    /// The contexts of a view's accessors and model association (SPEC R17, R18).
    var accessorsContext: HostContext?
    var associationContext: HostContext?

    init(object: RestorableObject, engine: EngineBox, context: HostContext) {
        self.object = object
        self.engine = engine
        self.context = context
    }

    /// The box of an object the engine hands back, if it was made through the C layer.
    static func of(_ object: RestorableObject?) -> ObjectBox? {
        (object?.host as? HostLink)?.box
    }

    /// Installs trampolines to the host's callbacks.
    func install(_ c: amber_object_callbacks) {
        let handle = self.handle
        let ctx = context.ctx
        let engine = self.engine
        var callbacks = RestorableCallbacks()
        if let encode = c.encode {
            callbacks.encode = { [weak engine] object, coder in
                try CoderBox.with(.state(coder), engine: engine) { c in
                    try callHost("the encode callback of '\(object.className)'") { encode(handle, c, ctx) }
                }
            }
        }
        if let decode = c.decode {
            callbacks.decode = { [weak engine] object, decoder in
                try DecoderBox.with(.state(decoder), engine: engine) { d in
                    try callHost("the decode callback of '\(object.className)'") { decode(handle, d, ctx) }
                }
            }
        }
        if let finished = c.finished_restoring {
            callbacks.finishedRestoring = { _ in finished(handle, ctx) }
        }
        object.callbacks = callbacks
    }

    /// Takes the object out of every tree, forgets the host's callbacks and releases the contexts
    /// of a view's accessors and model association (before the object's own ctx_free).
    func detach() {
        let o = object
        o.removeFromParent()
        for c in o.children { c.removeFromParent() }
        o.dismissPresented()
        for v in o.views { v.removeFromParent() }
        for p in o.restorationChildren { try? p.setRestorationParent(nil) }
        engine?.engine.removeRoot(o)
        o.callbacks = RestorableCallbacks()
        o.viewAccessors = nil
        o.modelAssociation = nil
        o.host = nil
        accessorsContext?.release()
        accessorsContext = nil
        associationContext?.release()
        associationContext = nil
    }
}
