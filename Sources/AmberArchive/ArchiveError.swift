/// An error raised by AmberArchive: a code a program can switch on and a message a person can read.
///
/// Every failure of the codec, from a truncated file to a key of the wrong type, is one of these.
/// Nothing in AmberArchive traps on bad input.
public struct ArchiveError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public enum Code: String, Sendable, CaseIterable {
        /// The bytes are not a well-formed binary property list (bad header, trailer, offset,
        /// reference, marker or length).
        case corrupt
        /// The property list is well formed but is not a keyed archive in the NSKeyedArchiver
        /// layout (wrong `$archiver` or `$version`, missing `$top` or `$objects`, a UID out of
        /// range, a broken class description).
        case notKeyedArchive
        /// A limit on size, count, length or nesting was exceeded.
        case limitExceeded
        /// A value was asked for by a key the object does not have.
        case keyNotFound
        /// A value exists but is not of the type asked for.
        case typeMismatch
        /// A class is not registered, or not among the classes the caller allows.
        case classNotAllowed
        /// A value cannot be encoded (an unregistered object, a key the archiver reserves).
        case invalidValue
        /// A coding-class callback of the host reported a failure.
        case callbackFailed
        /// A coding class of that name is registered already.
        case duplicate
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence naming the problem, e.g. `object 12 at offset 9 has undefined marker 0x7a`.
    public var message: String

    /// Creates an error with a code and a message. The message is kept to one line of at most
    /// 500 characters: control characters are escaped (`\u{a}`), and text beyond is cut with
    /// `…`, because messages quote names and strings taken from the file.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = ArchiveError.oneLine(message)
    }

    static func oneLine(_ text: String) -> String {
        // Most messages are short printable ASCII and need no change.
        if text.utf8.count <= 500, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= 500 {
                out += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80 ..< 0xA0).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}"
            {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    public var description: String { message }

    static func corrupt(_ message: String) -> ArchiveError { ArchiveError(.corrupt, message) }
    static func notKeyed(_ message: String) -> ArchiveError { ArchiveError(.notKeyedArchive, message) }
    static func limit(_ message: String) -> ArchiveError { ArchiveError(.limitExceeded, message) }
}

extension DefaultStringInterpolation {
    /// `\(a: "integer")` is "an integer", `\(a: "string")` "a string": for messages.
    mutating func appendInterpolation(a word: String) {
        let vowel = word.first.map { "aeiouAEIOU".contains($0) } ?? false
        appendLiteral(vowel && !word.hasPrefix("UID") && !word.hasPrefix("UUID") ? "an " : "a ")
        appendLiteral(word)
    }
}
