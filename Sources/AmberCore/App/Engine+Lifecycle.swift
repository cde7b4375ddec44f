/// What a transition did besides changing the state (SPEC R23).
public struct TransitionResult {
    /// The state left.
    public var from: ApplicationState
    /// The state entered.
    public var to: ApplicationState
    /// Entering the background: what the preservation did (`saved` false when should-save
    /// declined); nil for other transitions, or when preservation failed.
    public var preservation: PreservationReport?
    /// Entering the background: why preservation failed (the previous archive is kept).
    public var preservationError: AmberError?
    /// The same failure as thrown, unchanged (a host callback's own error, whose code
    /// `preservationError` cannot carry).
    public var preservationFailure: (any Error)?
    /// The first error an observer of the transition's notification threw.
    public var observerError: (any Error)?

    /// Whether nothing went wrong.
    public var succeeded: Bool { preservationError == nil && observerError == nil }
}

extension Engine {
    /// Launches into `state` (inactive or background) when not running; see `launch()`.
    func launch(into state: ApplicationState, defaultSetup: () -> Void) -> RestorationReport {
        if applicationState == .notRunning { applicationState = state }
        delegate.willFinishLaunching?()
        defaultSetup()
        var report = restoreWithoutKeeping()
        delegate.didFinishLaunching?()
        do {
            try notificationCenter.post(name: AppNotification.didFinishLaunching, sender: .engine)
        } catch {
            report.notes.append("an observer of \(AppNotification.didFinishLaunching) failed: \(AmberError.wrapping(error).message)")
        }
        return keepReport(report)
    }

    /// The launch sequence of `launch()`, for a launch into the background (a background fetch,
    /// say): the application goes from not running to background, not to inactive (from C:
    /// `amber_engine_launch` given `AMBER_APP_BACKGROUND`).
    public func launchInBackground(defaultSetup: () -> Void = {}) -> RestorationReport {
        launch(into: .background, defaultSetup: defaultSetup)
    }

    /// Reports a transition of the application's state (SPEC R23); the table of
    /// `ApplicationState` says which are allowed and what the engine does for each:
    ///
    /// - active → inactive: posts will-resign-active (while still active), then changes;
    /// - inactive → active: changes, then posts did-become-active;
    /// - inactive → background: changes, posts did-enter-background, then preserves (`preserve()`:
    ///   only if should-save agrees);
    /// - background → inactive: posts will-enter-foreground, then changes;
    /// - background → not running: posts will-terminate, then changes;
    /// - background ↔ suspended, suspended → not running: changes, posts nothing.
    ///
    /// Once allowed, the transition happens whatever the observers or the preservation do; what
    /// went wrong is in the result.
    /// - Throws: `.misuse` for a transition that is not allowed (the message names both states),
    ///   for leaving not running other than by `launch()`, and for a transition asked while
    ///   another is under way (from one of its observers).
    ///
    /// Backs `amber_engine_transition`.
    @discardableResult
    public func transition(to next: ApplicationState) throws(AmberError) -> TransitionResult {
        let current = applicationState
        if let (from, to) = transitionUnderWay {
            throw AmberError(.misuse, "the transition from \(current) to \(next) was asked while the transition from \(from) to \(to) is under way")
        }
        guard current.allowsTransition(to: next) else {
            let allowed = ApplicationState.allCases.filter { current.allowsTransition(to: $0) }.map(\.description)
            throw AmberError(.misuse, "the application cannot go from \(current) to \(next); from \(current) it can go to \(allowed.joined(separator: ", "))")
        }
        guard current != .notRunning else {
            throw AmberError(.misuse, "the application goes from not running to \(next) by launching: call launch()\(next == .background ? " or launchInBackground()" : "")")
        }
        transitionUnderWay = (current, next)
        defer { transitionUnderWay = nil }
        var result = TransitionResult(from: current, to: next)
        func post(_ name: String) {
            do { try notificationCenter.post(name: name, sender: .engine) } catch {
                if result.observerError == nil { result.observerError = error }
            }
        }
        switch (current, next) {
        case (.active, .inactive):
            post(AppNotification.willResignActive)
            applicationState = next
        case (.inactive, .active):
            applicationState = next
            post(AppNotification.didBecomeActive)
        case (.inactive, .background):
            applicationState = next
            post(AppNotification.didEnterBackground)
            do { result.preservation = try preserve() } catch {
                result.preservationError = AmberError.wrapping(error)
                result.preservationFailure = error
            }
        case (.background, .inactive):
            post(AppNotification.willEnterForeground)
            applicationState = next
        case (.background, .notRunning):
            post(AppNotification.willTerminate)
            applicationState = next
        default:
            applicationState = next
        }
        return result
    }

    /// Reports that the system is short of memory: posts did-receive-memory-warning (sender:
    /// the engine), whatever the state.
    /// - Throws: the first error an observer threw.
    ///
    /// Backs `amber_engine_report_memory_warning`.
    public func reportMemoryWarning() throws {
        try notificationCenter.post(name: AppNotification.didReceiveMemoryWarning, sender: .engine)
    }
}
