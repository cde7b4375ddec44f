import Testing
@testable import AmberArchive

/// Decoding under a key given as UTF-8 bytes (`forKeyUTF8:`, the C ABI's path) must give what
/// decoding under the same key as a string gives: the same values, and the same error codes and
/// messages for a missing key or a value of another type (SPEC R12, R26).
@Suite struct KeyBytesTests {
    static let keys = ["count", "$x", "$$y", "é-key", "flag", "ratio", "name", "title"]

    static func archive() throws -> [UInt8] {
        let a = KeyedArchiver()
        a.encode(Int64(42), forKey: "count")
        a.encode("dollar", forKey: "$x")        // stored as "$$x"
        a.encode("two dollars", forKey: "$$y")  // stored as "$$$y"
        a.encode("accent", forKey: "é-key")     // a key stored as UTF-16
        a.encode(true, forKey: "flag")
        a.encode(0.5, forKey: "ratio")
        a.encode("Zoë", forKey: "name")         // a value stored as UTF-16
        a.encode("plain", forKey: "title")      // a value stored as ASCII
        return try a.finishEncoding()
    }

    /// The outcome of one decoding, comparable across the two paths.
    enum Outcome: Equatable {
        case value(String)
        case error(ArchiveError.Code, String)
    }

    static func outcome(_ body: () throws(ArchiveError) -> String) -> Outcome {
        do { return .value(try body()) } catch { return .error(error.code, error.message) }
    }

    // R12 R26
    @Test func byteKeysDecodeAsStringKeys() throws {
        let u = try KeyedUnarchiver(bytes: Self.archive())
        // Every key with every typed decoder, twice over in two orders, so that the cached
        // key positions are both hit and missed; plus keys that are not there.
        let probes = Self.keys + ["missing", "$", "", "$missing", "count2", "é"]
        for order in [probes, probes.reversed(), probes] {
            for key in order {
                let bytes = Array(key.utf8)
                let span = bytes.span
                let containsByBytes = u.containsValue(forKeyUTF8: span)
                #expect(containsByBytes == u.containsValue(forKey: key), "contains \(key)")
                let pairs: [(Outcome, Outcome, String)] = [
                    (Self.outcome { () throws(ArchiveError) in String(try u.decodeInt64(forKeyUTF8: span)) },
                     Self.outcome { () throws(ArchiveError) in String(try u.decodeInt64(forKey: key)) }, "int64"),
                    (Self.outcome { () throws(ArchiveError) in String(try u.decodeBool(forKeyUTF8: span)) },
                     Self.outcome { () throws(ArchiveError) in String(try u.decodeBool(forKey: key)) }, "bool"),
                    (Self.outcome { () throws(ArchiveError) in String(try u.decodeDouble(forKeyUTF8: span)) },
                     Self.outcome { () throws(ArchiveError) in String(try u.decodeDouble(forKey: key)) }, "double"),
                    (Self.outcome { () throws(ArchiveError) in try u.decodeString(forKeyUTF8: span) },
                     Self.outcome { () throws(ArchiveError) in try u.decodeString(forKey: key) }, "string"),
                    (Self.outcome { () throws(ArchiveError) in
                        try u.withDecodedString(forKeyUTF8: span) { s in
                            var copy: [UInt8] = []
                            for i in s.indices { copy.append(s[i]) }
                            return String(decoding: copy, as: UTF8.self)
                        }
                     },
                     Self.outcome { () throws(ArchiveError) in try u.decodeString(forKey: key) }, "lent string"),
                ]
                for (bytesPath, stringPath, what) in pairs {
                    #expect(bytesPath == stringPath, "\(what) under \(key)")
                }
            }
        }
        // The values themselves, so that agreeing on an error everywhere cannot pass.
        func string(_ key: String) throws -> String { try u.decodeString(forKeyUTF8: Array(key.utf8).span) }
        func contains(_ key: String) -> Bool { u.containsValue(forKeyUTF8: Array(key.utf8).span) }
        let count = try u.decodeInt64(forKeyUTF8: Array("count".utf8).span)
        let flag = try u.decodeBool(forKeyUTF8: Array("flag".utf8).span)
        let ratio = try u.decodeDouble(forKeyUTF8: Array("ratio".utf8).span)
        #expect(count == 42 && flag && ratio == 0.5)
        #expect(try string("$x") == "dollar")
        #expect(try string("$$y") == "two dollars")
        #expect(try string("é-key") == "accent")
        #expect(try string("name") == "Zoë")
        #expect(try string("title") == "plain")
        #expect(!contains("x") && !contains("$$x") && contains("$x"))
    }
}
