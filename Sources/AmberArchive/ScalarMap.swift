/// A hash map from 64-bit keys to object references, for the writer's uniquing tables.
///
/// Open addressing with linear probing and a multiplicative hash: several times cheaper than a
/// `Dictionary` with its seeded SipHash on the encoder's hot path. The keys come from the
/// program doing the encoding (numbers it stores, identities of its objects), never from a file,
/// so there is no flooding to guard against.
struct ScalarMap {
    /// A key and its value side by side, so that a probe touches one cache line, not two.
    struct Slot {
        var key: UInt64
        var value: Int32
    }

    private var slots: [Slot]
    private var used = 0
    private var mask: Int
    private var shift: UInt64

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Slot](repeating: Slot(key: 0, value: -1), count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: ((key ^ (key >> 29)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value for `key` (-1 if none) and the slot where it is or would go.
    @inline(__always)
    func find(_ key: UInt64) -> (value: Int32, slot: Int) {
        var i = slot(key)
        while true {
            let s = slots[i]
            if s.value < 0 || s.key == key { return (s.value, i) }
            i = (i + 1) & mask
        }
    }

    /// Stores a value in the slot `find` returned for a key it did not hold.
    @inline(__always)
    mutating func insert(_ key: UInt64, _ value: Int32, at slot: Int) {
        slots[slot] = Slot(key: key, value: value)
        used += 1
        if used * 2 > mask { grow() }
    }

    private mutating func grow() {
        let old = slots
        let size = (mask + 1) * 2
        slots = [Slot](repeating: Slot(key: 0, value: -1), count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for s in old where s.value >= 0 {
            var i = slot(s.key)
            while slots[i].value >= 0 { i = (i + 1) & mask }
            slots[i] = s
        }
    }
}

/// A hash set of the strings of an object table, for the writer's string uniquing: it maps a
/// string to the reference of its object, and keeps no copy of the strings (the table holds their
/// bytes), so a table of a million strings costs no retains and releases.
///
/// Strings are compared by code units, not by Unicode canonical equivalence as `String`'s `==`
/// does: two spellings of "é" are two strings in a property list, and the file must keep the one
/// the program gave. The hash is FNV-1a over the UTF-8 bytes: the keys come from the program
/// doing the encoding, never from a file.
struct StringMap {
    /// Each slot: the object reference plus one in the low half (0: empty), the string's hash
    /// in the high half, compared before the string itself so that a probe touches the string's
    /// bytes only when the hashes match. One word a slot, one cache line a probe.
    private var slots: [UInt64]
    private var used = 0
    private var mask: Int

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    static func hash(_ key: String) -> UInt64 {
        let utf8 = key.utf8
        let bytes = utf8.span
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in bytes.indices { h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01B3 }
        return h ^ (h >> 29)
    }

    /// The same hash of UTF-8 bytes.
    static func hash(bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h ^ (h >> 29)
    }

    /// The reference of `key` (-1 if none), the slot where it is or would go, and its hash;
    /// `matches` says whether the string object of a reference is `key`.
    @inline(__always)
    func find(_ key: String, matches: (Int32) -> Bool) -> (ref: Int32, slot: Int, hash: UInt32) {
        let h = StringMap.hash(key)
        let tag = UInt32(truncatingIfNeeded: h >> 32)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return (-1, i, tag) }
            if UInt32(truncatingIfNeeded: s >> 32) == tag {
                let ref = Int32(truncatingIfNeeded: s) - 1
                if matches(ref) { return (ref, i, tag) }
            }
            i = (i + 1) & mask
        }
    }

    /// Records `ref` in the slot `find` returned for a string it did not hold. Then, if
    /// `isFull`, the caller grows the table.
    @inline(__always)
    mutating func insert(_ ref: Int32, hash: UInt32, at slot: Int) {
        slots[slot] = UInt64(hash) << 32 | UInt64(UInt32(ref) + 1)
        used += 1
    }

    /// Whether the table must grow before the next `find`.
    var isFull: Bool { used * 2 > mask }

    /// Doubles the table; `hashOf` gives the hash of a reference's string.
    mutating func grow(_ hashOf: (Int32) -> UInt64) {
        let old = slots
        let size = (mask + 1) * 2
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        for s in old where s != 0 {
            let ref = Int32(truncatingIfNeeded: s) - 1
            var i = Int(truncatingIfNeeded: hashOf(ref)) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = s
        }
    }
}
