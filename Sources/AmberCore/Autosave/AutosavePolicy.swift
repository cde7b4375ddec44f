/// When the engine saves on its own after the host marks objects dirty (SPEC R32), and whether a
/// preservation re-encodes only the objects marked dirty. Set on the engine with
/// `Engine.setAutosave(_:)`; nil there (the default) turns autosave off. Backs `amber_autosave`.
public struct AutosavePolicy: Equatable, Sendable {
    /// The quiet time used when the host gives none, in milliseconds.
    public static let defaultQuietMilliseconds = 2_000
    /// The shortest time between two saves used when the host gives none, in milliseconds.
    public static let defaultMinimumIntervalMilliseconds = 30_000

    /// How long after the last change (`Engine.markDirty(_:)`) a save is due: a burst of changes
    /// makes one save, after the burst.
    public var quietMilliseconds: Int
    /// The shortest time from one save to the next: a save that the quiet time makes due sooner
    /// waits until then. The transition to the background saves whatever the policy (SPEC R23).
    public var minimumIntervalMilliseconds: Int
    /// Whether a preservation re-encodes only the objects marked dirty since they were last
    /// encoded, reusing what the others' encode callbacks wrote then (`StateRecording`). The
    /// host must then mark every object whose state changes.
    public var reusesCleanState: Bool

    /// A policy; the defaults save two seconds after the last change, at most every thirty
    /// seconds, re-encoding only dirty objects.
    public init(
        quietMilliseconds: Int = AutosavePolicy.defaultQuietMilliseconds,
        minimumIntervalMilliseconds: Int = AutosavePolicy.defaultMinimumIntervalMilliseconds,
        reusesCleanState: Bool = true
    ) {
        self.quietMilliseconds = quietMilliseconds
        self.minimumIntervalMilliseconds = minimumIntervalMilliseconds
        self.reusesCleanState = reusesCleanState
    }

    /// The largest time either may be: a day.
    public static let maximumMilliseconds = 86_400_000

    /// Checks the times.
    /// - Throws: `.invalidArgument` for a negative time or one above a day.
    func validate() throws(AmberError) {
        for (name, value) in [("quiet time", quietMilliseconds), ("minimum interval", minimumIntervalMilliseconds)] {
            guard value >= 0, value <= AutosavePolicy.maximumMilliseconds else {
                throw AmberError(
                    .invalidArgument, "the autosave \(name) is \(value) ms; it must be from 0 to \(AutosavePolicy.maximumMilliseconds) ms")
            }
        }
    }
}

/// The monotonic clock autosave reads, in milliseconds; a test gives the engine its own
/// (`Engine.clock`), so that it needs not sleep.
public struct MonotonicClock: Sendable {
    /// The time now, in milliseconds from an arbitrary start.
    public let now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) { self.now = now }

    /// The system's monotonic clock (`CLOCK_MONOTONIC`).
    public static let system = MonotonicClock { Int64(FileSystem.monotonicSeconds() * 1000) }
}
