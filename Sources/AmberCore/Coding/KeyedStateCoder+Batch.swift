import AmberArchive

/// What the engine checks of one value of a batch write before it writes any (SPEC R6, R22):
/// how the value is stored, as far as the limits and the reader care. Its payloads are plain
/// numbers, so that describing a value costs no reference counting.
public enum BatchValueCheck {
    /// A bool, an integer or a double: always writable.
    case scalar
    /// A date, in seconds since 2001-01-01T00:00:00Z: one every reader takes.
    case date(Double)
    /// A value stored in `length` bytes (an ASCII string, bytes, an index path's packed
    /// integers): within the value limit.
    case length(Int)
    /// A string of `utf8Count` UTF-8 bytes and `utf16Count` UTF-16 code units: its stored
    /// length within the value limit.
    case string(utf8Count: Int, utf16Count: Int)
}

extension KeyedStateCoder {
    /// Checks, writing nothing, that a batch of values may be written all together (the batch
    /// call, SPEC R6): each value against the limits and the reader (`checks[i]`, under
    /// `keys[i]`), then the keys all together (none reserved, written before, or given twice).
    /// A batch is written only once this returns, so that an error writes nothing; then each
    /// value's write cannot be refused. An error's message starts with `label(i)`, naming the
    /// value at fault. Backs `amber_coder_encode_values`, whose values are read and written by
    /// the C layer (it has the bytes, which need not become Swift values first).
    /// - Throws: `.limitExceeded` for a value over the limit; `.invalidArgument` for a date no
    ///   reader takes; `.reservedKey`; `.duplicate` for a key written before or given twice;
    ///   `.misuse` outside the coder's callback.
    public func checkBatch(_ keys: [ArchiveKey], _ checks: [BatchValueCheck], label: (Int) -> String) throws(AmberError) {
        for i in 0 ..< min(keys.count, checks.count) {
            do throws(AmberError) { try admit(checks[i], forKey: keys[i].string) } catch {
                throw AmberError(error.code, "\(label(i)): \(error.message)")
            }
        }
        try core.checkAll(keys, label: label)
    }

    /// Writes `values` all together or not at all, checked as `checkBatch` checks a batch: a
    /// key given twice, a reserved key, a key written before or a value over the limits writes
    /// none of them.
    /// - Throws: as `checkBatch`; the message names the value at fault (`values[i] (key 'k')`).
    public func encodeValues(_ values: [(key: String, value: ArchiveValue)]) throws(AmberError) {
        let label = { (i: Int) in "values[\(i)] (key '\(values[i].key)')" }
        for (i, v) in values.enumerated() {
            // A value of any of Foundation's classes is checked whole, as a single write checks it.
            do throws(AmberError) { try core.admitValue(v.value, forKey: v.key) } catch {
                throw AmberError(error.code, "\(label(i)): \(error.message)")
            }
        }
        try checkBatch(values.map { ArchiveKey($0.key) }, Array(repeating: .scalar, count: values.count), label: label)
        for v in values { try encode(v.value, forKey: v.key) }
    }

    /// Checks one value of a batch against the limits and the reader, writing nothing.
    private func admit(_ check: BatchValueCheck, forKey key: String) throws(AmberError) {
        switch check {
        case .scalar: break
        case .date(let seconds): try core.admitDate(seconds, forKey: key)
        case .length(let length): try core.admitLength(length, forKey: key)
        case .string(let utf8Count, let utf16Count): try core.admitString(utf8Count: utf8Count, utf16Count: utf16Count, forKey: key)
        }
    }
}
