/// A hash map from 64-bit keys to references, for the codec's class tables: the archiver's
/// class descriptions by name reference, the unarchiver's by description UID (one lookup per
/// object decoded).
///
/// Open addressing with linear probing and a multiplicative hash, cheaper than a `Dictionary`
/// with its seeded SipHash. The archiver's keys come from the program encoding; the
/// unarchiver's are UIDs an archive names, each below its object count (`ArchiveLimits`), so a
/// hostile archive can lengthen probes only within that bound.
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
