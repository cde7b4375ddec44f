/// Whose coder a coder is, for messages; the path is only spelled out when a message needs it.
enum CoderOwner: CustomStringConvertible {
    case application
    case preserving(PreservationPass, Int)
    case restoring(RestoreSession, Int)
    /// The migration of a record's state (SPEC R30).
    case migrating(RestoreSession, Int)

    var description: String {
        switch self {
        case .application: return "the application"
        case .preserving(let pass, let i): return "'/" + pass.path(ofRecord: i).joined(separator: "/") + "'"
        case .restoring(let session, let i): return "'/" + session.path(ofRecord: i).joined(separator: "/") + "'"
        case .migrating(let session, let i): return "'/" + session.path(ofRecord: i).joined(separator: "/") + "' (migrating)"
        }
    }
}
