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
        guard let cls else { throw invalid("the restoration class is NULL") }
        try checkVersion(cls.pointee.version, AMBER_RESTORATION_CLASS_VERSION, "amber_restoration_class")
        let context = HostContext(ctx, ctx_free)
        try box.engine.registerRestorationClass(name: n, pathFromDecoder: true, make: box.restorationMake(cls.pointee, context, name: n))
        box.classContexts.append(context)
    }
}

/// Declares a subclass. Backs `amber_engine_register_subclass`.
@c @implementation public func amber_engine_register_subclass(_ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ superclass_name: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let n = try inputString(name, "name")
        let s = try inputString(superclass_name, "superclass_name")
        try box.engine.registerClass(name: n, superclass: s)
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
        guard let factory else { throw invalid("the blueprint factory is NULL") }
        try checkVersion(factory.pointee.version, AMBER_BLUEPRINT_FACTORY_VERSION, "amber_blueprint_factory")
        let context = HostContext(ctx, ctx_free)
        try box.engine.registerBlueprintFactory(name: n, make: box.factoryMake(factory.pointee, context, name: n))
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
            try checkVersion(delegate.pointee.version, AMBER_DELEGATE_VERSION, "amber_delegate")
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
