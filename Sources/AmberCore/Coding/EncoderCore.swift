import AmberArchive

/// What `StateCoder` and `AppCoder` share: the archiver positioned on their object, the checks
/// every write goes through (active, not reserved, not written twice), and error conversion.
///
/// A key written twice is found in the object being written (`KeyedArchiver.holdsKey`): the
/// archiver holds the object's keys already, so the coder keeps no list of its own.
final class EncoderCore {
    let archiver: KeyedArchiver
    /// False once the callback the coder was given to has returned.
    var isActive = true
    /// What the coder is for, in messages (for a reused coder, `record` replaces its index).
    private var baseOwner: CoderOwner
    /// The record of a reused preserving coder (-1: `baseOwner` as it is).
    private var record = -1
    /// The keys marked sensitive in this coder (SPEC R34), in the order marked, each once.
    private(set) var sensitiveKeys: [String] = []
    /// The preservation's policy for sensitive values.
    let sensitive: SensitiveValues

    /// Records a referenced object for preservation and gives its record index (SPEC R4).
    let references: (RestorableObject) throws(AmberError) -> Int
    /// The limits restoration reads with: no value written may exceed them (SPEC R22).
    let limits: ArchiveLimits

    init(
        archiver: KeyedArchiver, owner: CoderOwner, limits: ArchiveLimits, sensitive: SensitiveValues,
        references: @escaping (RestorableObject) throws(AmberError) -> Int
    ) {
        self.sensitive = sensitive
        self.archiver = archiver
        self.baseOwner = owner
        self.limits = limits
        self.references = references
    }

    /// Checks that a string, in the bytes the archive stores it in (ASCII bytes, or two bytes
    /// per UTF-16 code unit: `ArchiveLimits.storedLength`), is within the value limit the
    /// reader enforces.
    @inline(__always)
    func admitString(utf8Count: Int, utf16Count: @autoclosure () -> Int, forKey key: String) throws(AmberError) {
        // Stored in at most twice its UTF-8 bytes: the code units are counted only when that is over.
        guard !limits.admitsValue(length: 2 * utf8Count) else { return }
        try admitLength(ArchiveLimits.storedLength(utf8Count: utf8Count, utf16Count: utf16Count()), forKey: key)
    }

    /// Checks that a date is one every reader takes (`ArchiveLimits.dates`).
    @inline(__always)
    func admitDate(_ seconds: Double, forKey key: String) throws(AmberError) {
        guard let problem = ArchiveLimits.dateProblem(seconds) else { return }
        throw invalidValue(problem, key)
    }

    /// Checks that a value of `length` bytes or code units is within the value limit.
    @inline(__always)
    func admitLength(_ length: Int, forKey key: String) throws(AmberError) {
        guard !limits.admitsValue(length: length) else { return }
        throw AmberError(
            .limitExceeded,
            "the value for key '\(key)' is \(length) bytes; the limit is \(limits.maxValueLength) (in the coder of \(owner))")
    }

    /// A value the reader would refuse (SPEC R22).
    private func invalidValue(_ what: String, _ key: String) -> AmberError {
        AmberError(.invalidArgument, "the value for key '\(key)' is \(what), which no reader accepts (in the coder of \(owner))")
    }

    /// Checks every string and data inside a value, and its nesting, against the limits, and
    /// that it is what a reader accepts.
    func admitValue(_ value: ArchiveValue, forKey key: String) throws(AmberError) {
        var stack: [(ArchiveValue, Int)] = [(value, 1)]
        while let (v, depth) = stack.popLast() {
            guard depth <= limits.maxDepth else {
                throw AmberError(.limitExceeded, "the value for key '\(key)' nests deeper than \(limits.maxDepth) (in the coder of \(owner))")
            }
            switch v {
            case .string(let s): try admitString(utf8Count: s.utf8.count, utf16Count: s.utf16.count, forKey: key)
            case .data(let d): try admitLength(d.count, forKey: key)
            case .date(let seconds): try admitDate(seconds, forKey: key)
            case .uuid(let bytes):
                guard bytes.count == 16 else { throw invalidValue("a UUID of \(bytes.count) bytes, not 16", key) }
            case .indexPath(let indexes): try admitLength(ArchiveLimits.storedLength(ofIndexPath: indexes), forKey: key)
            case .indexSet(let ranges):
                try admitLength(ArchiveLimits.storedLength(ofIndexSet: ranges), forKey: key)
                guard ranges.allSatisfy({ $0.lowerBound >= 0 }) else { throw invalidValue("an index set with a negative index", key) }
            case .countedSet(let items):
                try admitLength(items.count, forKey: key)
                guard items.allSatisfy({ $0.count >= 1 }) else { throw invalidValue("a counted set with a count below 1", key) }
                for item in items { stack.append((item.value, depth + 1)) }
            case .array(let items), .set(let items):
                try admitLength(items.count, forKey: key)
                for item in items { stack.append((item, depth + 1)) }
            case .dictionary(let pairs):
                try admitLength(pairs.count, forKey: key)
                for pair in pairs {
                    stack.append((pair.key, depth + 1))
                    stack.append((pair.value, depth + 1))
                }
            default: break
            }
        }
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
        // (Kept empty without a call: emptying an empty array with its capacity makes it a buffer.)
        if !sensitiveKeys.isEmpty { sensitiveKeys.removeAll(keepingCapacity: true) }
    }

    /// Marks `key` sensitive (SPEC R34), before or after it is written.
    /// - Throws: `.misuse` outside the coder's callback; `.reservedKey` for a reserved key;
    ///   `.keyUnavailable` when the archive will not be encrypted: the preservation then writes
    ///   nothing and fails with the same error.
    func markSensitive(_ key: String) throws(AmberError) {
        guard isActive else {
            throw AmberError(.misuse, "the coder of \(owner) was used after its callback returned")
        }
        guard !ReservedKeys.contains(key) else {
            throw AmberError(.reservedKey, "'\(key)' is a reserved key and cannot be marked sensitive (in the coder of \(owner))")
        }
        if key.isEmpty { throw emptyKey() }
        guard sensitive.encrypts else {
            let message = "the key '\(key)' was marked sensitive (in the coder of \(owner)), but the archive would not be encrypted (protection none): a sensitive value is never written unencrypted, so nothing is saved"
            if sensitive.refusal == nil { sensitive.refusal = message }
            throw AmberError(.keyUnavailable, message)
        }
        if !sensitiveKeys.contains(key) { sensitiveKeys.append(key) }
    }

    /// Records the keys marked sensitive under `SensitiveValues.key` in the object the coder
    /// wrote, once its callback has returned.
    func recordSensitiveKeys() {
        guard !sensitiveKeys.isEmpty else { return }
        archiver.encode(.array(sensitiveKeys.map { .string($0) }), forKey: SensitiveValues.key)
    }

    /// Checks that `key` may be written now: the write under it follows.
    @inline(__always)
    func admit(_ key: String) throws(AmberError) {
        try admitName(key)
        guard !archiver.holdsKey(key) else { throw duplicate(key) }
    }

    /// As `admit(_:)` for the key's string. Whether the key is one host code may name (not
    /// reserved, not empty) is worked out once per key and kept with it (`ArchiveKey.verdict`):
    /// the C API's keys are interned, and each is written for every object.
    @inline(__always)
    func admit(_ key: ArchiveKey) throws(AmberError) {
        guard isActive else { throw inactive() }
        try admitNamed(key)
        try admitKeyLength(key.string)
        guard !archiver.holdsKey(key) else { throw duplicate(key.string) }
    }

    /// `ArchiveKey.verdict` of a key host code may name.
    private static let nameAdmitted: UInt8 = 1

    /// Checks that host code may name `key` (not reserved, not empty), unless it was found so
    /// before.
    @inline(__always)
    private func admitNamed(_ key: ArchiveKey) throws(AmberError) {
        if key.verdict == Self.nameAdmitted { return }
        try checkNameable(key.string)
        key.verdict = Self.nameAdmitted
    }

    /// Checks that host code may name `key`: not reserved, not empty.
    @inline(__always)
    private func checkNameable(_ key: String) throws(AmberError) {
        if ReservedKeys.contains(key) { throw reservedKey(key) }
        if key.isEmpty { throw emptyKey() }
    }

    /// Checks what `admit` checks before looking in the object: the coder is active, and the
    /// key is not reserved, not empty and within the limits.
    @inline(__always)
    private func admitName(_ key: String) throws(AmberError) {
        guard isActive else { throw inactive() }
        try checkNameable(key)
        try admitKeyLength(key)
    }

    /// Checks that a key, a string of the archive like any other, is within the value limit
    /// the reader enforces on every string.
    @inline(__always)
    private func admitKeyLength(_ key: String) throws(AmberError) {
        guard !limits.admitsValue(length: 2 * key.utf8.count) else { return }
        let length = ArchiveLimits.storedLength(of: key)
        guard !limits.admitsValue(length: length) else { return }
        throw AmberError(
            .limitExceeded,
            "the key '\(key.prefix(64))…' is \(length) bytes; the limit is \(limits.maxValueLength) (in the coder of \(owner))")
    }

    /// Checks, without writing anything, that `keys` may all be written now, in one go: the coder
    /// is active, and no key is reserved, written before, or given twice. The error is the one
    /// `admit` would give at the first key at fault, its message prefixed by `label(index)`.
    func checkAll(_ keys: [ArchiveKey], label: (Int) -> String) throws(AmberError) {
        guard isActive else { throw inactive() }
        func fail(_ i: Int, _ e: AmberError) -> AmberError { AmberError(e.code, "\(label(i)): \(e.message)") }
        var seen: Set<String>? = keys.count > 16 ? Set(minimumCapacity: keys.count) : nil
        for i in keys.indices {
            do throws(AmberError) { try admitNamed(keys[i]) } catch { throw fail(i, error) }
            do throws(AmberError) { try admitKeyLength(keys[i].string) } catch { throw fail(i, error) }
            if archiver.holdsKey(keys[i]) { throw fail(i, duplicate(keys[i].string)) }
            if seen != nil {
                guard seen!.insert(keys[i].string).inserted else { throw fail(i, twice(keys[i].string)) }
            } else {
                let fingerprint = keys[i].fingerprint
                var j = 0
                while j < i {
                    if keys[j].fingerprint == fingerprint, keys[j].string == keys[i].string { throw fail(i, twice(keys[i].string)) }
                    j += 1
                }
            }
        }
    }

    private func inactive() -> AmberError {
        AmberError(.misuse, "the coder of \(owner) is used after its callback returned")
    }

    private func reservedKey(_ key: String) -> AmberError {
        AmberError(.reservedKey, "the key '\(key)' is reserved by the engine (in the coder of \(owner))")
    }

    /// An empty key, refused for every value (an archive's reader could not name it apart).
    private func emptyKey() -> AmberError {
        AmberError(.invalidArgument, "the key is empty (in the coder of \(owner))")
    }

    private func twice(_ key: String) -> AmberError {
        AmberError(.duplicate, "the key '\(key)' is given twice (in the coder of \(owner))")
    }

    private func duplicate(_ key: String) -> AmberError {
        AmberError(.duplicate, "the key '\(key)' was already encoded in the coder of \(owner)")
    }

    /// Runs a write that may throw, converting the codec's errors.
    func run(_ body: () throws -> Void) throws {
        do { try body() } catch let e as ArchiveError { throw AmberError(e) }
    }
}
