// amber/engine.h, amber/plugin.h — Engines: open, close, roots, plugins.

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The engine box of a handle.
func engineBox(_ handle: OpaquePointer?) throws(AmberError) -> EngineBox {
    try HandleRegistry.shared.resolve(handle, .engine, as: EngineBox.self)
}

/// Opens an engine. Backs `amber_engine_open`.
@c @implementation public func amber_engine_open(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ app_id: UnsafePointer<CChar>?,
    _ options: UnsafePointer<amber_engine_options>?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let appID = try inputString(app_id, "app_id")
        var o = amber_engine_options()
        o.version = CUnsignedInt(AMBER_ENGINE_OPTIONS_VERSION)
        if let options {
            // The struct's version says how much of it the host has: version 1 ends before
            // keep_restoration_report, version 2 before keep_archive_after_restore, so only
            // that prefix is read (the rest keeps its default).
            let version = UnsafeRawPointer(options).load(as: CUnsignedInt.self)
            let size: Int
            switch version {
            case CUnsignedInt(AMBER_ENGINE_OPTIONS_VERSION): size = MemoryLayout<amber_engine_options>.size
            case 1: size = MemoryLayout<amber_engine_options>.offset(of: \.keep_restoration_report)!
            case 2: size = MemoryLayout<amber_engine_options>.offset(of: \.keep_archive_after_restore)!
            default:
                throw unsupportedVersion("amber_engine_options", version, expected: "\(AMBER_ENGINE_OPTIONS_VERSION), 2 or 1")
            }
            let prefix = UnsafeRawBufferPointer(start: UnsafeRawPointer(options), count: size)
            withUnsafeMutableBytes(of: &o) { UnsafeMutableRawBufferPointer(rebasing: $0[..<size]).copyMemory(from: prefix) }
            o.version = CUnsignedInt(AMBER_ENGINE_OPTIONS_VERSION)
        }
        // The options as the engine's own (EngineOptions, which holds the defaults).
        var choices = EngineOptions()
        if let version = try optionalString(o.bundle_version, "bundle_version") { choices.bundleVersion = version }
        if let idiom = try optionalString(o.interface_idiom, "interface_idiom") { choices.interfaceIdiom = idiom }
        let stateDirectory = try optionalString(o.state_directory, "state_directory")
        var storeContext: HostContext?
        if let vtable = o.store {
            choices.storage = .custom(try HostStore(vtable.pointee, context: HostContext(o.store_ctx, nil)), directory: stateDirectory)
            storeContext = HostContext(o.store_ctx, o.store_ctx_free)
        } else if o.memory_store != 0 {
            choices.storage = .memory
        } else if let stateDirectory {
            choices.storage = .directory(stateDirectory)
        }
        var keyContext: HostContext?
        switch o.protection {
        case AMBER_PROTECTION_KEY_FILE:
            choices.protection = .keyFile(try optionalString(o.key_file, "key_file"))
        case AMBER_PROTECTION_KEY_CALLBACK:
            guard let callback = o.key_callback else { throw invalid("AMBER_PROTECTION_KEY_CALLBACK needs key_callback") }
            keyContext = HostContext(o.key_ctx, o.key_ctx_free)
            choices.protection = .keyProvider(hostKeyProvider(callback, HostContext(o.key_ctx, nil)))
        case AMBER_PROTECTION_FIXED_KEY:
            guard let key = o.fixed_key else { throw invalid("AMBER_PROTECTION_FIXED_KEY needs fixed_key (32 bytes)") }
            choices.protection = .keyProvider(try FixedKeyProvider(key: Array(UnsafeBufferPointer(start: key, count: 32))))
        case AMBER_PROTECTION_NONE:
            choices.protection = .none
        default:
            throw invalid("\(o.protection.rawValue) is not an amber_protection")
        }
        choices.keepsRestorationReport = o.keep_restoration_report != 0
        choices.keepsArchiveAfterRestore = o.keep_archive_after_restore != 0
        // 0 is the default; a budget the engine cannot count to is no budget at all.
        if o.object_budget != 0 { choices.objectBudget = Int(clamping: o.object_budget) }
        if o.archive_budget != 0 { choices.archiveBudget = Int(clamping: o.archive_budget) }
        let configuration = try EngineConfiguration(appID: appID, options: choices)
        let box = EngineBox(engine: Engine(configuration: configuration))
        box.storeContext = storeContext
        box.keyContext = keyContext
        box.handle = try HandleRegistry.shared.register(box, .engine)
        out.pointee = box.handle
    }
}

/// Closes an engine. Backs `amber_engine_close`.
@c @implementation public func amber_engine_close(_ engine: OpaquePointer?) {
    guard let engine else { return }
    _ = guarded {
        let box = try engineBox(engine)
        guard box.busy == 0 else { throw misuse("amber_engine_close was called from a callback of the same engine") }
        box.closeHandle()
    }
}

/// Adds a root. Backs `amber_engine_add_root`.
@c @implementation public func amber_engine_add_root(_ engine: OpaquePointer?, _ root: OpaquePointer?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let o = try box.object(root, "the root").object
        try box.engine.addRoot(o)
    }
}

/// Removes a root. Backs `amber_engine_remove_root`.
@c @implementation public func amber_engine_remove_root(_ engine: OpaquePointer?, _ root: OpaquePointer?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let o = try box.object(root, "the root").object
        try box.engine.removeRoot(o)
    }
}

/// Loads a plugin library and calls its entry point. Backs `amber_engine_load_plugin`.
@c @implementation public func amber_engine_load_plugin(_ engine: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let file = try inputString(path, "path")
        _ = dlerror()
        guard let lib = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw AmberError(.notFound, "the plugin '\(file)' cannot be loaded: \(why)")
        }
        _ = dlerror()
        guard let symbol = dlsym(lib, AMBER_PLUGIN_ENTRY_NAME) else {
            let why = dlerror().map { String(cString: $0) } ?? "no such symbol"
            dlclose(lib)
            throw AmberError(.notFound, "the plugin '\(file)' has no entry point \(AMBER_PLUGIN_ENTRY_NAME): \(why)")
        }
        // Kept until the engine closes: the plugin may have registered callbacks and ctx_free.
        box.plugins.append(lib)
        let entry = unsafeBitCast(symbol, to: amber_plugin_entry.self)
        let version = amber_version_number()
        try box.operation {
            try callHost("the entry point of plugin '\(file)'") { entry(box.handle, version) }
        }
    }
}

/// The host's key callback as a key provider: AMBER_KEY_UNAVAILABLE is "unavailable now"; any
/// other non-zero code is the callback's own failure, thrown as `HostFailure` with that code, so
/// that a save returns it unchanged (the conventions) and a launch keeps the archive, with the
/// key provider and the code in the report's reason (`SealedEnvelope` maps a failure when
/// opening to "key unavailable").
private func hostKeyProvider(
    _ callback: @escaping @convention(c) (UnsafeMutablePointer<UInt8>?, CInt, UnsafeMutableRawPointer?) -> CInt,
    _ context: HostContext
) -> ClosureKeyProvider {
    ClosureKeyProvider { (purpose: KeyPurpose) throws -> [UInt8] in
        var key = [UInt8](repeating: 0, count: 32)
        ThreadError.clearCurrent()
        let code = key.withUnsafeMutableBufferPointer { b in callback(b.baseAddress, purpose == .seal ? 1 : 0, context.ctx) }
        guard code == 0 else {
            let failure = hostFailure("the key callback", code)
            if code == CInt(AMBER_KEY_UNAVAILABLE.rawValue) { throw AmberError(.keyUnavailable, failure.message) }
            throw failure
        }
        return key
    }
}
