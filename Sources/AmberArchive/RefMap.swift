/// A hash set of the objects of a table, for the writer's uniquing of strings, numbers and object
/// identities: it maps a value to a reference (of its object, or to where the caller keeps it)
/// and keeps no copy of the value; the caller compares values (`matches`).
///
/// The layout keeps the encoder's misses few when the tables outgrow the caches (hundreds of
/// thousands of values). The table is made of groups of eight words, 64 bytes, one cache line's
/// worth (line-aligned when the array's storage happens to be: pure Swift cannot ask for it): a
/// control word, then seven slots. The control word has a byte per slot, 0 when empty, else
/// 0x80 and seven bits of the value's hash (its eighth byte is unused); a slot is read only
/// when its control byte matches (a value met before, or 1 in 128 by chance). A probe and an
/// insertion touch one group, the control word and the slot side by side: when the control words
/// were a table apart from the slots, each new value cost two cold lines, and on x86 the host's
/// reference counts (atomic writes) wait for every write before them, the slot's included.
/// Each slot holds the reference plus one and a 32-bit tag, the high half of the hash, whose high bits also choose the group: the table grows by
/// rehashing the tags it holds, without reading any value again. Linear probing by group, at
/// most 4/5 full, and sized to what it is asked to hold rather than to a power of two (smaller
/// tables, less to share the last-level cache with). The hashes are of values the program encoding gives (strings, numbers,
/// object identities), never of a file's contents.
struct RefMap {
    /// The groups, eight words each: the control word, then seven slots.
    private var words: [UInt64]
    /// The number of values held.
    private(set) var used = 0
    /// How many times the table has grown by rehashing (`reserve` included).
    private(set) var growths = 0
    private var limit: Int
    /// The number of groups (any number: a tag's group is `tag * groups >> 32`, so that the
    /// table is sized to what it holds, not to the next power of two).
    private var groups: Int

    /// `capacity`: how many values to hold before the first growth.
    init(capacity: Int = 8) {
        let groups = RefMap.groups(holding: max(capacity, 8))
        words = [UInt64](repeating: 0, count: groups * 8)
        limit = groups * 7 * 4 / 5
        self.groups = groups
    }

    private static let lows: UInt64 = 0x0001_0101_0101_0101
    private static let highs: UInt64 = 0x0080_8080_8080_8080

    /// The control byte of a tag: its low seven bits (independent of the high bits that choose
    /// the group, for any table below 2^25 groups).
    @inline(__always)
    private static func controlByte(_ tag: UInt32) -> UInt64 { UInt64(0x80 | (tag & 0x7F)) }

    /// The reference of the value whose hash is `hash` and for which `matches` is true (-1 if
    /// none), the slot where it is or would go, and the tag to insert it with.
    @inline(__always)
    func find(hash: UInt64, matches: (Int32) -> Bool) -> (ref: Int32, slot: Int, tag: UInt32) {
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        let pattern = RefMap.controlByte(tag) &* RefMap.lows
        var g = group(tag)
        while true {
            let c = words[g &* 8]
            // The bytes of c equal to the pattern's: zero bytes of x, found exactly (the eighth
            // byte, unused, never matches: its high bit is clear in `highs`).
            let x = c ^ pattern
            var m = ~(((x & ~RefMap.highs) &+ ~RefMap.highs) | x | ~RefMap.highs)
            while m != 0 {
                let slot = g &* 8 &+ 1 &+ (m.trailingZeroBitCount >> 3)
                let s = words[slot]
                if UInt32(truncatingIfNeeded: s >> 32) == tag {
                    let ref = Int32(truncatingIfNeeded: s) &- 1
                    if matches(ref) { return (ref, slot, tag) }
                }
                m &= m &- 1
            }
            // Slots fill in order and are never emptied: the first empty one ends the probe.
            let empty = ~c & RefMap.highs
            if empty != 0 { return (-1, g &* 8 &+ 1 &+ (empty.trailingZeroBitCount >> 3), tag) }
            g &+= 1
            if g == groups { g = 0 }
        }
    }

    /// The group where a tag's probe starts.
    @inline(__always)
    private func group(_ tag: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(tag) &* UInt64(truncatingIfNeeded: groups)) >> 32)
    }

    /// The fewest groups that hold `capacity` values at most 4/5 full.
    private static func groups(holding capacity: Int) -> Int {
        (capacity * 5 + 27) / 28 + 1
    }

    /// Grows the table until it holds `capacity` values before growing again (by the same
    /// rehashing as growth: no value is read).
    mutating func reserve(_ capacity: Int) {
        guard limit < capacity, groups < 1 << 24 else { return }
        grow(to: min(RefMap.groups(holding: capacity), 1 << 24))  // at once to its final size
    }

    /// Records `ref` in the slot `find` returned for a value it did not hold.
    @inline(__always)
    mutating func insert(_ ref: Int32, tag: UInt32, at slot: Int) {
        words[slot] = UInt64(tag) << 32 | UInt64(UInt32(bitPattern: ref) &+ 1)
        words[slot & ~7] |= RefMap.controlByte(tag) << UInt64(((slot & 7) &- 1) &* 8)
        used += 1
        if used > limit { grow() }
    }

    /// Replaces the reference in a slot `find` returned for a value it holds.
    @inline(__always)
    mutating func replace(_ ref: Int32, at slot: Int) {
        words[slot] = words[slot] & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(bitPattern: ref) &+ 1)
    }

    private mutating func grow() { grow(to: groups * 2) }

    /// Rehashes the table into `groups` groups (more than it has), by the tags it holds.
    private mutating func grow(to groups: Int) {
        growths += 1
        let old = words
        words = [UInt64](repeating: 0, count: groups * 8)
        limit = groups * 7 * 4 / 5
        self.groups = groups
        for (i, s) in old.enumerated() where i & 7 != 0 && s != 0 {
            let tag = UInt32(truncatingIfNeeded: s >> 32)
            var g = group(tag)
            while true {
                let empty = ~words[g * 8] & RefMap.highs
                if empty != 0 {
                    let k = empty.trailingZeroBitCount >> 3
                    words[g * 8 + 1 + k] = s
                    words[g * 8] |= RefMap.controlByte(tag) << UInt64(k * 8)
                    break
                }
                g += 1
                if g == groups { g = 0 }
            }
        }
    }

    /// A 64-bit hash of a 64-bit value (the finalizer of MurmurHash3).
    @inline(__always)
    static func hash(_ key: UInt64) -> UInt64 {
        var h = key
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    /// A 64-bit hash of bytes, eight at a time.
    @inline(__always)
    static func hash(_ bytes: Span<UInt8>) -> UInt64 {
        let n = bytes.count
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: n &+ 1)
        var i = 0
        while i &+ 8 <= n {
            var w: UInt64 = 0
            for k in 0 ..< 8 { w |= UInt64(bytes[i &+ k]) << UInt64(8 &* k) }
            h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            i &+= 8
        }
        if i < n {
            var w: UInt64 = 0
            var k: UInt64 = 0
            while i < n {
                w |= UInt64(bytes[i]) << k
                k &+= 8
                i &+= 1
            }
            h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
        }
        return hash(h)
    }
}
