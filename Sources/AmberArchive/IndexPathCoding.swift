/// NSIndexPath as Foundation writes it: `NSIndexPathLength`; for length 1, `NSIndexPathValue`;
/// for a greater length, `NSIndexPathData`, a UID of a data object holding the indexes as
/// unsigned LEB128 (seven bits a byte, low group first, high bit set while more follow).
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
            for index in indexes {
                var v = UInt64(bitPattern: Int64(index))
                while v >= 0x80 {
                    packed.append(UInt8(truncatingIfNeeded: v) | 0x80)
                    v >>= 7
                }
                packed.append(UInt8(v))
            }
            archiver.pairs.append(archiver.table.string("NSIndexPathData"))
            archiver.pairs.append(archiver.table.uid(UInt64(archiver.dataUID(packed))))
        }
    }

    static func decode(object u: Int, archive: KeyedArchive, dict: BinaryPropertyList.Header) throws(ArchiveError) -> [Int] {
        let plist = archive.plist
        guard let lengthRef = plist.lookup("NSIndexPathLength", in: dict),
              case .int(let length) = try plist.value(at: lengthRef), length >= 0
        else { throw .notKeyed("the NSIndexPath object \(u) has no valid NSIndexPathLength") }
        if length == 0 { return [] }
        if length == 1 {
            guard let valueRef = plist.lookup("NSIndexPathValue", in: dict),
                  case .int(let value) = try plist.value(at: valueRef), let index = Int(exactly: value)
            else { throw .notKeyed("the NSIndexPath object \(u) has no valid NSIndexPathValue") }
            return [index]
        }
        guard let dataRef = plist.lookup("NSIndexPathData", in: dict) else {
            throw .notKeyed("the NSIndexPath object \(u) of length \(length) has no NSIndexPathData")
        }
        var bytes: [UInt8]
        switch try plist.value(at: dataRef) {
        case .data(let d): bytes = d
        case .uid(let target):
            guard case .value(.data(let d)) = try archive.object(target > UInt64(Int.max) ? -1 : Int(target)) else {
                throw .notKeyed("the NSIndexPath object \(u)'s NSIndexPathData does not refer to data")
            }
            bytes = d
        default: throw .notKeyed("the NSIndexPath object \(u)'s NSIndexPathData is not data")
        }
        // Every index takes at least one byte: a length beyond the data is a lie, caught before allocating.
        guard length <= Int64(bytes.count) else {
            throw .notKeyed("the NSIndexPath object \(u) declares \(length) indexes in \(bytes.count) bytes")
        }
        var indexes: [Int] = []
        indexes.reserveCapacity(Int(length))
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { throw .notKeyed("the NSIndexPath object \(u) holds an index wider than 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                indexes.append(Int(truncatingIfNeeded: value))
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        guard shift == 0, indexes.count == Int(length) else {
            throw .notKeyed("the NSIndexPath object \(u)'s NSIndexPathData holds \(indexes.count) whole indexes, not \(length)")
        }
        return indexes
    }
}
