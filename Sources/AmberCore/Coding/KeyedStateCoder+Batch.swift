import AmberArchive

/// What the engine checks of one value of a batch write before it writes any (SPEC R6, R22):
/// how the value is stored, as far as the limits and the reader care.
public enum BatchValueCheck {
    /// A bool, an integer or a double: always writable.
    case scalar
    /// A date, in seconds since 2001-01-01T00:00:00Z: one every reader takes.
    case date(Double)
    /// A value stored in `length` bytes (an ASCII string, bytes, an index path's packed
    /// integers): within the value limit.
    case length(Int)
    /// A string that may not be ASCII: its stored length within the value limit.
    case string(String)
    /// Any value of Foundation's standard classes, checked as `encode(_:forKey:)` checks it.
    case value(ArchiveValue)
}

extension KeyedStateCoder {
    /// Writes several values all together or not at all (the batch call, SPEC R6): every value
    /// and every key is checked first — each value's limit and date (`BatchValueCheck`), then
    /// the keys all together (none reserved, written before, or given twice) — and only then is
    /// anything written, so that an error writes nothing.
    ///
    /// `entry(i)` gives value `i`'s key and what to check of it; it may throw, for a value it
    /// cannot read. `write(i, key)` writes value `i` under its key once everything is checked,
    /// with this coder's own writes. An error's message starts with `label(i)`, naming the value at fault.
    /// Backs `amber_coder_encode_values`.
    /// - Throws: what `entry` throws; `.limitExceeded` for a value over the limit;
    ///   `.invalidArgument` for a date no reader takes; `.reservedKey`; `.duplicate` for a key
    ///   written before or given twice; `.misuse` outside the coder's callback.
    public func encodeBatch(
        count: Int, keys: inout [ArchiveKey],
        entry: (Int) throws(AmberError) -> (key: ArchiveKey, check: BatchValueCheck),
        write: (Int, ArchiveKey) throws(AmberError) -> Void,
        label: (Int) -> String
    ) throws(AmberError) {
        // `keys` is the caller's scratch, kept from one batch to the next: overwritten in
        // place, and cut to `count` when a previous batch left more.
        if keys.count > count { keys.removeLast(keys.count - count) }
        for i in 0 ..< count {
            do throws(AmberError) {
                let (key, check) = try entry(i)
                if i < keys.count { keys[i] = key } else { keys.append(key) }
                try admit(check, forKey: key.string)
            } catch {
                throw AmberError(error.code, "\(label(i)): \(error.message)")
            }
        }
        try core.checkAll(keys, label: label)
        for i in 0 ..< count { try write(i, keys[i]) }
    }

    /// Writes `values` all together or not at all, as `encodeBatch` does: a key given twice, a
    /// reserved key, a key written before or a value over the limits writes none of them.
    /// - Throws: as `encodeBatch`; the message names the value at fault (`values[i] (key 'k')`).
    public func encodeValues(_ values: [(key: String, value: ArchiveValue)]) throws(AmberError) {
        var keys: [ArchiveKey] = []
        try encodeBatch(
            count: values.count, keys: &keys,
            entry: { i in (ArchiveKey(values[i].key), .value(values[i].value)) },
            write: { i, _ throws(AmberError) in try encode(values[i].value, forKey: values[i].key) },
            label: { i in "values[\(i)] (key '\(values[i].key)')" })
    }

    /// Checks one value of a batch against the limits and the reader, writing nothing.
    private func admit(_ check: BatchValueCheck, forKey key: String) throws(AmberError) {
        switch check {
        case .scalar: break
        case .date(let seconds): try core.admitDate(seconds, forKey: key)
        case .length(let length): try core.admitLength(length, forKey: key)
        case .string(let s): try core.admitString(utf8Count: s.utf8.count, utf16Count: s.utf16.count, forKey: key)
        case .value(let v): try core.admitValue(v, forKey: key)
        }
    }
}
