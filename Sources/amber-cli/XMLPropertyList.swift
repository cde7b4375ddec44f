import AmberArchive

/// Reads an XML property list (Apple's `plist` DTD, version 1.0) into a `PropertyList`, keeping
/// dictionaries in document order (Foundation's PropertyListSerialization does not).
///
/// The reader knows the subset of XML that property lists use: a declaration, a DOCTYPE,
/// comments, processing instructions, CDATA sections, the five predefined entities and
/// character references. As CoreFoundation does, a dictionary whose only key is `CF$UID` with
/// an integer value is read as a UID, which is how keyed archives are written in XML.
/// Containers may nest at most `maxDepth` deep; nothing recurses deeper than that.
struct XMLPropertyListReader {
    struct Failure: Error {
        var message: String
    }

    private let bytes: [UInt8]
    private var at = 0
    private let maxDepth: Int

    private enum Token {
        case open(String, empty: Bool)
        case close(String)
        case text([UInt8])
        case end
    }

    /// Whether the bytes look like an XML property list: `<?xml` or `<plist` first, after an
    /// optional byte order mark and whitespace.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        let rest = bytes[i...]
        return rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<plist".utf8))
    }

    static func read(_ bytes: [UInt8], maxDepth: Int = ArchiveLimits.default.maxDepth) throws(Failure) -> PropertyList {
        var reader = XMLPropertyListReader(bytes: bytes, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
        return try reader.document()
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: Grammar

    private mutating func document() throws(Failure) -> PropertyList {
        guard case .open(let name, let empty) = try nextElementToken() else { throw fail("no property list element") }
        let value: PropertyList
        if name == "plist" {
            if empty { throw fail("the plist element is empty") }
            guard case .open(let inner, let innerEmpty) = try nextElementToken() else { throw fail("the plist element is empty") }
            value = try self.value(inner, empty: innerEmpty, depth: 0)
            guard case .close("plist") = try nextElementToken() else { throw fail("the plist element holds more than one value") }
        } else {
            value = try self.value(name, empty: empty, depth: 0)
        }
        guard case .end = try nextElementToken() else { throw fail("content after the property list") }
        return value
    }

    private mutating func value(_ name: String, empty: Bool, depth: Int) throws(Failure) -> PropertyList {
        switch name {
        case "dict":
            guard depth < maxDepth else { throw fail("containers nest deeper than the limit of \(maxDepth)") }
            var pairs: [PropertyListPair] = []
            if empty { return .dictionary(pairs) }
            while true {
                switch try nextElementToken() {
                case .close("dict"):
                    if pairs.count == 1, case .string("CF$UID") = pairs[0].key {
                        switch pairs[0].value {
                        case .int(let u) where u >= 0: return .uid(UInt64(u))
                        case .uint(let u): return .uid(u)
                        default: break
                        }
                    }
                    return .dictionary(pairs)
                case .open("key", let keyEmpty):
                    let key = try text("key", empty: keyEmpty)
                    guard case .open(let valueName, let valueEmpty) = try nextElementToken() else {
                        throw fail("the key '\(key.prefix(64))' has no value")
                    }
                    pairs.append(PropertyListPair(.string(key), try value(valueName, empty: valueEmpty, depth: depth + 1)))
                default:
                    throw fail("a dict holds something other than key and value pairs")
                }
            }
        case "array":
            guard depth < maxDepth else { throw fail("containers nest deeper than the limit of \(maxDepth)") }
            var items: [PropertyList] = []
            if empty { return .array(items) }
            while true {
                switch try nextElementToken() {
                case .close("array"): return .array(items)
                case .open(let itemName, let itemEmpty): items.append(try value(itemName, empty: itemEmpty, depth: depth + 1))
                default: throw fail("unexpected content in an array")
                }
            }
        case "string":
            return .string(try text(name, empty: empty))
        case "integer":
            return try integer(try text(name, empty: empty))
        case "real":
            let s = try text(name, empty: empty).trimmingWhitespace
            guard let d = Double(s) else { throw fail("'\(s.prefix(64))' is not a real") }
            return .double(d)
        case "true", "false":
            guard try text(name, empty: empty).trimmingWhitespace.isEmpty else { throw fail("<\(name)/> holds text") }
            return .bool(name == "true")
        case "date":
            let s = try text(name, empty: empty).trimmingWhitespace
            guard let t = XMLPropertyListReader.date(s) else { throw fail("'\(s.prefix(64))' is not a date") }
            return .date(t)
        case "data":
            guard let d = Base64.decode(try text(name, empty: empty).utf8) else { throw fail("a data element is not valid base64") }
            return .data(d)
        case "key":
            throw fail("a key outside a dict")
        default:
            throw fail("unknown element <\(name.prefix(64))>")
        }
    }

    /// The text of an element that holds only text, up to its end tag.
    private mutating func text(_ name: String, empty: Bool) throws(Failure) -> String {
        if empty { return "" }
        var content: [UInt8] = []
        while true {
            switch try next() {
            case .text(let t): content += t
            case .close(let closing) where closing == name:
                guard let s = String(validating: content, as: UTF8.self) else { throw fail("a <\(name)> is not valid UTF-8") }
                return s
            case .close(let other): throw fail("</\(other.prefix(64))> closes <\(name)>")
            case .end: throw fail("the file ends inside <\(name)>")
            case .open(let inner, _): throw fail("<\(name)> holds an element <\(inner.prefix(64))>")
            }
        }
    }

    private func integer(_ raw: String) throws(Failure) -> PropertyList {
        var s = Substring(raw.trimmingWhitespace)
        var negative = false
        if s.first == "-" || s.first == "+" {
            negative = s.first == "-"
            s = s.dropFirst()
        }
        var radix: UInt64 = 10
        if s.hasPrefix("0x") || s.hasPrefix("0X") {
            radix = 16
            s = s.dropFirst(2)
        }
        guard !s.isEmpty, let magnitude = UInt64(s, radix: Int(radix)) else {
            throw fail("'\(raw.prefix(64))' is not an integer that fits in 64 bits")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw fail("'\(raw.prefix(64))' is below the 64-bit range") }
            return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        if let i = Int64(exactly: magnitude) { return .int(i) }
        return .uint(magnitude)
    }

    /// `YYYY[-MM[-DD[THH[:MM[:SS[.fff]]]]]]Z` (UTC), as seconds since 2001-01-01T00:00:00Z.
    static func date(_ s: String) -> Double? {
        let c = Array(s.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= c.count else { return nil }
            var v = 0
            for k in i ..< i + width {
                guard c[k] >= 0x30, c[k] <= 0x39 else { return nil }
                v = v * 10 + Int(c[k] - 0x30)
            }
            i += width
            return v
        }
        func accept(_ ch: Character) -> Bool {
            if i < c.count, c[i] == ch.asciiValue! { i += 1; return true }
            return false
        }
        guard let year = number(4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0
        var fraction = 0.0
        if accept("-") {
            guard let m = number(2) else { return nil }
            month = m
            if accept("-") {
                guard let d = number(2) else { return nil }
                day = d
                if accept("T") {
                    guard let h = number(2) else { return nil }
                    hour = h
                    if accept(":") {
                        guard let m = number(2) else { return nil }
                        minute = m
                        if accept(":") {
                            guard let sec = number(2) else { return nil }
                            second = sec
                            if accept(".") {
                                let start = i
                                while i < c.count, c[i] >= 0x30, c[i] <= 0x39 { i += 1 }
                                guard i > start, let f = Double("0." + String(decoding: c[start ..< i], as: UTF8.self)) else { return nil }
                                fraction = f
                            }
                        }
                    }
                }
            }
        }
        guard accept("Z"), i == c.count else { return nil }
        guard (1 ... 12).contains(month), (1 ... 31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysFromCivil(year, month, day) - daysFromCivil(2001, 1, 1)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    // MARK: Tokens

    /// The next start tag, end tag or end of input, skipping whitespace; other text is an error.
    private mutating func nextElementToken() throws(Failure) -> Token {
        while true {
            let token = try next()
            guard case .text(let t) = token else { return token }
            guard t.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                throw fail("unexpected text '\(String(decoding: t.prefix(32), as: UTF8.self))'")
            }
        }
    }

    private func starts(_ s: String) -> Bool { bytes[at...].starts(with: s.utf8) }

    /// Skips past `terminator`, or fails naming `what`.
    private mutating func skip(past terminator: String, _ what: String) throws(Failure) {
        let t = Array(terminator.utf8)
        while at < bytes.count {
            if bytes[at] == t[0], bytes[at...].starts(with: t) {
                at += t.count
                return
            }
            at += 1
        }
        throw fail("unterminated \(what)")
    }

    private mutating func next() throws(Failure) -> Token {
        while true {
            guard at < bytes.count else { return .end }
            if bytes[at] != UInt8(ascii: "<") { return .text(try characterData()) }
            if starts("<!--") {
                try skip(past: "-->", "comment")
            } else if starts("<?") {
                try skip(past: "?>", "processing instruction")
            } else if starts("<![CDATA[") {
                at += 9
                let start = at
                try skip(past: "]]>", "CDATA section")
                return .text(XMLPropertyListReader.normalizeNewlines(bytes[start ..< at - 3]))
            } else if starts("<!") {
                // A DOCTYPE, perhaps with an internal subset in brackets.
                var brackets = 0
                at += 2
                while true {
                    guard at < bytes.count else { throw fail("unterminated DOCTYPE") }
                    let b = bytes[at]
                    at += 1
                    if b == UInt8(ascii: "[") { brackets += 1 }
                    else if b == UInt8(ascii: "]") { brackets -= 1 }
                    else if b == UInt8(ascii: ">"), brackets <= 0 { break }
                }
            } else {
                return try tag()
            }
        }
    }

    private mutating func tag() throws(Failure) -> Token {
        let tagStart = at
        at += 1
        let closing = at < bytes.count && bytes[at] == UInt8(ascii: "/")
        if closing { at += 1 }
        let nameStart = at
        while at < bytes.count, !XMLPropertyListReader.endsName(bytes[at]) { at += 1 }
        let name = String(decoding: bytes[nameStart ..< at], as: UTF8.self)
        guard !name.isEmpty else { at = tagStart; throw fail("a tag without a name") }
        // Attributes (plist's version) are skipped, quotes respected.
        var quote: UInt8? = nil
        var empty = false
        while true {
            guard at < bytes.count else { throw fail("unterminated tag <\(name.prefix(64))") }
            let b = bytes[at]
            at += 1
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                break
            } else if b == UInt8(ascii: "/"), at < bytes.count, bytes[at] == UInt8(ascii: ">") {
                empty = true
            }
        }
        if closing { return .close(name) }
        return .open(name, empty: empty)
    }

    private static func endsName(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: ">") || b == UInt8(ascii: "/")
    }

    /// Text up to the next `<`, entities and character references replaced, newlines normalized.
    private mutating func characterData() throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            let b = bytes[at]
            if b == UInt8(ascii: "&") {
                guard let semicolon = bytes[at...].prefix(16).firstIndex(of: UInt8(ascii: ";")) else {
                    throw fail("an unterminated entity reference")
                }
                let entity = String(decoding: bytes[at + 1 ..< semicolon], as: UTF8.self)
                switch entity {
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "amp": out.append(UInt8(ascii: "&"))
                case "quot": out.append(UInt8(ascii: "\""))
                case "apos": out.append(UInt8(ascii: "'"))
                default:
                    var code: UInt32?
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        code = UInt32(entity.dropFirst(2), radix: 16)
                    } else if entity.hasPrefix("#") {
                        code = UInt32(entity.dropFirst(), radix: 10)
                    }
                    guard let code, let scalar = Unicode.Scalar(code) else {
                        throw fail("unknown entity '&\(entity.prefix(16));'")
                    }
                    out.append(contentsOf: String(Character(scalar)).utf8)
                }
                at = semicolon + 1
            } else if b == 0x0D {
                out.append(0x0A)
                at += 1
                if at < bytes.count, bytes[at] == 0x0A { at += 1 }
            } else {
                out.append(b)
                at += 1
            }
        }
        return out
    }

    private static func normalizeNewlines(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == 0x0D {
                out.append(0x0A)
                if i + 1 < s.endIndex, s[i + 1] == 0x0A { i += 1 }
            } else {
                out.append(s[i])
            }
            i += 1
        }
        return out
    }

    private func fail(_ message: String) -> Failure {
        var line = 1
        for b in bytes[..<min(at, bytes.count)] where b == 0x0A { line += 1 }
        return Failure(message: "XML property list, line \(line): \(message)")
    }
}

extension String {
    var trimmingWhitespace: String {
        let ws: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !ws($0) }), let last = lastIndex(where: { !ws($0) }) else { return "" }
        return String(self[first ... last])
    }
}
