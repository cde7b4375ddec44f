// amber/common.h, amber/engine.h — The log (SPEC R29).

import AmberCore
import CAmber

/// A host's log function and its context, called from whichever thread logs. The context is
/// the host's to make safe; Amber only passes it back. The sink holds this object, and every
/// line being written holds the sink: the context's ctx_free runs when the last of them lets go,
/// once the function is replaced or removed (or its engine closed) and no line is on its way.
private final class HostLog: @unchecked Sendable {
    let fn: amber_log_fn
    let context: HostContext

    init(_ fn: amber_log_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) {
        self.fn = fn
        context = HostContext(ctx, ctxFree)
    }

    deinit { context.release() }

    /// A sink that passes each line to the host's function as a C string.
    func sink(_ level: LogLevel) -> LogSink {
        LogSink(level: level) { level, message in
            let code = amber_log_level(rawValue: UInt32(level.rawValue))
            message.withCString { self.fn(code, $0, self.context.ctx) }
        }
    }
}

/// The level an `amber_log_level` names.
private func logLevel(_ level: amber_log_level) throws(AmberError) -> LogLevel {
    guard let l = LogLevel(rawValue: Int(level.rawValue)) else {
        throw invalid("\(level.rawValue) is not an amber_log_level (0 to 2)")
    }
    return l
}

/// Backs `amber_engine_set_log`.
@c @implementation public func amber_engine_set_log(
    _ engine: OpaquePointer?, _ level: amber_log_level, _ fn: amber_log_fn?, _ ctx: UnsafeMutableRawPointer?,
    _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let l = try logLevel(level)
        box.engine.logSink = fn.map { HostLog($0, ctx, ctx_free).sink(l) }
    }
}

/// Backs `amber_set_log`.
@c @implementation public func amber_set_log(
    _ level: amber_log_level, _ fn: amber_log_fn?, _ ctx: UnsafeMutableRawPointer?,
    _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let l = try logLevel(level)
        Log.processWide = fn.map { HostLog($0, ctx, ctx_free).sink(l) }
    }
}
