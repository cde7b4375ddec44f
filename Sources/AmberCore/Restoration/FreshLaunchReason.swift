/// Why a launch was fresh: nothing was restored (SPEC R9, R16).
public enum FreshLaunchReason: Equatable, Sendable, CustomStringConvertible {
    /// There is no archive (nothing saved, or it was discarded by an earlier launch).
    case noArchive
    /// The delegate's should-restore callback returned false, or there is none (the default is
    /// not to restore). The archive was discarded.
    case shouldRestoreDeclined
    /// The archive could not be read as a restoration archive; the message says why. It was
    /// discarded.
    case corruptArchive(String)
    /// Restoration started and never completed on the two previous launches in a row (the
    /// program died while restoring): the archive was discarded without a third try (SPEC R14).
    case crashLoop
    /// The envelope's key is not available (the device is locked): the archive is kept for a
    /// later launch (SPEC R20).
    case keyUnavailable(String)
    /// The archive did not authenticate (tampered, or sealed with another key). It was discarded.
    case authenticationFailed(String)
    /// The store could not read the archive (an I/O error); the archive is kept.
    case unreadableArchive(String)
    /// The launch guard could not be read or written (an I/O error, or something other than a
    /// regular file at its path): a crash while restoring could not be counted, nor the
    /// archive's consumption recorded, so it is not restored; it is kept for a later launch
    /// (SPEC R14). The message names the guard and the failure.
    case launchGuardUnusable(String)
    /// The archive was saved by another application (its id is not this engine's): it is not
    /// restored, and it is discarded (SPEC R9). The message names both ids.
    case otherApplication(String)
    /// The host discarded the archive (`Engine.discardArchive()`) before this restoration.
    case discardedByHost
    /// A restoration is already under way (re-entered from a callback, or waiting for
    /// extensions to complete): this call restored nothing and changed nothing.
    case restorationInProgress
    /// The last restoration was extended (SPEC R15) and the process ended before the extensions
    /// completed: the archive was discarded without another try, as UIKit does.
    case extendedRestorationUnfinished

    /// A sentence naming the reason.
    public var description: String {
        switch self {
        case .noArchive: return "no archive"
        case .shouldRestoreDeclined: return "should-restore declined"
        case .corruptArchive(let m): return "corrupt archive: \(m)"
        case .crashLoop: return "restoration did not complete on the two previous launches; the archive was discarded"
        case .keyUnavailable(let m): return "key unavailable: \(m)"
        case .authenticationFailed(let m): return "archive did not authenticate: \(m)"
        case .unreadableArchive(let m): return "archive unreadable: \(m)"
        case .launchGuardUnusable(let m): return "launch guard unusable: \(m)"
        case .otherApplication(let m): return "another application's archive: \(m)"
        case .discardedByHost: return "the host discarded the archive"
        case .restorationInProgress: return "a restoration is already in progress"
        case .extendedRestorationUnfinished:
            return "the previous launch's restoration was extended and never completed; the archive was discarded"
        }
    }
}
