import AmberArchive

/// A JSON value. Objects keep their keys in the order given; numbers keep their exact text.
indirect enum JSON {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    /// A number literal, already formatted (reals).
    case number(String)
    case string(String)
    case array([JSON])
    case object([(key: String, value: JSON)])

    /// A real: finite values as the shortest text that reads back as the same value, always with
    /// a decimal point or an exponent; NaN and the infinities as `{"$real": "nan"|"inf"|"-inf"}`.
    static func real<T: BinaryFloatingPoint & LosslessStringConvertible>(_ x: T) -> JSON {
        if x.isNaN { return .object([("$real", .string("nan"))]) }
        if x.isInfinite { return .object([("$real", .string(x < 0 ? "-inf" : "inf"))]) }
        var text = x.description
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            text += ".0"
        }
        return .number(text)
    }

    /// `{"$date": seconds since 2001-01-01T00:00:00Z}`.
    static func date(_ t: Double) -> JSON { .object([("$date", .real(t))]) }

    /// `{"$data": "<base64>"}`.
    static func data(_ bytes: [UInt8]) -> JSON { .object([("$data", .string(Base64.encode(bytes)))]) }
}

extension JSON {
    /// The JSON form of a property list value (the mapping of `amber dump`).
    init(_ plist: PropertyList) {
        switch plist {
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .uint(let u): self = .uint(u)
        case .float(let f): self = .real(f)
        case .double(let d): self = .real(d)
        case .date(let t): self = .date(t)
        case .data(let d): self = .data(d)
        case .string(let s): self = .string(s)
        case .uid(let u): self = .object([("$uid", .uint(u))])
        case .array(let items): self = .array(items.map(JSON.init))
        case .set(let items): self = .object([("$set", .array(items.map(JSON.init)))])
        case .dictionary(let pairs):
            var members: [(key: String, value: JSON)] = []
            members.reserveCapacity(pairs.count)
            for pair in pairs {
                guard case .string(let key) = pair.key else {
                    self = .object([("$dict", .array(pairs.map { .array([JSON($0.key), JSON($0.value)]) }))])
                    return
                }
                members.append((key, JSON(pair.value)))
            }
            self = .object(members)
        }
    }
}

/// Writes JSON pretty-printed with two-space indentation, keys in the order given, strings
/// escaped per RFC 8259 (`"`, `\` and control characters escaped, other characters as UTF-8).
struct JSONWriter {
    private(set) var output: [UInt8] = []

    static func format(_ value: JSON) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value, indent: 0)
        writer.output.append(UInt8(ascii: "\n"))
        return writer.output
    }

    private mutating func newline(_ indent: Int) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    private mutating func raw(_ text: String) { output.append(contentsOf: text.utf8) }

    mutating func write(_ value: JSON, indent: Int) {
        switch value {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .int(let i): raw(String(i))
        case .uint(let u): raw(String(u))
        case .number(let text): raw(text)
        case .string(let s): string(s)
        case .array(let items):
            if items.isEmpty { raw("[]"); return }
            output.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                write(item, indent: indent + 2)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { raw("{}"); return }
            output.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                string(member.key)
                raw(": ")
                write(member.value, indent: indent + 2)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A string as a JSON string literal: quoted, escaped, on one line (`amber inspect`'s text).
    static func quoted(_ s: String) -> String {
        var writer = JSONWriter()
        writer.string(s)
        return String(decoding: writer.output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func string(_ s: String) {
        output.append(UInt8(ascii: "\""))
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(contentsOf: s.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x00 ..< 0x20:
                raw("\\u00")
                output.append(JSONWriter.hexDigits[Int(byte >> 4)])
                output.append(JSONWriter.hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// Standard base64 (RFC 4648, with padding).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64, skipping whitespace; nil for any other character outside the alphabet or
    /// misplaced padding.
    static func decode<S: Sequence>(_ text: S) -> [UInt8]? where S.Element == UInt8 {
        var out: [UInt8] = []
        var acc: UInt32 = 0
        var n = 0
        var padding = 0
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A") ... UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a") ... UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            if padding > 0 { return nil }
            acc = acc << 6 | v
            n += 1
            if n == 4 {
                out.append(UInt8(acc >> 16 & 0xFF))
                out.append(UInt8(acc >> 8 & 0xFF))
                out.append(UInt8(acc & 0xFF))
                acc = 0
                n = 0
            }
        }
        switch n {
        case 0: guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            out.append(UInt8(acc >> 4 & 0xFF))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            out.append(UInt8(acc >> 10 & 0xFF))
            out.append(UInt8(acc >> 2 & 0xFF))
        default: return nil
        }
        return out
    }
}
