/// What autosave tracks between saves (SPEC R32).
struct AutosaveState {
    /// The policy; nil: autosave off.
    var policy: AutosavePolicy?
    /// How many times the host has marked an object dirty.
    var changes: UInt64 = 0
    /// `changes` when the last preservation that completed started: the changes up to it are
    /// saved.
    var savedChanges: UInt64 = 0
    /// When the host last marked an object dirty, on the engine's clock.
    var lastChange: Int64 = 0
    /// When the last preservation ended, saved or failed; nil before the first.
    var lastSave: Int64?
}

extension Engine {
    /// The autosave policy; nil when autosave is off (the default).
    public var autosavePolicy: AutosavePolicy? { autosave.policy }

    /// Sets the autosave policy (SPEC R32); nil turns autosave off. Turning off the reuse of
    /// clean objects' states (or autosave) forgets every state kept for reuse: changes are no
    /// longer marked. Backs `amber_engine_set_autosave`.
    /// - Throws: `.invalidArgument` for a time that is negative or above a day.
    public func setAutosave(_ policy: AutosavePolicy?) throws(AmberError) {
        try policy?.validate()
        if !(policy?.reusesCleanState ?? false) { recordingEpoch &+= 1 }
        autosave.policy = policy
    }

    /// Marks an object's state changed (SPEC R32): autosave then saves after the quiet time,
    /// and a preservation calls its encode callback again rather than reuse what it wrote last
    /// time. Backs `amber_object_mark_dirty`.
    public func markDirty(_ object: RestorableObject) {
        object.stateRecording = nil
        autosave.changes &+= 1
        autosave.lastChange = clock.now()
    }

    /// Whether changes were marked since the last preservation that completed began.
    public var hasUnsavedChanges: Bool { autosave.changes != autosave.savedChanges }

    /// How many milliseconds until autosave is due: 0 when it is due now, nil when nothing is
    /// to be saved (autosave off, or no change since the last save). A host's event loop waits
    /// at most this long, then calls `tick()`. Backs `amber_engine_autosave_timeout`.
    public func autosaveTimeout() -> Int? {
        guard let policy = autosave.policy, hasUnsavedChanges else { return nil }
        var due = autosave.lastChange + Int64(policy.quietMilliseconds)
        if let last = autosave.lastSave { due = max(due, last + Int64(policy.minimumIntervalMilliseconds)) }
        return Int(max(0, due - clock.now()))
    }

    /// Saves if autosave is due (`autosaveTimeout()` is 0); does nothing otherwise, and nothing
    /// while the engine preserves or restores (from a callback). Backs `amber_engine_tick`.
    /// - Returns: whether an archive was written.
    /// - Throws: what `preserve()` throws; the changes stay unsaved and autosave tries again
    ///   after the quiet time and the minimum interval.
    @discardableResult
    public func tick() throws -> Bool {
        guard autosaveTimeout() == 0, activity == .idle else { return false }
        log(.debug) { "autosave: saving" }
        return try preserve().saved
    }

    /// Notes a preservation's end for autosave: a completed one saves the changes marked before
    /// it began; a failed one counts as a change now, so that autosave waits before trying again.
    func notePreservation(changesAtStart: UInt64, completed: Bool) {
        let now = clock.now()
        autosave.lastSave = now
        if completed {
            autosave.savedChanges = changesAtStart
        } else if hasUnsavedChanges {
            autosave.lastChange = now
        }
    }

    /// Whether a preservation may reuse clean objects' states.
    var reusesCleanState: Bool { autosave.policy?.reusesCleanState ?? false }
}
