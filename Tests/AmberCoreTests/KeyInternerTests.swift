import AmberArchive
import Testing
@testable import AmberCore

/// `KeyInterner`: one `ArchiveKey` per short ASCII key, found again by its bytes wherever they
/// are; nothing for keys it does not intern.
@Suite struct KeyInternerTests {
    /// Calls `body` with the UTF-8 bytes of `text`, in a fresh array.
    static func withBytes<T>(_ text: String, _ body: (Span<UInt8>) -> T) -> T {
        let bytes = Array(text.utf8)
        return body(bytes.span)
    }

    // R7
    @Test func internsShortASCIIKeysOnce() {
        var interner = KeyInterner()
        let names = ["a", "title", "selection", "eight-by", "fifteen-bytes-k", "scroll.y"]
        let first = names.map { name in Self.withBytes(name) { interner.key(utf8: $0) } }
        for (name, key) in zip(names, first) {
            #expect(key?.string == name)
            let again = Self.withBytes(name) { interner.key(utf8: $0) }
            #expect(again != nil && again === key, "\(name) interned once")
        }
    }

    // R7
    /// More keys than slots: older keys are evicted and made again, never confused with another.
    @Test func evictsWithoutConfusingKeys() {
        var interner = KeyInterner()
        let names = (0 ..< 300).map { "key\($0)" }
        for _ in 0 ..< 2 {
            for name in names {
                #expect(Self.withBytes(name) { interner.key(utf8: $0) }?.string == name)
            }
        }
    }

    // R7
    @Test func leavesOtherKeysToTheCaller() {
        var interner = KeyInterner()
        // A zero or non-ASCII byte in either of a slot's two words.
        let others = ["", "sixteen-bytes-ke", "a much longer key than sixteen bytes", "clé", "a\u{0}", "eight-by\u{0}x", "eight-byté"]
        for name in others {
            #expect(Self.withBytes(name) { interner.key(utf8: $0) } == nil, "\(name)")
        }
    }
}
