import AmberArchive

/// Interns the keys a host gives as bytes (the C API's coders and decoders): a host writes
/// and reads the same few keys for every object, and finding a short key's bytes among the keys
/// already made costs less than making its string again. Each key is made once as an
/// `ArchiveKey`, which then finds itself again in the archive by reference.
///
/// A slot holds an ASCII key of 1 to 15 bytes, its bytes in two words (zero beyond the key, so
/// a key's words equal a slot's only for the same bytes); a key is looked for in 4 slots from
/// the one its hash picks, and replaces the first of them when all 4 are taken. Other keys are
/// not interned: `key(utf8:)` gives nil for them, and the caller makes the key from its
/// checked string. Used by one thread at a time.
public struct KeyInterner {
    private var keys = [ArchiveKey?](repeating: nil, count: KeyInterner.slots)
    private var words = [UInt64](repeating: 0, count: 2 * KeyInterner.slots)
    private static let slots = 64

    public init() {}

    /// The interned key for `utf8` when it is 1 to 15 ASCII bytes, none of them zero (made the
    /// first time), else nil.
    @inline(__always)
    public mutating func key(utf8: Span<UInt8>) -> ArchiveKey? {
        let n = utf8.count
        guard n > 0, n < 16 else { return nil }
        guard let (lo, loHigh) = Self.word(utf8, 0 ..< min(n, 8)),
              let (hi, hiHigh) = Self.word(utf8, min(n, 8) ..< n),
              (loHigh | hiHigh) < 0x80
        else { return nil }
        return key(lo: lo, hi: hi, count: n)
    }

    /// The interned key whose `count` bytes are in `lo` and `hi`, the first in the lowest byte
    /// of `lo` (made the first time). The caller has checked what `key(utf8:)` checks: 1 to 15
    /// bytes, all ASCII, none zero, and the words zero beyond them. For the C layer, which reads
    /// a C string's bytes straight into the words as it finds its end.
    @inline(__always)
    package mutating func key(lo: UInt64, hi: UInt64, count n: Int) -> ArchiveKey {
        let home = Int(truncatingIfNeeded: ((lo &* 0x9E37_79B9_7F4A_7C15 ^ hi) &* 0xFF51_AFD7_ED55_8CCD) >> 58)
        var slot = home
        for _ in 0 ..< 4 {
            let w = words[slot &* 2]
            if w == lo, words[slot &* 2 &+ 1] == hi, let key = keys[slot] { return key }
            if w == 0 { break }  // an empty slot: the key is not further on
            slot = (slot &+ 1) & (Self.slots - 1)
        }
        if words[slot &* 2] != 0 { slot = home }  // all 4 taken: the key replaces the first
        let made = ArchiveKey(Self.string(lo: lo, hi: hi, count: n))
        keys[slot] = made
        words[slot &* 2] = lo
        words[slot &* 2 &+ 1] = hi
        return made
    }

    /// The key held in two words (as `key(lo:hi:count:)` takes them).
    private static func string(lo: UInt64, hi: UInt64, count n: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(n)
        for i in 0 ..< n {
            let word = i < 8 ? lo : hi
            bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * (i & 7))))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytes `range` of `utf8` (at most 8) in a word, the first in the lowest byte, and their
    /// high bits; nil if one of them is zero (zero stands for "beyond the key" in a slot).
    @inline(__always)
    private static func word(_ utf8: Span<UInt8>, _ range: Range<Int>) -> (UInt64, high: UInt8)? {
        var word: UInt64 = 0
        var high: UInt8 = 0
        var shift: UInt64 = 0
        for i in range {
            let b = utf8[i]
            if b == 0 { return nil }
            word |= UInt64(b) &<< shift
            high |= b
            shift &+= 8
        }
        return (word, high)
    }
}
