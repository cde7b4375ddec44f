import AmberCore
import Testing
@testable import Amber

// R7: every amber_coder_* and amber_decoder_* call reads its key this way.

/// `ShortKeyWords`: a C string of 1 to 15 ASCII bytes in two words, the same key as
/// `KeyInterner.key(utf8:)` gives for its bytes; nothing for other strings.
@Suite struct ShortKeyWordsTests {
    static func words(_ text: String) -> ShortKeyWords? {
        text.withCString { ShortKeyWords($0) }
    }

    @Test func holdsTheBytesOfShortASCIIKeys() {
        for text in ["a", "title", "eight-by", "nine-byte", "fifteen-bytes-k"] {
            let w = Self.words(text)
            #expect(w?.count == text.utf8.count, "\(text)")
            let bytes = Array(text.utf8)
            var lo: UInt64 = 0
            var hi: UInt64 = 0
            for (i, b) in bytes.enumerated() {
                if i < 8 { lo |= UInt64(b) << UInt64(8 * i) } else { hi |= UInt64(b) << UInt64(8 * (i - 8)) }
            }
            #expect(w?.lo == lo && w?.hi == hi, "\(text)")
        }
    }

    @Test func leavesOtherStringsToTheCaller() {
        for text in ["", "sixteen-bytes-ke", "a much longer key than sixteen bytes", "clé", "eight-byté"] {
            #expect(Self.words(text) == nil, "\(text)")
        }
    }

    /// The interner gives the same key for the words as for the bytes, and one key per text.
    @Test func internsTheSameKeyAsTheBytes() {
        var interner = KeyInterner()
        for text in ["a", "title", "eight-by", "fifteen-bytes-k", "title"] {
            let w = Self.words(text)!
            let fromWords = interner.key(lo: w.lo, hi: w.hi, count: w.count)
            let bytes = Array(text.utf8)
            let fromBytes = interner.key(utf8: bytes.span)
            #expect(fromWords.string == text)
            #expect(fromBytes === fromWords, "\(text)")
        }
    }
}
