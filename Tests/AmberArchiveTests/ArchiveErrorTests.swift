import Testing
@testable import AmberArchive

/// An error's message is one line of at most 500 characters, whatever the file it quotes holds
/// (SPEC R22: a message a person can read, never a control sequence from a hostile archive).
@Suite struct ArchiveErrorTests {
    static func message(_ text: String) -> String { ArchiveError(.corrupt, text).message }

    @Test func printableTextIsKeptAsItIs() {
        #expect(Self.message("the value for key 'name' is an integer, not a string") == "the value for key 'name' is an integer, not a string")
        #expect(Self.message("") == "")
        #expect(Self.message("Zoë and 日本語") == "Zoë and 日本語")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(Self.message("a\nb\tc\u{0}") == "a\\nb\\tc\\0")
        #expect(Self.message("del\u{7F}") == "del\\u{7F}")
        #expect(Self.message("c1\u{85}") == "c1\\u{0085}")
        #expect(Self.message("ls\u{2028}ps\u{2029}") == "ls\\u{2028}ps\\u{2029}")
    }

    @Test func longTextIsCutAt500Characters() {
        let ascii500 = String(repeating: "x", count: 500)
        #expect(Self.message(ascii500) == ascii500)
        #expect(Self.message(ascii500 + "y") == ascii500 + "…")
        let accented = String(repeating: "é", count: 501)
        #expect(Self.message(accented) == String(repeating: "é", count: 500) + "…")
        // A control character in a long text: escaped, and the cut still counts characters.
        #expect(Self.message("\n" + ascii500) == "\\n" + String(repeating: "x", count: 499) + "…")
    }
}
