// amber/common.h, amber/engine.h — The log (SPEC R29).

import AmberCore
import CAmber

/// A host's log function and its context, called from whichever thread logs. The context is
/// the host's to make safe; Amber only passes it back.
private struct HostLog: @unchecked Sendable {
    let fn: amber_log_fn
    let ctx: UnsafeMutableRawPointer?

    /// A sink that passes each line to the host's function as a C string.
    func sink(_ level: LogLevel) -> LogSink {
        LogSink(level: level) { level, message in
            let code = amber_log_level(rawValue: UInt32(level.rawValue))
            message.withCString { fn(code, $0, ctx) }
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
    _ engine: OpaquePointer?, _ level: amber_log_level, _ fn: amber_log_fn?, _ ctx: UnsafeMutableRawPointer?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let l = try logLevel(level)
        box.engine.logSink = fn.map { HostLog(fn: $0, ctx: ctx).sink(l) }
    }
}

/// Backs `amber_set_log`.
@c @implementation public func amber_set_log(_ level: amber_log_level, _ fn: amber_log_fn?, _ ctx: UnsafeMutableRawPointer?) -> CInt {
    guarded {
        let l = try logLevel(level)
        Log.processWide = fn.map { HostLog(fn: $0, ctx: ctx).sink(l) }
    }
}
