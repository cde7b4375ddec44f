/// A value a keyed archive stores as one of Foundation's standard classes.
///
/// Each case has the encoding Foundation's NSKeyedArchiver gives the class it stands for, so
/// that Foundation reads what Amber writes and the other way round:
///
/// | case | Foundation class | in `$objects` |
/// |---|---|---|
/// | `null` | `nil` / NSNull | UID 0 (`$null`) / `{$class: NSNull}` |
/// | `bool`, `int`, `uint`, `double` | NSNumber | inline in the referring object |
/// | `string` | NSString | a plain string |
/// | `data` | NSData | plain data |
/// | `date` | NSDate | `{NS.time: real}` |
/// | `uuid` | NSUUID | `{NS.uuidbytes: 16 bytes}` |
/// | `indexPath` | NSIndexPath | `{NSIndexPathLength, NSIndexPathValue or NSIndexPathData}` |
/// | `indexSet` | NSIndexSet | `{NSRangeCount, NSLocation and NSLength, or NSRangeData}` |
/// | `array` | NSArray | `{NS.objects: [UID]}` |
/// | `set` | NSSet | `{NS.objects: [UID]}` |
/// | `countedSet` | NSCountedSet | `{NS.count, NS.object0, NS.count0, NS.object1, …}` |
/// | `dictionary` | NSDictionary | `{NS.keys: [UID], NS.objects: [UID]}` |
public enum ArchiveValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    /// An unsigned value above `Int64.max`.
    case uint(UInt64)
    case double(Double)
    case string(String)
    case data([UInt8])
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    /// The 16 bytes of a UUID.
    case uuid([UInt8])
    case indexPath([Int])
    /// The ranges of indexes, in stored order (Foundation stores them sorted and apart); each
    /// within `0 ... Int.max`.
    case indexSet([Range<Int>])
    case array([ArchiveValue])
    case set([ArchiveValue])
    /// The distinct objects and how many times each is in the set (at least once), in stored order.
    case countedSet([(value: ArchiveValue, count: Int)])
    /// Keys in order; NSDictionary allows keys of any class.
    case dictionary([ArchiveValuePair])

    /// A dictionary from string keys, in the order given.
    public static func dictionary(_ pairs: KeyValuePairs<String, ArchiveValue>) -> ArchiveValue {
        .dictionary(pairs.map { ArchiveValuePair(.string($0.key), $0.value) })
    }

    /// The value under a string key, if this is a dictionary that has it.
    public subscript(key: String) -> ArchiveValue? {
        guard case .dictionary(let pairs) = self else { return nil }
        return pairs.first { $0.key == .string(key) }?.value
    }

    /// A short name of the value's type, for messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .uint: return "integer"
        case .double: return "real"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .uuid: return "UUID"
        case .indexPath: return "index path"
        case .indexSet: return "index set"
        case .array: return "array"
        case .set: return "set"
        case .countedSet: return "counted set"
        case .dictionary: return "dictionary"
        }
    }

    /// Equal when the same values; reals and dates compare by bit pattern (NaN equals NaN).
    public static func == (a: ArchiveValue, b: ArchiveValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.uint(let x), .uint(let y)): return x == y
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.date(let x), .date(let y)): return x.bitPattern == y.bitPattern
        case (.uuid(let x), .uuid(let y)): return x == y
        case (.indexPath(let x), .indexPath(let y)): return x == y
        case (.indexSet(let x), .indexSet(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.set(let x), .set(let y)): return x == y
        case (.countedSet(let x), .countedSet(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.value == $1.value && $0.count == $1.count }
        case (.dictionary(let x), .dictionary(let y)): return x == y
        default: return false
        }
    }
}

/// One key and value of an `ArchiveValue.dictionary`.
public struct ArchiveValuePair: Equatable, Sendable {
    public var key: ArchiveValue
    public var value: ArchiveValue
    public init(_ key: ArchiveValue, _ value: ArchiveValue) {
        self.key = key
        self.value = value
    }
}
