import Testing
@testable import AmberArchive

/// The codec's two small lookup caches: each finds what was stored for exactly its key, and a
/// key that shares a slot replaces, never impersonates, another.
@Suite struct LookupCacheTests {
    // R26
    /// `RecentKeys` finds the reference stored for a key, and nothing for a different key with
    /// the same slot, or equal to it as a String but not byte for byte.
    @Test func recentKeysMatchBytes() {
        var cache = RecentKeys(slots: 8)
        let (none, slot) = cache.find("title")
        #expect(none == -1)
        cache.store("title", 7, at: slot)
        #expect(cache.find("title").ref == 7)
        #expect(cache.find("titlf").ref == -1)  // same length and first byte: same slot
        cache.store("titlf", 8, at: cache.find("titlf").slot)
        #expect(cache.find("titlf").ref == 8)
        #expect(cache.find("title").ref == -1)  // replaced
        // U+212A KELVIN SIGN and "K" are canonically equivalent, not the same bytes.
        let kelvin = "\u{212A}x", k = "Kx"
        cache.store(kelvin, 9, at: cache.find(kelvin).slot)
        #expect(cache.find(kelvin).ref == 9)
        #expect(cache.find(k).ref == -1)
        // "é" precomposed and decomposed: equal Strings, different bytes.
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        cache.store(composed, 10, at: cache.find(composed).slot)
        #expect(cache.find(composed).ref == 10)
        #expect(cache.find(decomposed).ref == -1)
    }

    // R26
    /// `RecentStrings` gives back the string kept for a reference, and nothing for another
    /// reference in the same slot.
    @Test func recentStringsByReference() {
        var cache = RecentStrings()
        #expect(cache.find(3) == nil)
        cache.store("Homepwner", for: 3)
        #expect(cache.find(3) == "Homepwner")
        #expect(cache.find(3 + 1024) == nil)  // same slot
        cache.store("other", for: 3 + 1024)
        #expect(cache.find(3 + 1024) == "other")
        #expect(cache.find(3) == nil)  // replaced
    }
}
