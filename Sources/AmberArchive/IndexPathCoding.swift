// NSIndexPath and NSIndexSet as Foundation writes them, both of which pack their integers the
// same way (swift-corelibs-foundation's `PackedUIntSequence`; Apple's NSIndexPath and NSIndexSet
// write the same bytes): each integer unsigned, in groups of seven bits, low group first, the
// high bit set on every byte of an integer but its last (unsigned LEB128).

/// Unsigned integers packed seven bits a byte, as `NSIndexPathData` and `NSRangeData` hold them.
enum PackedIntegers {
    /// Appends each value, low group first.
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// The bytes `append` takes for `value`: one per seven bits, at least one.
    static func length(of value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }

    /// Exactly `count` integers read from `bytes`, which the caller has checked to be at least
    /// `count` bytes long (each integer takes a byte or more), so that a count the bytes cannot
    /// hold is refused before anything is allocated from it. Each is the 64-bit pattern read
    /// (negative for one above `Int.max`).
    /// - Throws: `.notKeyedArchive`, naming `what`, for an integer wider than 64 bits, bytes that
    ///   end inside an integer, or another number of integers.
    static func read(_ bytes: [UInt8], count: Int, what: @autoclosure () -> String) throws(ArchiveError) -> [Int] {
        var values: [Int] = []
        values.reserveCapacity(count)
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            let group = UInt64(byte & 0x7F)
            // The tenth byte holds the 64th bit only.
            guard shift < 63 || shift == 63 && group <= 1 else {
                throw .notKeyed("\(what()) holds an integer wider than 64 bits")
            }
            value |= group << shift
            if byte & 0x80 != 0 {
                shift += 7
                continue
            }
            guard values.count < count else {
                throw .notKeyed("\(what()) holds more than the \(count) integers declared")
            }
            values.append(Int(truncatingIfNeeded: value))
            value = 0
            shift = 0
        }
        guard shift == 0 else { throw .notKeyed("\(what()) ends inside an integer") }
        guard values.count == count else {
            throw .notKeyed("\(what()) holds \(values.count) integers, not the \(count) declared")
        }
        return values
    }

    /// The bytes of a data field `key` of an object, whose value is `value`: data in place; a
    /// UID of a data item of `$objects` (as NSKeyedArchiver writes an NSData it is given); or a
    /// UID of an NSMutableData (or NSData) instance, as Apple's Foundation and
    /// swift-corelibs-foundation write the `NSIndexPathData` and `NSRangeData` they build
    /// (`StandardObjects.dataFields`). Nil if there is no such field.
    static func data(
        _ value: PropertyList?, key: String, of what: @autoclosure () -> String, archive: KeyedArchive
    ) throws(ArchiveError) -> [UInt8]? {
        switch value {
        case nil:
            return nil
        case .data(let d)?:
            return d
        case .uid(let target)?:
            let u = try archive.checkedUID(target)
            switch try archive.object(u) {
            case .value(.data(let d)):
                return d
            // Only these classes: another standard object (an NSIndexPath) could refer back here.
            case .instance(let name, _, _) where name == "NSData" || name == "NSMutableData":
                let fields = StandardObjects.Fields(plist: archive.plist, dict: archive.plist.header(archive.objectRefs[u]))
                return try StandardObjects.dataFields(name, object: u, archive: archive, fields)
            default:
                throw .notKeyed("\(what())'s \(key) does not refer to data")
            }
        default:
            throw .notKeyed("\(what())'s \(key) is not data")
        }
    }
}

/// NSIndexPath as Foundation writes it: `NSIndexPathLength`; for length 1, `NSIndexPathValue`;
/// for a greater length, `NSIndexPathData`, a UID of a data object holding the indexes packed
/// (`PackedIntegers`). Negative indexes (which Foundation's NSUInteger indexes cannot be) are
/// written as their 64-bit patterns and read back.
enum IndexPathCoding {
    static func encode(_ indexes: [Int], into archiver: inout ArchiveWriter) {
        archiver.pairs.append(archiver.table.string("NSIndexPathLength"))
        archiver.pairs.append(archiver.table.int(Int64(indexes.count)))
        if indexes.count == 1 {
            archiver.pairs.append(archiver.table.string("NSIndexPathValue"))
            archiver.pairs.append(archiver.table.int(Int64(indexes[0])))
        } else if indexes.count > 1 {
            var packed: [UInt8] = []
            packed.reserveCapacity(indexes.count * 2)
            for index in indexes { PackedIntegers.append(UInt64(bitPattern: Int64(index)), to: &packed) }
            archiver.pairs.append(archiver.table.string("NSIndexPathData"))
            archiver.pairs.append(archiver.table.uid(UInt64(archiver.dataUID(packed))))
        }
    }

    /// The indexes of NSIndexPath object `u`, whose fields `field` gives (`StandardObjects.Fields`).
    /// - Throws: `.notKeyedArchive` when the fields are missing, of the wrong types, or disagree:
    ///   a length that is not the number of indexes the data holds (data beside a length of 0 or
    ///   1 included), an index wider than 64 bits, data cut inside an index.
    static func decode(object u: Int, archive: KeyedArchive, _ field: StandardObjects.Fields) throws(ArchiveError) -> [Int] {
        guard case .int(let length)? = try field["NSIndexPathLength"], length >= 0 else {
            throw .notKeyed("the NSIndexPath object \(u) has no valid NSIndexPathLength")
        }
        let data = try PackedIntegers.data(try field["NSIndexPathData"], key: "NSIndexPathData", of: "the NSIndexPath object \(u)", archive: archive)
        if length <= 1 {
            var indexes: [Int] = []
            if length == 1 {
                guard case .int(let value)? = try field["NSIndexPathValue"], let index = Int(exactly: value) else {
                    throw .notKeyed("the NSIndexPath object \(u) has no valid NSIndexPathValue")
                }
                indexes = [index]
            }
            // Foundation writes no data for these; data that is there must agree.
            if let data, try PackedIntegers.read(data, count: Int(length), what: "the NSIndexPath object \(u)'s NSIndexPathData") != indexes {
                throw .notKeyed("the NSIndexPath object \(u)'s NSIndexPathData holds another index than its NSIndexPathValue")
            }
            return indexes
        }
        guard let data else {
            throw .notKeyed("the NSIndexPath object \(u) of length \(length) has no NSIndexPathData")
        }
        // Every index takes at least one byte: a length beyond the data is a lie, caught before allocating.
        guard length <= Int64(data.count) else {
            throw .notKeyed("the NSIndexPath object \(u) declares \(length) indexes in \(data.count) bytes")
        }
        return try PackedIntegers.read(data, count: Int(length), what: "the NSIndexPath object \(u)'s NSIndexPathData")
    }
}

/// NSIndexSet (and NSMutableIndexSet) as Foundation writes it: `NSRangeCount`; for one range,
/// `NSLocation` and `NSLength`; for more, `NSRangeData`, a UID of a data object holding each
/// range's location then length, packed (`PackedIntegers`).
enum IndexSetCoding {
    static func encode(_ ranges: [Range<Int>], into archiver: inout ArchiveWriter) {
        archiver.pairs.append(archiver.table.string("NSRangeCount"))
        archiver.pairs.append(archiver.table.int(Int64(ranges.count)))
        if ranges.count == 1 {
            archiver.pairs.append(archiver.table.string("NSLocation"))
            archiver.pairs.append(archiver.table.int(Int64(ranges[0].lowerBound)))
            archiver.pairs.append(archiver.table.string("NSLength"))
            archiver.pairs.append(archiver.table.int(Int64(ranges[0].upperBound &- ranges[0].lowerBound)))
        } else if ranges.count > 1 {
            var packed: [UInt8] = []
            packed.reserveCapacity(ranges.count * 4)
            for range in ranges {
                PackedIntegers.append(UInt64(bitPattern: Int64(range.lowerBound)), to: &packed)
                PackedIntegers.append(UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)), to: &packed)
            }
            archiver.pairs.append(archiver.table.string("NSRangeData"))
            archiver.pairs.append(archiver.table.uid(UInt64(archiver.dataUID(packed))))
        }
    }

    /// The ranges of index set object `u` (of class `name`), whose fields `field` gives
    /// (`StandardObjects.Fields`).
    /// - Throws: `.notKeyedArchive` when the fields are missing, of the wrong types, or disagree:
    ///   a count the data cannot hold (refused before anything is allocated from it), data beside
    ///   a count of 0 that holds ranges, a range outside `0 ... Int.max`.
    static func decode(
        _ name: String, object u: Int, archive: KeyedArchive, _ field: StandardObjects.Fields
    ) throws(ArchiveError) -> [Range<Int>] {
        guard case .int(let count)? = try field["NSRangeCount"], count >= 0 else {
            throw .notKeyed("the \(name) object \(u) has no valid NSRangeCount")
        }
        func range(_ location: Int, _ length: Int) throws(ArchiveError) -> Range<Int> {
            // Read as 64-bit patterns: a negative one is above Int.max.
            guard location >= 0, length >= 0, length <= Int.max - location else {
                throw .notKeyed("the \(name) object \(u) holds a range of \(UInt64(bitPattern: Int64(length))) indexes from \(UInt64(bitPattern: Int64(location))), past \(Int.max)")
            }
            return location ..< location + length
        }
        let data = try PackedIntegers.data(try field["NSRangeData"], key: "NSRangeData", of: "the \(name) object \(u)", archive: archive)
        if count == 1 {
            guard case .int(let location)? = try field["NSLocation"], case .int(let length)? = try field["NSLength"],
                  location >= 0, length >= 0
            else { throw .notKeyed("the \(name) object \(u) of one range has no valid NSLocation and NSLength") }
            return [try range(Int(location), Int(length))]
        }
        guard let data else {
            if count == 0 { return [] }
            throw .notKeyed("the \(name) object \(u) of \(count) ranges has no NSRangeData")
        }
        // Every range takes two bytes at least: a count beyond the data is refused before allocating.
        guard count <= Int64(data.count / 2) else {
            throw .notKeyed("the \(name) object \(u) declares \(count) ranges in \(data.count) bytes")
        }
        let values = try PackedIntegers.read(data, count: 2 * Int(count), what: "the \(name) object \(u)'s NSRangeData")
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(Int(count))
        var i = 0
        while i < values.count {
            ranges.append(try range(values[i], values[i + 1]))
            i += 2
        }
        return ranges
    }
}
