/// Bounds that reading enforces before it allocates or recurses (SPEC R22), and that writing
/// keeps to, so that an archive a save writes is one the next launch reads.
///
/// The defaults accept any archive a program of ordinary size writes, including a restoration
/// archive of a million objects, while keeping a hostile file from exhausting memory or stack.
/// Each limit is counted one way on both sides: the reader and the writers ask this type
/// (`storedLength(utf8Count:utf16Count:)`, `admitsValue(length:)`, `dateProblem(_:)`) rather
/// than count for themselves.
public struct ArchiveLimits: Sendable, Equatable {
    /// The largest input, in bytes. Default 512 MiB.
    public var maxBytes: Int
    /// The most objects the property list may declare: every object of it, keys and class
    /// descriptions included, not only the items of a keyed archive's `$objects`. Default 32 Mi.
    public var maxObjects: Int
    /// The deepest nesting of containers in the property list (arrays, sets, dictionaries), and
    /// of objects inside objects while decoding a keyed archive. Default 512.
    public var maxDepth: Int
    /// The longest string or data value, in the bytes it is stored in
    /// (`storedLength(utf8Count:utf16Count:)` for a string). Default 64 MiB.
    public var maxValueLength: Int

    /// Creates limits; every parameter has the default described on its property.
    public init(
        maxBytes: Int = 512 << 20,
        maxObjects: Int = 32 << 20,
        maxDepth: Int = 512,
        maxValueLength: Int = 64 << 20
    ) {
        self.maxBytes = maxBytes
        self.maxObjects = maxObjects
        self.maxDepth = maxDepth
        self.maxValueLength = maxValueLength
    }

    /// The defaults.
    public static let `default` = ArchiveLimits()

    /// Whether a string or data value stored in `length` bytes is within `maxValueLength`.
    @inline(__always)
    public func admitsValue(length: Int) -> Bool { length <= maxValueLength }

    /// The bytes a string is stored in: a binary property list holds a string of ASCII
    /// characters as its bytes and any other as UTF-16, two bytes a code unit (it has no UTF-8
    /// strings), so one "é" doubles the size of the rest. A string is ASCII exactly when it has
    /// as many UTF-8 bytes as UTF-16 code units: every other character takes more of the former.
    /// Never more than twice the UTF-8 bytes, which lets a writer skip counting code units for a
    /// string of at most `maxValueLength / 2` UTF-8 bytes.
    @inline(__always)
    public static func storedLength(utf8Count: Int, utf16Count: Int) -> Int {
        utf8Count == utf16Count ? utf8Count : 2 * utf16Count
    }

    /// `storedLength(utf8Count:utf16Count:)` of `string`.
    public static func storedLength(of string: String) -> Int {
        storedLength(utf8Count: string.utf8.count, utf16Count: string.utf16.count)
    }

    /// The bytes of data an index path is stored with (NSIndexPath): none for one index or
    /// none, which are integers in place; else `NSIndexPathData`, each index packed seven bits a
    /// byte, up to ten bytes for a large or negative one.
    public static func storedLength(ofIndexPath indexes: some Collection<Int>) -> Int {
        guard indexes.count > 1 else { return 0 }
        return indexes.reduce(0) { $0 + PackedIntegers.length(of: UInt64(bitPattern: Int64($1))) }
    }

    /// The bytes of data an index set is stored with (NSIndexSet): none for one range or none;
    /// else `NSRangeData`, each range's location and length packed as an index path's indexes.
    public static func storedLength(ofIndexSet ranges: some Collection<Range<Int>>) -> Int {
        guard ranges.count > 1 else { return 0 }
        return ranges.reduce(0) {
            $0 + PackedIntegers.length(of: UInt64(bitPattern: Int64($1.lowerBound)))
                + PackedIntegers.length(of: UInt64(bitPattern: Int64($1.upperBound &- $1.lowerBound)))
        }
    }

    /// The dates every reader of an archive takes: finite, from 0001-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59Z, in seconds since 2001-01-01T00:00:00Z (NSDate's reference date). Years 1 to 9999 are what the bindings' date types hold (Python's
    /// `datetime`) and what ISO 8601 text writes with four digits; a date beyond them, or NaN,
    /// would be read from the archive and then fail, or trap, in the host.
    /// (The last second of year 9999 is left out: a fraction of it can round up, in a host's
    /// microseconds, to year 10000.)
    public static let dates: ClosedRange<Double> = -63_113_904_000 ... 252_423_993_599

    /// Whether `seconds` (since 2001-01-01T00:00:00Z) is a date an archive may hold (`dates`).
    @inline(__always)
    public static func admitsDate(_ seconds: Double) -> Bool { dates.contains(seconds) }

    /// Why `seconds` is not a date an archive may hold, as a phrase for messages ("a date of
    /// nan seconds from 2001-01-01T00:00:00Z: not a number"); nil when it is one.
    public static func dateProblem(_ seconds: Double) -> String? {
        guard !admitsDate(seconds) else { return nil }
        let why = seconds.isNaN ? "not a number" : seconds.isInfinite ? "infinite" : "outside years 1 to 9999"
        return "a date of \(seconds) seconds from 2001-01-01T00:00:00Z: \(why)"
    }
}
