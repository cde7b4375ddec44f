// amber/common.h, amber/engine.h — The application's lifecycle (SPEC R23): states, transitions, memory warnings.

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The static names of the states, then "unknown"; made once, never freed.
nonisolated(unsafe) let appStateNames: [UnsafePointer<CChar>] =
    (ApplicationState.allCases.map(\.description) + ["unknown"]).map { UnsafePointer(strdup($0)!) }

/// The engine's application state. Backs `amber_engine_app_state`.
@c @implementation public func amber_engine_app_state(_ engine: OpaquePointer?) -> amber_app_state {
    guarded(AMBER_APP_INVALID) { amber_app_state(rawValue: Int32(try engineBox(engine).engine.applicationState.rawValue)) }
}

/// A state's name. Backs `amber_app_state_string`.
@c @implementation public func amber_app_state_string(_ state: amber_app_state) -> UnsafePointer<CChar>? {
    guard let s = ApplicationState(rawValue: Int(state.rawValue)) else { return appStateNames[ApplicationState.allCases.count] }
    return appStateNames[s.rawValue]
}

/// Reports a transition. Backs `amber_engine_transition`.
@c @implementation public func amber_engine_transition(
    _ out_saved: UnsafeMutablePointer<CInt>?, _ engine: OpaquePointer?, _ state: amber_app_state
) -> CInt {
    guarded {
        out_saved?.pointee = 0
        let box = try engineBox(engine)
        guard let next = ApplicationState(rawValue: Int(state.rawValue)) else {
            throw invalid("\(state.rawValue) is not an amber_app_state (0 to \(ApplicationState.allCases.count - 1))")
        }
        let result: TransitionResult = try box.operation {
            do { return try box.engine.transition(to: next) } catch { throw error as any Error }
        }
        if let p = result.preservation {
            out_saved?.pointee = p.saved ? 1 : 0
        }
        if let e = result.preservationError {
            throw AmberError(e.code, "the application entered the background, but preservation failed: \(e.message)")
        }
        if let e = result.observerError {
            let (code, message) = status(of: e)
            throw HostFailure(code: code, message: "the application went from \(result.from) to \(result.to), but an observer failed: \(message)")
        }
    }
}

/// Posts the memory warning. Backs `amber_engine_report_memory_warning`.
@c @implementation public func amber_engine_report_memory_warning(_ engine: OpaquePointer?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        try box.operation { try box.engine.reportMemoryWarning() }
    }
}
