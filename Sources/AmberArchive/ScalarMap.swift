/// A hash map from 64-bit keys to object references, for the writer's uniquing tables.
///
/// Open addressing with linear probing and a multiplicative hash: several times cheaper than a
/// `Dictionary` with its seeded SipHash on the encoder's hot path. The keys come from the
/// program doing the encoding (numbers it stores, identities of its objects), never from a file,
/// so there is no flooding to guard against.
struct ScalarMap {
    private var keys: [UInt64]
    private var values: [Int32]
    private var used = 0
    private var mask: Int
    private var shift: UInt64

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = [UInt64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
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
            let v = values[i]
            if v < 0 || keys[i] == key { return (v, i) }
            i = (i + 1) & mask
        }
    }

    /// Stores a value in the slot `find` returned for a key it did not hold.
    @inline(__always)
    mutating func insert(_ key: UInt64, _ value: Int32, at slot: Int) {
        keys[slot] = key
        values[slot] = value
        used += 1
        if used * 2 > mask { grow() }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let size = (mask + 1) * 2
        keys = [UInt64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        for j in 0 ..< oldKeys.count where oldValues[j] >= 0 {
            var i = slot(oldKeys[j])
            while values[i] >= 0 { i = (i + 1) & mask }
            keys[i] = oldKeys[j]
            values[i] = oldValues[j]
        }
    }
}

/// A hash map from strings to object references, for the writer's string uniquing.
///
/// Keys are compared by their UTF-8 bytes, not by Unicode canonical equivalence as `String`'s
/// `==` does: two spellings of "é" are two strings in a property list, and the file must keep
/// the one the program gave. The hash is FNV-1a over the bytes: the keys come from the program
/// doing the encoding, never from a file.
struct StringMap {
    private var keys: [String]
    private var values: [Int32]
    /// Each slot's hash, compared before the key so that a probe touches a key's bytes (often a
    /// cache miss in a large table) only when the hashes match.
    private var hashes: [UInt32]
    private var used = 0
    private var mask: Int

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = [String](repeating: "", count: size)
        values = [Int32](repeating: -1, count: size)
        hashes = [UInt32](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func hash(_ key: String) -> UInt64 {
        let utf8 = key.utf8
        let bytes = utf8.span
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in bytes.indices { h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01B3 }
        return h ^ (h >> 29)
    }

    @inline(__always)
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        let au = a.utf8, bu = b.utf8
        let x = au.span, y = bu.span
        guard x.count == y.count else { return false }
        for i in x.indices where x[i] != y[i] { return false }
        return true
    }

    /// The value for `key` (-1 if none) and the slot where it is or would go.
    @inline(__always)
    func find(_ key: String) -> (value: Int32, slot: Int) {
        let h = StringMap.hash(key)
        let tag = UInt32(truncatingIfNeeded: h >> 32)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let v = values[i]
            if v < 0 || (hashes[i] == tag && StringMap.sameBytes(keys[i], key)) { return (v, i) }
            i = (i + 1) & mask
        }
    }

    /// Stores a value in the slot `find` returned for a key it did not hold.
    @inline(__always)
    mutating func insert(_ key: String, _ value: Int32, at slot: Int) {
        keys[slot] = key
        values[slot] = value
        hashes[slot] = UInt32(truncatingIfNeeded: StringMap.hash(key) >> 32)
        used += 1
        if used * 2 > mask { grow() }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let oldHashes = hashes
        let size = (mask + 1) * 2
        keys = [String](repeating: "", count: size)
        values = [Int32](repeating: -1, count: size)
        hashes = [UInt32](repeating: 0, count: size)
        mask = size - 1
        for j in 0 ..< oldKeys.count where oldValues[j] >= 0 {
            var i = Int(truncatingIfNeeded: StringMap.hash(oldKeys[j])) & mask
            while values[i] >= 0 { i = (i + 1) & mask }
            keys[i] = oldKeys[j]
            values[i] = oldValues[j]
            hashes[i] = oldHashes[j]
        }
    }
}
