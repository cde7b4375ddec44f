/// Why `Engine.relaunch(into:tearDown:setUp:)` failed: the step that failed and the error it
/// threw, unchanged (a host callback's own error stays the host's), so that a C host gets its
/// callback's code back and a Swift test can switch on `step` (SPEC R33).
public struct RelaunchError: Error, CustomStringConvertible {
    /// The step of the relaunch that failed.
    public enum Step: String, Sendable {
        /// Entering the background and preserving, before anything was torn down: the engine
        /// relaunched is kept, as it was after the preservation.
        case preserving = "preserving"
        /// The host's tear-down: the engine relaunched is kept; what the tear-down undid is the
        /// host's to know.
        case tearingDown = "the tear-down"
        /// The host's set-up of the new engine, after the old one was torn down: the new engine
        /// is not launched and is given up.
        case settingUp = "the set-up"
    }

    /// The step that failed.
    public var step: Step
    /// What it threw.
    public var underlying: any Error

    /// Creates an error for `step`.
    public init(_ step: Step, _ underlying: any Error) {
        self.step = step
        self.underlying = underlying
    }

    /// The underlying error's message.
    public var message: String {
        if let e = underlying as? AmberError { return e.message }
        return String(describing: underlying)
    }

    /// `relaunch: <step> failed: <message>`.
    public var description: String { "relaunch: \(step.rawValue) failed: \(message)" }
}
