import AmberArchive

/// What `StateCoder` and `AppCoder` share: the archiver positioned on their object, the checks
/// every write goes through (active, not reserved, not written twice), and error conversion.
///
/// Its stored properties skip the run-time exclusivity check: they are accessed only inside
/// its own methods and the engine's, never across a call to host code.
final class EncoderCore {
    let archiver: KeyedArchiver
    /// False once the callback the coder was given to has returned.
    @exclusivity(unchecked) var isActive = true
    /// What the coder is for, in messages (for a reused coder, `record` replaces its index).
    @exclusivity(unchecked) private var baseOwner: CoderOwner
    /// The record of a reused preserving coder (-1: `baseOwner` as it is).
    @exclusivity(unchecked) private var record = -1
    /// Keys written so far, to refuse a second write (a list: objects write few keys): the
    /// first `writtenCount` of `written` (the rest are left over from a previous owner).
    @exclusivity(unchecked) private var written: [String] = []
    /// `CoderKey.fingerprint(of:)` of each of `written`.
    @exclusivity(unchecked) private var writtenFingerprints: [UInt64] = []
    @exclusivity(unchecked) private var writtenCount = 0
    @exclusivity(unchecked) private var writtenSet: Set<String>?

    init(archiver: KeyedArchiver, owner: CoderOwner) {
        self.archiver = archiver
        self.baseOwner = owner
    }

    /// What the coder is for, in messages.
    var owner: CoderOwner {
        if record >= 0, case .preserving(let pass, _) = baseOwner { return .preserving(pass, record) }
        return baseOwner
    }

    /// Makes a preserving core new again for another record of its pass (a coder reused for
    /// the next object, once nothing else holds it): active, no key written, storage kept.
    func reset(record: Int) {
        self.record = record
        isActive = true
        writtenCount = 0
        writtenSet = nil
    }

    /// Checks that `key` may be written now, and remembers it.
    @inline(__always)
    func admit(_ key: String) throws(AmberError) {
        try admit(key, reserved: ReservedKeys.contains(key), fingerprint: CoderKey.fingerprint(of: key))
    }

    /// As `admit(_:)` for the key's string, with what was checked of it once.
    @inline(__always)
    func admit(_ key: CoderKey) throws(AmberError) {
        try admit(key.string, reserved: key.isReserved, fingerprint: key.fingerprint)
    }

    @inline(__always)
    private func admit(_ key: String, reserved: Bool, fingerprint: UInt64) throws(AmberError) {
        guard isActive else {
            throw AmberError(.misuse, "the coder of \(owner) is used after its callback returned")
        }
        if reserved {
            throw AmberError(.reservedKey, "the key '\(key)' is reserved by the engine (in the coder of \(owner))")
        }
        if writtenSet != nil {
            guard writtenSet!.insert(key).inserted else { throw duplicate(key) }
            return
        }
        // Keys with different fingerprints differ; equal fingerprints are compared.
        var i = 0
        while i < writtenCount {
            if writtenFingerprints[i] == fingerprint, written[i] == key { throw duplicate(key) }
            i += 1
        }
        if writtenCount < written.count {
            written[writtenCount] = key
            writtenFingerprints[writtenCount] = fingerprint
        } else {
            if written.isEmpty {  // one allocation each, not four
                written.reserveCapacity(9)
                writtenFingerprints.reserveCapacity(9)
            }
            written.append(key)
            writtenFingerprints.append(fingerprint)
        }
        writtenCount += 1
        if writtenCount > 8 {
            writtenSet = Set(written[0 ..< writtenCount])
            written = []
            writtenFingerprints = []
            writtenCount = 0
        }
    }

    private func duplicate(_ key: String) -> AmberError {
        AmberError(.duplicate, "the key '\(key)' was already encoded in the coder of \(owner)")
    }

    /// Runs a write that may throw, converting the codec's errors.
    func run(_ body: () throws -> Void) throws {
        do { try body() } catch let e as ArchiveError { throw AmberError(e) }
    }
}
