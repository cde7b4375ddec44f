// amber/engine.h — Launching, preserving and restoring (SPEC R2–R16, R23).

import AmberCore
import CAmber

/// Preserves the interface. Backs `amber_engine_preserve`.
@c @implementation public func amber_engine_preserve(_ out_saved: UnsafeMutablePointer<CInt>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        out_saved?.pointee = 0
        let box = try engineBox(engine)
        let result = try box.operation { try box.engine.preserve() }
        out_saved?.pointee = result.saved ? 1 : 0
    }
}

/// The launch sequence, into the inactive state or the background. Backs `amber_engine_launch`.
@c @implementation public func amber_engine_launch(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ engine: OpaquePointer?, _ state: amber_app_state
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let box = try engineBox(engine)
        let background: Bool
        switch state {
        case AMBER_APP_INACTIVE: background = false
        case AMBER_APP_BACKGROUND: background = true
        default:
            throw invalid("a launch goes to AMBER_APP_INACTIVE or AMBER_APP_BACKGROUND, not \(state.rawValue)")
        }
        let report = box.operation { background ? box.engine.launchInBackground() : box.engine.launch() }
        out.pointee = try box.registerReport(report)
    }
}

/// Discards the archive. Backs `amber_engine_discard`.
@c @implementation public func amber_engine_discard(_ engine: OpaquePointer?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        try box.operation { try box.engine.discardArchive() }
    }
}

/// Extends restoration. Backs `amber_engine_extend_restoration`.
@c @implementation public func amber_engine_extend_restoration(_ out: UnsafeMutablePointer<UInt64>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let box = try engineBox(engine)
        out.pointee = try box.engine.extendRestoration().id
    }
}

/// Completes an extension. Backs `amber_engine_complete_restoration`.
@c @implementation public func amber_engine_complete_restoration(_ engine: OpaquePointer?, _ token: UInt64) -> CInt {
    guarded {
        let box = try engineBox(engine)
        do {
            try box.operation { try box.engine.completeRestoration(RestorationToken(id: token)) }
        } catch let e as AmberError where e.code == .misuse {
            throw AmberError(.notFound, e.message)
        }
    }
}

/// Keeps unclaimed records after restoration (SPEC R35). Backs `amber_engine_keep_unclaimed`.
@c @implementation public func amber_engine_keep_unclaimed(_ engine: OpaquePointer?, _ milliseconds: UInt64) -> CInt {
    guarded {
        let box = try engineBox(engine)
        guard let ms = Int(exactly: milliseconds) else { throw invalid("milliseconds \(milliseconds) is out of range") }
        try box.engine.keepUnclaimed(milliseconds: ms)
    }
}

/// Drops the kept records (SPEC R35). Backs `amber_engine_end_restoration`.
@c @implementation public func amber_engine_end_restoration(_ engine: OpaquePointer?) -> CInt {
    guarded {
        let box = try engineBox(engine)
        box.operation { box.engine.endRestoration() }
    }
}

/// The last restoration's report as it stands (SPEC R16, R35). Backs `amber_engine_restoration_report`.
@c @implementation public func amber_engine_restoration_report(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let box = try engineBox(engine)
        guard let report = box.operation({ box.engine.currentRestorationReport() }) else {
            throw AmberError(.notFound, "the engine has not restored yet")
        }
        out.pointee = try box.registerReport(report)
    }
}
