import Testing
@testable import AmberArchive

/// `ScalarMap`, the codec's map from 64-bit keys to references: it finds every value it was
/// given, through its growth and for keys whose hashes collide in the low bits.
@Suite struct ScalarMapTests {
    // R26
    @Test func findsEveryValueThroughGrowth() {
        var map = ScalarMap()
        // Keys that differ only in high bits, spread keys, and zero (a key like any other).
        let keys: [UInt64] = (0 ..< 500).map { UInt64($0) << 40 } + (1 ..< 500).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        for (i, key) in keys.enumerated() {
            let (found, slot) = map.find(key)
            #expect(found == -1, "key \(key) found before it was inserted")
            map.insert(key, Int32(i), at: slot)
        }
        for (i, key) in keys.enumerated() {
            #expect(map.find(key).value == Int32(i), "key \(key)")
        }
        #expect(map.find(12345).value == -1)
    }
}
