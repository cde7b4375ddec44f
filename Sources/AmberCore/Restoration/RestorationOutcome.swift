/// What became of one archived object at restoration (SPEC R16).
public enum RestorationOutcome: Equatable, Sendable, CustomStringConvertible {
    /// Found, of the archived class, decoded and told it finished restoring.
    case restored
    /// Its restoration class's make callback returned none: neither it nor anything under it
    /// was restored.
    case declinedByClass
    /// No step of the lookup chain provided it (SPEC R10); the objects under it were still
    /// looked up on their own.
    case notFound
    /// The object found is not of the archived class or a registered subclass of it (or not of
    /// the archived kind): it is kept, but its state was not decoded (SPEC R11).
    case classMismatch
    /// Not looked up: an object above it was declined by its restoration class.
    case leftOut
    /// The object was found but a callback failed: its make callback or factory threw, or its
    /// decode callback did. The message says which and why.
    case decodeError(String)
    /// The object found had already been restored for another record of the archive (a
    /// damaged archive, or a lookup that returned the same object twice): it is not decoded again.
    case duplicate
    /// Its record was of an older version of its class's state (SPEC R30): the class's migrate
    /// callback turned it into the current version, and the object was then found, decoded from
    /// the migrated state and told it finished restoring, as a restored one is.
    case migrated(from: Int, to: Int)
    /// Its record was of a newer version than its class declares, or of an older one that the
    /// class does not migrate or whose migrate callback declined (SPEC R30): neither it nor
    /// anything under it was restored, as for `declinedByClass`.
    case declinedVersion

    /// Whether the object was decoded and told it finished restoring: `restored`, or
    /// `migrated` and then restored.
    public var isRestored: Bool {
        switch self {
        case .restored, .migrated: return true
        default: return false
        }
    }

    /// A short name: `restored`, `declined by class`, `not found`, `class mismatch`, `left out`,
    /// `decode error: …`, `duplicate`, `migrated (from 1 to 2)`, `declined: version`.
    public var description: String {
        switch self {
        case .restored: return "restored"
        case .declinedByClass: return "declined by class"
        case .notFound: return "not found"
        case .classMismatch: return "class mismatch"
        case .leftOut: return "left out"
        case .decodeError(let m): return "decode error: \(m)"
        case .duplicate: return "duplicate"
        case .migrated(let from, let to): return "migrated (from \(from) to \(to))"
        case .declinedVersion: return "declined: version"
        }
    }
}
