// amber/engine.h — Autosave (SPEC R32).

import AmberCore
import CAmber

/// Sets or clears the autosave policy. Backs `amber_engine_set_autosave`.
@c @implementation public func amber_engine_set_autosave(_ engine: OpaquePointer?, _ policy: UnsafePointer<amber_autosave>?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        guard let policy else {
            try box.engine.setAutosave(nil)
            return
        }
        let p = policy.pointee
        try checkVersion(p.version, AMBER_AUTOSAVE_VERSION, "amber_autosave")
        // Zero: the engine's default; negative: none.
        func milliseconds(_ value: CInt, default fallback: Int) -> Int {
            value == 0 ? fallback : max(0, Int(value))
        }
        try box.engine.setAutosave(AutosavePolicy(
            quietMilliseconds: milliseconds(p.quiet_ms, default: AutosavePolicy.defaultQuietMilliseconds),
            minimumIntervalMilliseconds: milliseconds(p.min_interval_ms, default: AutosavePolicy.defaultMinimumIntervalMilliseconds),
            reusesCleanState: p.full_saves == 0))
    }
}

/// The milliseconds until autosave is due, or -1. Backs `amber_engine_autosave_timeout`.
@c @implementation public func amber_engine_autosave_timeout(_ out_ms: UnsafeMutablePointer<CInt>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        guard let out_ms else { throw invalid("out_ms is NULL") }
        out_ms.pointee = -1
        let box = try engineBox(engine)
        if let timeout = box.engine.autosaveTimeout() { out_ms.pointee = CInt(clamping: timeout) }
    }
}

/// Saves if autosave is due. Backs `amber_engine_tick`.
@c @implementation public func amber_engine_tick(_ out_saved: UnsafeMutablePointer<CInt>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        out_saved?.pointee = 0
        let box = try engineBox(engine)
        let saved = try box.operation { try box.engine.tick() }
        out_saved?.pointee = saved ? 1 : 0
    }
}
