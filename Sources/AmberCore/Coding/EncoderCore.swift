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
    /// What the coder is for, in messages.
    @exclusivity(unchecked) private(set) var owner: CoderOwner
    /// Keys written so far, to refuse a second write (a list: objects write few keys).
    @exclusivity(unchecked) private var written: [String] = []
    @exclusivity(unchecked) private var writtenSet: Set<String>?

    init(archiver: KeyedArchiver, owner: CoderOwner) {
        self.archiver = archiver
        self.owner = owner
    }

    /// Makes the core new again for another owner (a coder reused for the next object, once
    /// nothing else holds it): active, no key written, the list's storage kept.
    func reset(owner: CoderOwner) {
        self.owner = owner
        isActive = true
        written.removeAll(keepingCapacity: true)
        writtenSet = nil
    }

    /// Checks that `key` may be written now, and remembers it.
    @inline(__always)
    func admit(_ key: String) throws(AmberError) {
        guard isActive else {
            throw AmberError(.misuse, "the coder of \(owner) is used after its callback returned")
        }
        if ReservedKeys.contains(key) {
            throw AmberError(.reservedKey, "the key '\(key)' is reserved by the engine (in the coder of \(owner))")
        }
        if writtenSet != nil {
            guard writtenSet!.insert(key).inserted else { throw duplicate(key) }
            return
        }
        for k in written where k == key { throw duplicate(key) }
        if written.isEmpty { written.reserveCapacity(9) }  // one allocation, not four
        written.append(key)
        if written.count > 8 {
            writtenSet = Set(written)
            written = []
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
