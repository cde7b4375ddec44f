/// A property list value, as a binary property list (`bplist00`) stores it.
///
/// Dictionaries keep their order and may have keys of any type (Apple's own writers only use
/// strings, but the format allows more, and a reader must say what it found). Reals keep their
/// width, so a file read and written again is the same file.
public enum PropertyList: Equatable, Sendable {
    /// A boolean (`0x08`, `0x09`).
    case bool(Bool)
    /// A signed integer; stored in 1, 2, 4 or 8 bytes (`0x1n`).
    case int(Int64)
    /// An unsigned integer above `Int64.max`, stored in the 16-byte form (`0x14`).
    case uint(UInt64)
    /// A 4-byte real (`0x22`).
    case float(Float)
    /// An 8-byte real (`0x23`).
    case double(Double)
    /// A date: seconds since 2001-01-01T00:00:00Z (`0x33`).
    case date(Double)
    /// Raw bytes (`0x4n`).
    case data([UInt8])
    /// A string; written as ASCII (`0x5n`) when it can be, else as UTF-16 (`0x6n`).
    case string(String)
    /// A UID, the reference type of keyed archives (`0x8n`).
    case uid(UInt64)
    /// An array (`0xAn`).
    case array([PropertyList])
    /// A set (`0xCn`); order is kept as read.
    case set([PropertyList])
    /// A dictionary (`0xDn`) in the order its pairs are stored.
    case dictionary([PropertyListPair])

    /// A dictionary from string keys, in the order given.
    public static func dictionary(_ pairs: KeyValuePairs<String, PropertyList>) -> PropertyList {
        .dictionary(pairs.map { PropertyListPair(.string($0.key), $0.value) })
    }

    /// The value stored under a string key, if this is a dictionary that has it.
    public subscript(key: String) -> PropertyList? {
        guard case .dictionary(let pairs) = self else { return nil }
        for pair in pairs {
            if case .string(let k) = pair.key, k == key { return pair.value }
        }
        return nil
    }

    /// A short name of the value's type, for messages (`"integer"`, `"dictionary"`, …).
    public var typeName: String {
        switch self {
        case .bool: return "boolean"
        case .int, .uint: return "integer"
        case .float, .double: return "real"
        case .date: return "date"
        case .data: return "data"
        case .string: return "string"
        case .uid: return "UID"
        case .array: return "array"
        case .set: return "set"
        case .dictionary: return "dictionary"
        }
    }
}

/// One key and value of a property list dictionary.
public struct PropertyListPair: Equatable, Sendable {
    public var key: PropertyList
    public var value: PropertyList
    public init(_ key: PropertyList, _ value: PropertyList) {
        self.key = key
        self.value = value
    }
}

extension PropertyList {
    /// Two property lists are equal when they hold the same values; reals compare by bit
    /// pattern, so NaN equals NaN and a file round-trips to an equal value.
    public static func == (a: PropertyList, b: PropertyList) -> Bool {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.uint(let x), .uint(let y)): return x == y
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)): return x.bitPattern == y.bitPattern
        case (.data(let x), .data(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.uid(let x), .uid(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.set(let x), .set(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)): return x == y
        default: return false
        }
    }
}
