import Testing
@testable import AmberArchive

/// Decoding under an interned key (`ArchiveKey`, the engine's and the C ABI's path) must give
/// what decoding under the same key as a string gives: the same values, and the same error
/// codes and messages for a missing key or a value of another type (SPEC R12, R26); and what
/// a key remembers of one archive must not leak into another.
@Suite struct ArchiveKeyTests {
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
    @Test func internedKeysDecodeAsStringKeys() throws {
        let u = try KeyedUnarchiver(bytes: Self.archive())
        var interned: [String: ArchiveKey] = [:]
        // Every key with every typed decoder, twice over in two orders, so that the cached
        // key positions are both hit and missed; plus keys that are not there.
        let probes = Self.keys + ["missing", "$", "", "$missing", "count2", "é"]
        for order in [probes, probes.reversed(), probes] {
            for key in order {
                let span = interned[key, default: ArchiveKey(key)]
                interned[key] = span
                let containsByBytes = u.containsValue(forKey: span)
                #expect(containsByBytes == u.containsValue(forKey: key), "contains \(key)")
                let pairs: [(Outcome, Outcome, String)] = [
                    (Self.outcome { () throws(ArchiveError) in String(try u.decodeInt64(forKey: span)) },
                     Self.outcome { () throws(ArchiveError) in String(try u.decodeInt64(forKey: key)) }, "int64"),
                    (Self.outcome { () throws(ArchiveError) in String(try u.decodeBool(forKey: span)) },
                     Self.outcome { () throws(ArchiveError) in String(try u.decodeBool(forKey: key)) }, "bool"),
                    (Self.outcome { () throws(ArchiveError) in String(try u.decodeDouble(forKey: span)) },
                     Self.outcome { () throws(ArchiveError) in String(try u.decodeDouble(forKey: key)) }, "double"),
                    (Self.outcome { () throws(ArchiveError) in try u.decodeString(forKey: span) },
                     Self.outcome { () throws(ArchiveError) in try u.decodeString(forKey: key) }, "string"),
                    (Self.outcome { () throws(ArchiveError) in
                        try u.withDecodedString(forKey: span) { s in
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
        func string(_ key: String) throws -> String { try u.decodeString(forKey: ArchiveKey(key)) }
        func contains(_ key: String) -> Bool { u.containsValue(forKey: ArchiveKey(key)) }
        let count = try u.decodeInt64(forKey: ArchiveKey("count"))
        let flag = try u.decodeBool(forKey: ArchiveKey("flag"))
        let ratio = try u.decodeDouble(forKey: ArchiveKey("ratio"))
        #expect(count == 42 && flag && ratio == 0.5)
        #expect(try string("$x") == "dollar")
        #expect(try string("$$y") == "two dollars")
        #expect(try string("é-key") == "accent")
        #expect(try string("name") == "Zoë")
        #expect(try string("title") == "plain")
        #expect(!contains("x") && !contains("$$x") && contains("$x"))
    }

    // R26
    /// One key used with two archives, alternately: each archive stores the key's string at
    /// another reference and the key at another position, so what the key remembers of one
    /// must be checked, not trusted, in the other.
    @Test func aKeyMovesBetweenArchives() throws {
        let title = ArchiveKey("title"), count = ArchiveKey("count")
        func archive(_ padding: Int, _ value: Int64) throws -> KeyedUnarchiver {
            let a = KeyedArchiver()
            for i in 0 ..< padding { a.encode("pad \(i)", forKey: "p\(i)") }
            a.encode(value, forKey: count)
            a.encode("title \(value)", forKey: title)
            return try KeyedUnarchiver(bytes: a.finishEncoding())
        }
        let first = try archive(0, 1), second = try archive(5, 2)
        for _ in 0 ..< 2 {
            #expect(try first.decodeInt64(forKey: count) == 1)
            #expect(try second.decodeInt64(forKey: count) == 2)
            #expect(try first.decodeString(forKey: title) == "title 1")
            #expect(try second.decodeString(forKey: title) == "title 2")
        }
        #expect(!first.containsValue(forKey: ArchiveKey("p0")) && second.containsValue(forKey: ArchiveKey("p0")))
    }

    // R25
    /// A key written as an `ArchiveKey` is the same key as its string: the archives are equal
    /// byte for byte, also when one key is used with two archivers in turn.
    @Test func internedKeysEncodeAsStringKeys() throws {
        let keys = Self.keys.map(ArchiveKey.init)
        func write(interned: Bool) throws -> [UInt8] {
            let a = KeyedArchiver()
            for (i, key) in keys.enumerated() {
                if interned { a.encode(Int64(i), forKey: key) } else { a.encode(Int64(i), forKey: key.string) }
            }
            return try a.finishEncoding()
        }
        let plain = try write(interned: false)
        #expect(try write(interned: true) == plain)
        #expect(try write(interned: true) == plain)
    }
}
