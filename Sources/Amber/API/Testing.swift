// amber/testing.h — A kill and a relaunch inside a test process (SPEC R33).

import AmberCore
import CAmber

/// Relaunches an engine. Backs `amber_testing_relaunch`.
///
/// The engine does the relaunch (`Engine.relaunch`); this layer gives its callbacks the C
/// handles: the tear-down gets the old engine's, then the old box is closed as
/// amber_engine_close() would, and the set-up gets a new box's, to which the contexts of the
/// store and the key callback pass (the new engine uses the same store and key provider).
@c @implementation public func amber_testing_relaunch(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ engine: UnsafeMutablePointer<OpaquePointer?>?,
    _ relaunch: UnsafePointer<amber_relaunch>?, _ ctx: UnsafeMutableRawPointer?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        guard let engine else { throw invalid("engine is NULL") }
        guard let relaunch else { throw invalid("relaunch is NULL") }
        let version = UnsafeRawPointer(relaunch).load(as: CUnsignedInt.self)
        try checkVersion(version, AMBER_RELAUNCH_VERSION, "amber_relaunch")
        let callbacks = relaunch.pointee
        guard let setUp = callbacks.set_up else { throw invalid("the relaunch's set_up is NULL: it must set up the new engine") }
        let state: ApplicationState
        switch callbacks.launch_state {
        case AMBER_APP_NOT_RUNNING, AMBER_APP_INACTIVE: state = .inactive
        case AMBER_APP_BACKGROUND: state = .background
        default:
            throw invalid("a relaunch launches into AMBER_APP_INACTIVE or AMBER_APP_BACKGROUND, not \(callbacks.launch_state.rawValue)")
        }
        guard let handle = engine.pointee else { throw invalid("*engine is NULL") }
        let old = try engineBox(handle)
        guard old.busy == 0 else { throw misuse("amber_testing_relaunch was called from a callback of the same engine") }

        var fresh: EngineBox?
        var oldClosed = false
        let result: RelaunchResult
        do {
            result = try old.operation {
                try old.engine.relaunch(
                    into: state,
                    tearDown: { _ in
                        if let tearDown = callbacks.tear_down {
                            try callHost("the relaunch's tear_down callback") { tearDown(handle, ctx) }
                        }
                    },
                    setUp: { engine in
                        let box = EngineBox(engine: engine)
                        box.handle = try HandleRegistry.shared.register(box, .engine)
                        fresh = box
                        box.storeContext = old.storeContext
                        box.keyContext = old.keyContext
                        old.storeContext = nil
                        old.keyContext = nil
                        old.closeHandle()
                        oldClosed = true
                        // Busy until the launch is over: the set-up and the launch's callbacks
                        // may not close the new engine under the launch.
                        box.busy += 1
                        try callHost("the relaunch's set_up callback") { setUp(box.handle, ctx) }
                    })
            }
        } catch let e as RelaunchError {
            var consequence = "; nothing was torn down by Amber, *engine is the engine given, still open"
            if let box = fresh {
                box.busy = 0
                box.closeHandle()
            }
            if oldClosed {
                engine.pointee = nil
                consequence = "; the engine given was closed after the tear-down and the new one is closed too: *engine is NULL"
            }
            let (code, message) = status(of: e.underlying)
            throw HostFailure(code: code, message: "amber_testing_relaunch: \(e.step.rawValue) failed: \(message)\(consequence)")
        }
        guard let box = fresh else { throw misuse("the relaunch did not set up a new engine") }
        box.busy -= 1
        engine.pointee = box.handle
        out.pointee = try box.registerReport(result.report)
    }
}
