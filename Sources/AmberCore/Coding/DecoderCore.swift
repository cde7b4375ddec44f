import AmberArchive

/// What `StateDecoder` and `AppDecoder` share: the unarchiver, the object they read, the
/// validity check and error conversion.
final class DecoderCore {
    let unarchiver: KeyedUnarchiver
    /// The UID of the object read (the object's nested state, or the application state).
    private(set) var uid: Int
    /// False outside the callback the decoder was given to.
    var isActive = true
    /// What the decoder is for, in messages (for a reused decoder, `record` replaces its record).
    private let baseOwner: CoderOwner
    /// The record of a reused restoring decoder (-1: `baseOwner` as it is). An index, not a
    /// new `CoderOwner`: making one per record would retain and release the session each time.
    private var record = -1
    /// The restore it belongs to, for references (SPEC R4). A state decoder holds its session
    /// anyway (`StateDecoder.session`); the application decoder, which the session holds, has
    /// it only while one of its callbacks runs (`RestoreSession.withApplicationDecoder`). Not
    /// weak: a weak reference gives the session a side table, and every retain and release of
    /// it then takes the slow path.
    var session: RestoreSession?

    init(unarchiver: KeyedUnarchiver, uid: Int, owner: CoderOwner) {
        self.unarchiver = unarchiver
        self.uid = uid
        self.baseOwner = owner
    }

    /// What the decoder is for, in messages.
    var owner: CoderOwner {
        guard record >= 0 else { return baseOwner }
        switch baseOwner {
        case .restoring(let session, _): return .restoring(session, record)
        case .migrating(let session, _): return .migrating(session, record)
        case .application, .preserving: return baseOwner
        }
    }

    /// Reads another record's object, active again (`StateDecoder.reuse(record:)`).
    func reset(uid: Int, record: Int) {
        self.uid = uid
        self.record = record
        isActive = true
    }

    func requireActive() throws(AmberError) {
        guard isActive else {
            throw AmberError(.misuse, "the decoder of \(owner) is used outside its callback")
        }
    }

    /// Checks that `key` may be read now: the decoder is active and the key is not empty (no
    /// coder writes an empty key, so asking for one is refused as writing one is).
    @inline(__always)
    func admit(_ key: String) throws(AmberError) {
        try requireActive()
        guard !key.isEmpty else { throw AmberError(.invalidArgument, "the key is empty (in the decoder of \(owner))") }
    }

    /// As `read(_:)`, for a value under `key` (checked by `admit`).
    @inline(__always)
    func read<T>(forKey key: String, _ body: (KeyedUnarchiver) throws -> T) throws(AmberError) -> T {
        try admit(key)
        return try read(body)
    }

    /// Runs `body` with the unarchiver positioned on this decoder's object (it already is while
    /// the engine runs this decoder's callback; another decoder's call moves it for the read).
    @inline(__always)
    func read<T>(_ body: (KeyedUnarchiver) throws -> T) throws(AmberError) -> T {
        try requireActive()
        do {
            if unarchiver.currentObjectUID == uid { return try body(unarchiver) }
            return try unarchiver.withObject(uid: uid) { u, _ in try body(u) }
        } catch {
            throw AmberError.wrapping(error)
        }
    }

    /// As `read`, but errors that are not the codec's or the engine's pass up unchanged (a
    /// coding class's closures are host code).
    func readPassingHostErrors<T>(_ body: (KeyedUnarchiver) throws -> T) throws -> T {
        try requireActive()
        do {
            if unarchiver.currentObjectUID == uid { return try body(unarchiver) }
            return try unarchiver.withObject(uid: uid) { u, _ in try body(u) }
        } catch let e as ArchiveError {
            throw AmberError(e)
        }
    }

    func containsValue(forKey key: String) -> Bool {
        (try? read { $0.containsValue(forKey: key) }) ?? false
    }

    func allKeys() -> [String] {
        (try? read { $0.allKeys() }) ?? []
    }
}
