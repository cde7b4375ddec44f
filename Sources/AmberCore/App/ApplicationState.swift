/// The states of an application, as UIKit has them (SPEC R23).
///
/// | state        | visible | receives events | runs code |
/// |--------------|---------|-----------------|-----------|
/// | notRunning   | no      | no              | no        |
/// | inactive     | mostly  | no              | yes       |
/// | active       | yes     | yes             | yes       |
/// | background   | no      | no              | yes       |
/// | suspended    | no      | no              | no        |
///
/// The transitions allowed (`allowsTransition(to:)`), with what the engine does for each:
///
/// | from        | to          | meaning                      | the engine                                   |
/// |-------------|-------------|------------------------------|----------------------------------------------|
/// | notRunning  | inactive    | launch                       | `Engine.launch()`: the launch sequence       |
/// | notRunning  | background  | launch into the background   | `Engine.launch(into: .background)`           |
/// | inactive    | active      | did become active            | posts did-become-active after the change     |
/// | active      | inactive    | will resign active           | posts will-resign-active before the change   |
/// | inactive    | background  | did enter background         | posts did-enter-background, then preserves   |
/// | background  | inactive    | will enter foreground        | posts will-enter-foreground before the change |
/// | background  | suspended   | the system suspends          | nothing                                      |
/// | suspended   | background  | the system wakes it          | nothing                                      |
/// | background  | notRunning  | terminate                    | posts will-terminate before the change       |
/// | suspended   | notRunning  | killed while suspended       | nothing (no code runs in a suspended app)    |
///
/// Every other pair, and a state to itself, is refused.
public enum ApplicationState: Int, Sendable, CaseIterable, CustomStringConvertible {
    case notRunning = 0
    case inactive = 1
    case active = 2
    case background = 3
    case suspended = 4

    /// The state's name as the header spells it: "not running", "inactive", "active",
    /// "background", "suspended".
    public var description: String {
        switch self {
        case .notRunning: "not running"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .suspended: "suspended"
        }
    }

    /// Whether UIKit goes from this state to `next` directly (the table above).
    public func allowsTransition(to next: ApplicationState) -> Bool {
        switch (self, next) {
        case (.notRunning, .inactive), (.notRunning, .background),
             (.inactive, .active), (.active, .inactive),
             (.inactive, .background), (.background, .inactive),
             (.background, .suspended), (.suspended, .background),
             (.background, .notRunning), (.suspended, .notRunning):
            true
        default:
            false
        }
    }

    /// Whether code runs in this state (inactive, active, background).
    public var isRunning: Bool { self == .inactive || self == .active || self == .background }
}
