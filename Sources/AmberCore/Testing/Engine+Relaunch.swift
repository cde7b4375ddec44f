import AmberArchive

/// What `Engine.relaunch(into:tearDown:setUp:)` gives back (SPEC R33).
public struct RelaunchResult {
    /// The new engine, launched: the one the test goes on with.
    public var engine: Engine
    /// What the relaunch restored, and why not (SPEC R16): the new engine's launch report.
    public var report: RestorationReport
    /// What the preservation before the relaunch saved and left out (SPEC R28); `saved` is
    /// false when should-save declined, and the launch is then fresh.
    public var preservation: PreservationReport
}

extension Engine {
    /// Simulates killing the program and launching it again, inside one test process (SPEC
    /// R33), as Flutter's `restartAndRestore` and Compose's `StateRestorationTester` do:
    ///
    /// 1. the application goes to the background as the system sends it there before a kill
    ///    (active → inactive → background, posting will-resign-active and did-enter-background),
    ///    which preserves; an application that is not running, or already in the background or
    ///    suspended, preserves without a transition;
    /// 2. `tearDown` is given this engine, to let go of the host's objects and model;
    /// 3. a new engine is made with this engine's configuration (the same store, so the
    ///    archive just written and the launch guard carry over, the same envelope and key, the
    ///    same application id), its coding classes and its log sink;
    /// 4. `setUp` is given the new engine, to do what the program does at start-up: register
    ///    restoration classes, blueprint factories and the delegate, build the default
    ///    interface, add the roots;
    /// 5. the new engine launches into `state` (`.inactive`, or `.background`), restoring.
    ///
    /// The store is what makes the relaunch a relaunch: a `MemoryStore` (an engine opened on
    /// `.memory` storage has one) outlives the engine that wrote it, as a file store's files do.
    /// This engine must not be used after a relaunch that got past the tear-down.
    ///
    /// - Parameters:
    ///   - state: the state the new engine launches into: `.inactive` (default) or `.background`.
    ///   - tearDown: called with this engine after the preservation; may be empty.
    ///   - setUp: called with the new engine before it launches.
    /// - Returns: the new engine, its launch report and the preservation's report.
    /// - Throws: `AmberError` `.invalidArgument` for another launch state; `.misuse` when called
    ///   while the engine preserves, restores or reports a transition (from a callback), nothing
    ///   done. Otherwise a `RelaunchError` naming the step that failed and carrying its error
    ///   unchanged: preserving (an error of the preservation, or of an observer of the
    ///   transitions to the background; nothing torn down); the tear-down (nothing more done);
    ///   the set-up (the new engine is not launched).
    ///
    /// Backs `amber_testing_relaunch`.
    public func relaunch(
        into state: ApplicationState = .inactive,
        tearDown: (Engine) throws -> Void = { _ in },
        setUp: (Engine) throws -> Void
    ) throws -> RelaunchResult {
        guard state == .inactive || state == .background else {
            throw AmberError(.invalidArgument, "a relaunch launches into inactive or background, not \(state)")
        }
        guard activity == .idle, transitionUnderWay == nil else {
            let doing = transitionUnderWay.map { "reports the transition from \($0.from) to \($0.to)" } ?? activity.rawValue
            throw AmberError(.misuse, "relaunch was called while the engine \(doing): call it outside the engine's callbacks")
        }
        let preservation: PreservationReport
        do { preservation = try preserveBeforeKill() } catch { throw RelaunchError(.preserving, error) }
        log(.info) { "relaunch: preserved (\(preservation.saved ? "saved" : "nothing saved")), tearing down" }
        do { try tearDown(self) } catch { throw RelaunchError(.tearingDown, error) }
        let fresh = Engine(configuration: configuration, codingClasses: codingClasses)
        fresh.logSink = logSink
        do { try setUp(fresh) } catch { throw RelaunchError(.settingUp, error) }
        let report = fresh.launch(into: state, defaultSetup: {})
        return RelaunchResult(engine: fresh, report: report, preservation: preservation)
    }

    /// Step 1 of `relaunch`: to the background, as before a kill, preserving on the way.
    private func preserveBeforeKill() throws -> PreservationReport {
        var path: [ApplicationState] = []
        switch applicationState {
        case .active: path = [.inactive, .background]
        case .inactive: path = [.background]
        case .notRunning, .background, .suspended: return try preserve()
        }
        var preservation: PreservationReport?
        for next in path {
            let result = try transition(to: next)
            if let e = result.preservationFailure { throw e }
            if let e = result.observerError { throw e }  // unchanged: a C observer's code stays its own
            if let p = result.preservation { preservation = p }
        }
        // Entering the background preserved; a preservation that threw was thrown above.
        guard let preservation else { throw AmberError(.misuse, "entering the background did not preserve") }
        return preservation
    }
}
