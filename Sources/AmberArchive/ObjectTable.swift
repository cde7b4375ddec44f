/// The object table of a binary property list under construction, and its serialization.
///
/// Objects are added children first; each addition returns the object's reference. Equal
/// strings, integers, reals, dates and UIDs, and the two booleans, are stored once. Containers
/// keep their references in one shared buffer, so building a table allocates a handful of
/// arrays however many objects it holds. `serialize(top:)` then picks the smallest reference and
/// offset sizes and writes the `bplist00` file in one pass.
struct ObjectTable {
    enum Entry {
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case float(UInt32)
        case double(UInt64)
        case date(UInt64)
        /// ASCII string: `payload[start ..< start + count]`.
        case ascii(Int32, Int32)
        /// UTF-16 string: `payload[start ..< start + 2 * count]`, big-endian, count in code units.
        case utf16(Int32, Int32)
        case data(Int32, Int32)
        case uid(UInt64)
        /// Containers: `refs[start ..< start + count]` (a dictionary: count keys, then count values).
        case array(Int32, Int32)
        case set(Int32, Int32)
        case dict(Int32, Int32)
    }

    private(set) var entries: [Entry] = []
    private var payload: [UInt8] = []
    private var refs: [Int32] = []
    private var stringRefs: [String: Int32] = [:]
    private var intRefs: [Int64: Int32] = [:]
    private var realRefs: [UInt64: Int32] = [:]
    private var dateRefs: [UInt64: Int32] = [:]
    private var uidRefs: [UInt64: Int32] = [:]
    private var boolRefs: (Int32, Int32) = (-1, -1)

    init(capacity: Int = 0) {
        if capacity > 0 {
            entries.reserveCapacity(capacity)
            refs.reserveCapacity(capacity * 2)
            payload.reserveCapacity(capacity * 8)
        }
    }

    var count: Int { entries.count }

    private mutating func append(_ entry: Entry) -> Int32 {
        entries.append(entry)
        return Int32(truncatingIfNeeded: entries.count - 1)
    }

    mutating func bool(_ value: Bool) -> Int32 {
        if value {
            if boolRefs.1 < 0 { boolRefs.1 = append(.bool(true)) }
            return boolRefs.1
        } else {
            if boolRefs.0 < 0 { boolRefs.0 = append(.bool(false)) }
            return boolRefs.0
        }
    }

    mutating func int(_ value: Int64) -> Int32 {
        if let ref = intRefs[value] { return ref }
        let ref = append(.int(value))
        intRefs[value] = ref
        return ref
    }

    mutating func uint(_ value: UInt64) -> Int32 {
        if value <= UInt64(Int64.max) { return int(Int64(value)) }
        return append(.uint(value))
    }

    mutating func double(_ value: Double) -> Int32 {
        let bits = value.bitPattern
        if let ref = realRefs[bits] { return ref }
        let ref = append(.double(bits))
        realRefs[bits] = ref
        return ref
    }

    mutating func float(_ value: Float) -> Int32 {
        append(.float(value.bitPattern))
    }

    mutating func date(_ value: Double) -> Int32 {
        let bits = value.bitPattern
        if let ref = dateRefs[bits] { return ref }
        let ref = append(.date(bits))
        dateRefs[bits] = ref
        return ref
    }

    mutating func uid(_ value: UInt64) -> Int32 {
        if let ref = uidRefs[value] { return ref }
        let ref = append(.uid(value))
        uidRefs[value] = ref
        return ref
    }

    mutating func data(_ bytes: [UInt8]) -> Int32 {
        let start = Int32(truncatingIfNeeded: payload.count)
        payload.append(contentsOf: bytes)
        return append(.data(start, Int32(truncatingIfNeeded: bytes.count)))
    }

    /// A string, stored once however often it is added.
    mutating func string(_ value: String) -> Int32 {
        if let ref = stringRefs[value] { return ref }
        let ref = newString(value)
        stringRefs[value] = ref
        return ref
    }

    private mutating func newString(_ value: String) -> Int32 {
        let start = Int32(truncatingIfNeeded: payload.count)
        var ascii = true
        for byte in value.utf8 where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            payload.append(contentsOf: value.utf8)
            return append(.ascii(start, Int32(truncatingIfNeeded: payload.count) - start))
        }
        var units: Int32 = 0
        for unit in value.utf16 {
            payload.append(UInt8(truncatingIfNeeded: unit >> 8))
            payload.append(UInt8(truncatingIfNeeded: unit))
            units += 1
        }
        return append(.utf16(start, units))
    }

    mutating func array(_ items: some Collection<Int32>) -> Int32 {
        let start = Int32(truncatingIfNeeded: refs.count)
        refs.append(contentsOf: items)
        return append(.array(start, Int32(truncatingIfNeeded: items.count)))
    }

    mutating func set(_ items: some Collection<Int32>) -> Int32 {
        let start = Int32(truncatingIfNeeded: refs.count)
        refs.append(contentsOf: items)
        return append(.set(start, Int32(truncatingIfNeeded: items.count)))
    }

    /// A dictionary from `pairs`, laid out as key, value, key, value, ….
    mutating func dictionary(interleaved pairs: ArraySlice<Int32>) -> Int32 {
        let start = Int32(truncatingIfNeeded: refs.count)
        var i = pairs.startIndex
        while i < pairs.endIndex {
            refs.append(pairs[i])
            i += 2
        }
        i = pairs.startIndex + 1
        while i < pairs.endIndex {
            refs.append(pairs[i])
            i += 2
        }
        return append(.dict(start, Int32(truncatingIfNeeded: pairs.count / 2)))
    }

    /// Reserves a reference for an array whose items are known later (see `fillArray`).
    mutating func reserve() -> Int32 {
        append(.bool(false))
    }

    mutating func fillArray(_ ref: Int32, items: some Collection<Int32>) {
        let start = Int32(truncatingIfNeeded: refs.count)
        refs.append(contentsOf: items)
        entries[Int(ref)] = .array(start, Int32(truncatingIfNeeded: items.count))
    }

    /// Adds a whole property list value, children first.
    mutating func add(_ value: PropertyList) -> Int32 {
        switch value {
        case .bool(let b): return bool(b)
        case .int(let i): return int(i)
        case .uint(let u): return uint(u)
        case .float(let f): return float(f)
        case .double(let d): return double(d)
        case .date(let d): return date(d)
        case .data(let bytes): return data(bytes)
        case .string(let s): return string(s)
        case .uid(let u): return uid(u)
        case .array(let items):
            let itemRefs = items.map { add($0) }
            return array(itemRefs)
        case .set(let items):
            let itemRefs = items.map { add($0) }
            return set(itemRefs)
        case .dictionary(let pairs):
            var flat: [Int32] = []
            flat.reserveCapacity(pairs.count * 2)
            for pair in pairs {
                flat.append(add(pair.key))
                flat.append(add(pair.value))
            }
            return dictionary(interleaved: flat[...])
        }
    }

    // MARK: Serialization

    static func byteWidth(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// Writes the table as a `bplist00` file whose top object is `top`.
    func serialize(top: Int32) -> [UInt8] {
        let n = entries.count
        let refSize = ObjectTable.byteWidth(UInt64(max(n - 1, 0)))
        var out: [UInt8] = []
        out.reserveCapacity(8 + payload.count + refs.count * refSize + n * 6 + 64)
        out.append(contentsOf: [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30])  // "bplist00"
        var offsets = [Int](repeating: 0, count: n)
        for index in 0 ..< n {
            offsets[index] = out.count
            switch entries[index] {
            case .bool(let b):
                out.append(b ? 0x09 : 0x08)
            case .int(let v):
                ObjectTable.writeInt(v, into: &out)
            case .uint(let v):
                out.append(0x14)
                out.append(contentsOf: repeatElement(0, count: 8))
                ObjectTable.writeBigEndian(v, width: 8, into: &out)
            case .float(let bits):
                out.append(0x22)
                ObjectTable.writeBigEndian(UInt64(bits), width: 4, into: &out)
            case .double(let bits):
                out.append(0x23)
                ObjectTable.writeBigEndian(bits, width: 8, into: &out)
            case .date(let bits):
                out.append(0x33)
                ObjectTable.writeBigEndian(bits, width: 8, into: &out)
            case .ascii(let start, let count):
                ObjectTable.writeHeader(0x50, count: Int(count), into: &out)
                out.append(contentsOf: payload[Int(start) ..< Int(start) + Int(count)])
            case .utf16(let start, let count):
                ObjectTable.writeHeader(0x60, count: Int(count), into: &out)
                out.append(contentsOf: payload[Int(start) ..< Int(start) + 2 * Int(count)])
            case .data(let start, let count):
                ObjectTable.writeHeader(0x40, count: Int(count), into: &out)
                out.append(contentsOf: payload[Int(start) ..< Int(start) + Int(count)])
            case .uid(let v):
                let width = ObjectTable.byteWidth(v)
                out.append(0x80 | UInt8(width - 1))
                ObjectTable.writeBigEndian(v, width: width, into: &out)
            case .array(let start, let count):
                ObjectTable.writeHeader(0xA0, count: Int(count), into: &out)
                writeRefs(start: Int(start), count: Int(count), width: refSize, into: &out)
            case .set(let start, let count):
                ObjectTable.writeHeader(0xC0, count: Int(count), into: &out)
                writeRefs(start: Int(start), count: Int(count), width: refSize, into: &out)
            case .dict(let start, let count):
                ObjectTable.writeHeader(0xD0, count: Int(count), into: &out)
                writeRefs(start: Int(start), count: 2 * Int(count), width: refSize, into: &out)
            }
        }
        let tableOffset = out.count
        let offsetSize = ObjectTable.byteWidth(UInt64(tableOffset))
        out.reserveCapacity(out.count + n * offsetSize + 32)
        for offset in offsets {
            ObjectTable.writeBigEndian(UInt64(offset), width: offsetSize, into: &out)
        }
        out.append(contentsOf: repeatElement(0, count: 6))
        out.append(UInt8(offsetSize))
        out.append(UInt8(refSize))
        ObjectTable.writeBigEndian(UInt64(n), width: 8, into: &out)
        ObjectTable.writeBigEndian(UInt64(top), width: 8, into: &out)
        ObjectTable.writeBigEndian(UInt64(tableOffset), width: 8, into: &out)
        return out
    }

    private func writeRefs(start: Int, count: Int, width: Int, into out: inout [UInt8]) {
        switch width {
        case 1:
            for i in start ..< start + count { out.append(UInt8(truncatingIfNeeded: refs[i])) }
        case 2:
            for i in start ..< start + count {
                let r = refs[i]
                out.append(UInt8(truncatingIfNeeded: r >> 8))
                out.append(UInt8(truncatingIfNeeded: r))
            }
        default:
            for i in start ..< start + count {
                ObjectTable.writeBigEndian(UInt64(UInt32(bitPattern: refs[i])), width: width, into: &out)
            }
        }
    }

    @inline(__always)
    static func writeBigEndian(_ value: UInt64, width: Int, into out: inout [UInt8]) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// An integer object: non-negative values in the smallest of 1, 2 and 4 bytes (these forms
    /// are unsigned), anything else in 8 bytes (signed).
    static func writeInt(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0 {
            let width = byteWidth(UInt64(value))
            out.append(0x10 | UInt8(width.trailingZeroBitCount))
            writeBigEndian(UInt64(value), width: width, into: &out)
        } else {
            out.append(0x13)
            writeBigEndian(UInt64(bitPattern: value), width: 8, into: &out)
        }
    }

    /// A marker with a count: in the low nibble below 15, else nibble 15 and an integer object.
    static func writeHeader(_ marker: UInt8, count: Int, into out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            writeInt(Int64(count), into: &out)
        }
    }
}
