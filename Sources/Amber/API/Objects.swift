// amber/object.h — Restorable objects (SPEC R1–R4).

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The object box of a handle (any engine).
func objectBox(_ handle: OpaquePointer?, _ what: String = "the object") throws(AmberError) -> ObjectBox {
    guard let handle else { throw invalid("\(what) is NULL") }
    return try HandleRegistry.shared.resolve(handle, .object, as: ObjectBox.self)
}

/// Two objects of the same engine.
func objectPair(_ a: OpaquePointer?, _ aName: String, _ b: OpaquePointer?, _ bName: String) throws(AmberError) -> (ObjectBox, ObjectBox) {
    let first = try objectBox(a, aName)
    guard let engine = first.engine else { throw misuse("\(aName) has no engine") }
    return (first, try engine.object(b, bName))
}

/// Creates a restorable object. Backs `amber_object_new`.
@c @implementation public func amber_object_new(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ engine: OpaquePointer?, _ kind: amber_kind,
    _ class_name: UnsafePointer<CChar>?, _ restoration_id: UnsafePointer<CChar>?,
    _ callbacks: UnsafePointer<amber_object_callbacks>?, _ ctx: UnsafeMutableRawPointer?,
    _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let box = try engineBox(engine)
        guard kind.rawValue >= 0, kind.rawValue <= 2, let k = ObjectKind(rawValue: UInt8(kind.rawValue)) else {
            throw invalid("\(kind.rawValue) is not an amber_kind")
        }
        let className = try box.className(class_name, "class_name")
        let identifier = try optionalString(restoration_id, "restoration_id")
        var c = amber_object_callbacks()
        if let callbacks {
            try checkVersion(callbacks.pointee.version, AMBER_OBJECT_CALLBACKS_VERSION, "amber_object_callbacks")
            c = callbacks.pointee
        }
        let o = try ObjectBox(kind: k, className: className, restorationIdentifier: identifier, engine: box, ctx: ctx, ctxFree: ctx_free)
        o.handle = try HandleRegistry.shared.register(o, .object)
        o.install(c)
        box.add(o)
        out.pointee = o.handle
    }
}

/// Marks an object's state changed (SPEC R32). Backs `amber_object_mark_dirty`.
@c @implementation public func amber_object_mark_dirty(_ object: OpaquePointer?) -> CInt {
    guarded {
        let o = try objectBox(object)
        guard let engine = o.engine else { throw misuse("the object's engine is closed") }
        engine.engine.markDirty(o.object)
    }
}

/// Frees an object. Backs `amber_object_free`.
@c @implementation public func amber_object_free(_ object: OpaquePointer?) {
    guard let object else { return }
    _ = guarded {
        let o = try objectBox(object)
        o.detach()
        o.engine?.remove(o)
        HandleRegistry.shared.unregister(object)
        o.releaseContext()
    }
}

/// Sets or clears the restoration identifier. Backs `amber_object_set_identifier`.
@c @implementation public func amber_object_set_identifier(_ object: OpaquePointer?, _ restoration_id: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try objectBox(object)
        o.object.restorationIdentifier = try optionalString(restoration_id, "restoration_id")
    }
}

/// Names the restoration class. Backs `amber_object_set_restoration_class`.
@c @implementation public func amber_object_set_restoration_class(_ object: OpaquePointer?, _ class_name: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try objectBox(object)
        if let engine = o.engine, class_name != nil {
            o.object.restorationClassName = try engine.className(class_name, "class_name")
        } else {
            o.object.restorationClassName = try optionalString(class_name, "class_name")
        }
    }
}

/// Records the blueprint. Backs `amber_object_set_blueprint`.
@c @implementation public func amber_object_set_blueprint(_ object: OpaquePointer?, _ blueprint_id: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try objectBox(object)
        o.object.blueprintIdentifier = try optionalString(blueprint_id, "blueprint_id")
    }
}

/// Declares a stack container. Backs `amber_object_set_stack`.
@c @implementation public func amber_object_set_stack(_ object: OpaquePointer?, _ is_stack: CInt) -> CInt {
    guarded {
        try objectBox(object).object.setStack(is_stack != 0)
    }
}

/// Appends a child controller. Backs `amber_object_add_child`.
@c @implementation public func amber_object_add_child(_ parent: OpaquePointer?, _ child: OpaquePointer?) -> CInt {
    guarded {
        let (p, c) = try objectPair(parent, "the parent", child, "the child")
        try p.object.addChild(c.object)
    }
}

/// Removes a child controller. Backs `amber_object_remove_child`.
@c @implementation public func amber_object_remove_child(_ parent: OpaquePointer?, _ child: OpaquePointer?) -> CInt {
    guarded {
        let (p, c) = try objectPair(parent, "the parent", child, "the child")
        try p.object.removeChild(c.object)
    }
}

/// Presents a controller; NULL dismisses. Backs `amber_object_present`.
@c @implementation public func amber_object_present(_ presenter: OpaquePointer?, _ presented: OpaquePointer?) -> CInt {
    guarded {
        let p = try objectBox(presenter, "the presenter")
        guard let presented else { return try p.object.setPresented(nil) }
        guard let engine = p.engine else { throw misuse("the presenter has no engine") }
        try p.object.setPresented(try engine.object(presented, "the presented controller").object)
    }
}

/// Adds a view to a controller. Backs `amber_object_add_view`.
@c @implementation public func amber_object_add_view(_ controller: OpaquePointer?, _ view: OpaquePointer?) -> CInt {
    guarded {
        let (c, v) = try objectPair(controller, "the controller", view, "the view")
        try c.object.addView(v.object)
    }
}

/// Names the restoration parent of a plain object. Backs `amber_object_set_restoration_parent`.
@c @implementation public func amber_object_set_restoration_parent(_ object: OpaquePointer?, _ parent: OpaquePointer?) -> CInt {
    guarded {
        let o = try objectBox(object)
        guard let parent else {
            try o.object.setRestorationParent(nil)
            return
        }
        guard let engine = o.engine else { throw misuse("the object has no engine") }
        try o.object.setRestorationParent(try engine.object(parent, "the parent").object)
    }
}

/// The object's context pointer. Backs `amber_object_context`.
@c @implementation public func amber_object_context(_ object: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guarded(nil) { try objectBox(object).ctx }
}

/// The object's class name. Backs `amber_object_class_name`.
@c @implementation public func amber_object_class_name(_ object: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(nil) {
        let o = try objectBox(object)
        return o.classNameC.pointer(for: o.object.className) ?? staticEmpty
    }
}

/// The object's restoration identifier. Backs `amber_object_identifier`.
@c @implementation public func amber_object_identifier(_ object: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(nil) {
        let o = try objectBox(object)
        return o.identifierC.pointer(for: o.object.restorationIdentifier)
    }
}

/// The object's kind. Backs `amber_object_kind`.
@c @implementation public func amber_object_kind(_ object: OpaquePointer?) -> amber_kind {
    guarded(AMBER_KIND_INVALID) { amber_kind(rawValue: Int32(try objectBox(object).object.kind.rawValue)) }
}

/// The object's restoration path joined with '/', each stack position k ≥ 1 as `[k]`. Backs
/// `amber_object_path`.
@c @implementation public func amber_object_path(_ out: UnsafeMutablePointer<amber_buf>?, _ object: OpaquePointer?) -> CInt {
    guarded {
        let out = try outBuf(out)
        let o = try objectBox(object)
        guard let path = o.object.restorationComponents else {
            throw AmberError(.notFound, "'\(o.object.className)' or an ancestor has no restoration identifier")
        }
        try fillBuf(out, PathComponent.joined(path))
    }
}

/// Claims the state kept for an object created later (SPEC R35). Backs `amber_object_restore_pending`.
@c @implementation public func amber_object_restore_pending(_ object: OpaquePointer?) -> CInt {
    guarded {
        let o = try objectBox(object)
        guard let engine = o.engine else { throw misuse("the object's engine is closed") }
        _ = try engine.operation { try engine.engine.restorePending(o.object) }
    }
}
