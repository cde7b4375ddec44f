// amber/engine.h — Classes, blueprints and the delegate (SPEC R5, R8–R13).

import AmberCore
import CAmber

/// Registers a restoration class. Backs `amber_engine_register_restoration_class`.
@c @implementation public func amber_engine_register_restoration_class(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ cls: UnsafePointer<amber_restoration_class>?,
    _ ctx: UnsafeMutableRawPointer?, _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let n = try inputString(name, "name")
        guard !n.isEmpty else { throw invalid("name is empty") }
        guard let cls else { throw invalid("the restoration class is NULL") }
        guard cls.pointee.version == AMBER_RESTORATION_CLASS_VERSION else {
            throw invalid("amber_restoration_class version \(cls.pointee.version) is not supported (expected \(AMBER_RESTORATION_CLASS_VERSION))")
        }
        guard !box.engine.hasRestorationClass(named: n) else { throw AmberError(.duplicate, "restoration class \(n) is registered already") }
        let context = HostContext(ctx, ctx_free)
        box.engine.registerRestorationClass(name: n, pathFromDecoder: true, make: box.restorationMake(cls.pointee, context, name: n))
        box.classContexts.append(context)
    }
}

/// Declares a subclass. Backs `amber_engine_register_subclass`.
@c @implementation public func amber_engine_register_subclass(_ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ superclass_name: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let n = try inputString(name, "name")
        let s = try inputString(superclass_name, "superclass_name")
        guard !n.isEmpty, !s.isEmpty else { throw invalid("a class name is empty") }
        if let existing = box.superclasses[n] { throw AmberError(.duplicate, "class \(n) has a superclass already: \(existing)") }
        guard !box.engine.isClass(s, kindOf: n) else { throw invalid("\(n) as a subclass of \(s) would make a cycle") }
        box.superclasses[n] = s
        box.engine.registerClass(name: n, superclass: s)
    }
}

/// Registers a blueprint factory. Backs `amber_engine_register_blueprint_factory`.
@c @implementation public func amber_engine_register_blueprint_factory(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ factory: UnsafePointer<amber_blueprint_factory>?,
    _ ctx: UnsafeMutableRawPointer?, _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let n = try inputString(name, "name")
        guard !n.isEmpty, !n.contains("/") else { throw invalid("a blueprint factory's name is not empty and has no '/'") }
        guard let factory else { throw invalid("the blueprint factory is NULL") }
        guard factory.pointee.version == AMBER_BLUEPRINT_FACTORY_VERSION else {
            throw invalid("amber_blueprint_factory version \(factory.pointee.version) is not supported (expected \(AMBER_BLUEPRINT_FACTORY_VERSION))")
        }
        guard !box.engine.hasBlueprintFactory(named: n) else { throw AmberError(.duplicate, "blueprint factory \(n) is registered already") }
        let context = HostContext(ctx, ctx_free)
        box.engine.registerBlueprintFactory(name: n, make: box.factoryMake(factory.pointee, context, name: n))
        box.classContexts.append(context)
    }
}

/// Sets the delegate, replacing the previous one. Backs `amber_engine_set_delegate`.
@c @implementation public func amber_engine_set_delegate(
    _ engine: OpaquePointer?, _ delegate: UnsafePointer<amber_delegate>?,
    _ ctx: UnsafeMutableRawPointer?, _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        var replacement = EngineDelegate()
        var context: HostContext?
        if let delegate {
            guard delegate.pointee.version == AMBER_DELEGATE_VERSION else {
                throw invalid("amber_delegate version \(delegate.pointee.version) is not supported (expected \(AMBER_DELEGATE_VERSION))")
            }
            let c = HostContext(ctx, ctx_free)
            replacement = box.delegate(delegate.pointee, c)
            context = c
        }
        box.engine.delegate = replacement
        let previous = box.delegateContext
        box.delegateContext = context
        previous?.release()
    }
}

/// Declares the state version of a class (SPEC R30). Backs `amber_engine_register_state_version`.
@c @implementation public func amber_engine_register_state_version(
    _ engine: OpaquePointer?, _ class_name: UnsafePointer<CChar>?, _ version: CUnsignedInt, _ migrate: amber_migrate_fn?,
    _ ctx: UnsafeMutableRawPointer?, _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let n = try inputString(class_name, "class_name")
        let context = HostContext(ctx, ctx_free)
        try box.engine.registerStateVersion(className: n, version: Int(version), migrate: migrate.map { box.migrate($0, context, className: n) })
        box.classContexts.append(context)
    }
}
