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
        /// UTF-16 string: `payload[start ..< start + 2 * count]`, big-endian, `count` code units.
        case utf16(Int32, Int32)
        case data(Int32, Int32)
        case uid(UInt64)
        /// Containers: `refs[start ..< start + count]` (a dictionary: `2 * count` references,
        /// key and value interleaved; serialization writes the keys, then the values).
        case array(Int32, Int32)
        case set(Int32, Int32)
        case dict(Int32, Int32)
    }

    private(set) var entries: [Entry] = []
    private var payload: [UInt8] = []

    private var refs: [Int32] = []
    private var stringRefs = StringMap()
    private var intRefs = ScalarMap()
    private var realRefs = ScalarMap()
    /// 4-byte reals and 16-byte integers: rare, but stored once like the others.
    private var floatRefs = ScalarMap()
    private var uintRefs = ScalarMap()
    private var dateRefs = ScalarMap()
    /// UIDs are small and dense in a keyed archive (below the number of objects): their objects
    /// are found by value in an array. A UID beyond what the table could hold goes to a map.
    private var uidRefs: [Int32] = []
    private var largeUIDRefs = ScalarMap()
    private var boolRefs: (Int32, Int32) = (-1, -1)

    /// `objects` is a hint: how many archived objects (each with a few values) to expect.
    init(capacity objects: Int = 0) {
        if objects > 0 {
            entries.reserveCapacity(objects * 8)
            refs.reserveCapacity(objects * 16)
            payload.reserveCapacity(objects * 48)
            stringRefs = StringMap(capacity: objects * 2)
            intRefs = ScalarMap(capacity: min(objects, 4096))
            realRefs = ScalarMap(capacity: objects)
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

    /// The reference of the entry uniquely keyed by `key` in `map`: found, or appended.
    @inline(__always)
    private static func unique(_ map: inout ScalarMap, _ entries: inout [Entry], _ key: UInt64, _ entry: Entry) -> Int32 {
        let (found, slot) = map.find(key)
        if found >= 0 { return found }
        entries.append(entry)
        let ref = Int32(truncatingIfNeeded: entries.count - 1)
        map.insert(key, ref, at: slot)
        return ref
    }

    mutating func int(_ value: Int64) -> Int32 {
        ObjectTable.unique(&intRefs, &entries, UInt64(bitPattern: value), .int(value))
    }

    mutating func uint(_ value: UInt64) -> Int32 {
        if value <= UInt64(Int64.max) { return int(Int64(value)) }
        return ObjectTable.unique(&uintRefs, &entries, value, .uint(value))
    }

    mutating func double(_ value: Double) -> Int32 {
        ObjectTable.unique(&realRefs, &entries, value.bitPattern, .double(value.bitPattern))
    }

    mutating func float(_ value: Float) -> Int32 {
        ObjectTable.unique(&floatRefs, &entries, UInt64(value.bitPattern), .float(value.bitPattern))
    }

    mutating func date(_ value: Double) -> Int32 {
        ObjectTable.unique(&dateRefs, &entries, value.bitPattern, .date(value.bitPattern))
    }

    mutating func uid(_ value: UInt64) -> Int32 {
        guard value < UInt64(max(entries.count * 2, 1024)) else {
            return ObjectTable.unique(&largeUIDRefs, &entries, value, .uid(value))
        }
        let index = Int(value)
        if index < uidRefs.count {
            let ref = uidRefs[index]
            if ref >= 0 { return ref }
        } else {
            uidRefs.append(contentsOf: repeatElement(-1, count: max(index + 1 - uidRefs.count, uidRefs.count)))
        }
        let ref = append(.uid(value))
        uidRefs[index] = ref
        return ref
    }

    mutating func data(_ bytes: [UInt8]) -> Int32 {
        let start = Int32(truncatingIfNeeded: payload.count)
        payload.append(contentsOf: bytes)
        return append(.data(start, Int32(truncatingIfNeeded: bytes.count)))
    }

    /// A string, stored once however often it is added.
    mutating func string(_ value: String) -> Int32 {
        let (found, slot, hash) = stringRefs.find(value) { ref in stringEquals(ref, value) }
        if found >= 0 { return found }
        let start = Int32(truncatingIfNeeded: payload.count)
        let utf8 = value.utf8
        let bytes = utf8.span
        var high: UInt8 = 0
        for i in bytes.indices {
            high |= bytes[i]
            payload.append(bytes[i])
        }
        let ref: Int32
        if high < 0x80 {
            ref = append(.ascii(start, Int32(truncatingIfNeeded: bytes.count)))
        } else {
            payload.removeSubrange(Int(start)...)
            var units: Int32 = 0
            for unit in value.utf16 {
                payload.append(UInt8(truncatingIfNeeded: unit >> 8))
                payload.append(UInt8(truncatingIfNeeded: unit))
                units += 1
            }
            ref = append(.utf16(start, units))
        }
        stringRefs.insert(ref, hash: hash, at: slot)
        if stringRefs.isFull {
            let (e, p) = (entries, payload)
            stringRefs.grow { ObjectTable.stringHash($0, e, p) }
        }
        return ref
    }

    /// Whether string object `ref` holds exactly `value`'s characters (by code units).
    private func stringEquals(_ ref: Int32, _ value: String) -> Bool {
        switch entries[Int(ref)] {
        case .ascii(let start, let count):
            let utf8 = value.utf8
            let bytes = utf8.span
            guard bytes.count == Int(count) else { return false }
            var at = Int(start)
            for i in bytes.indices {
                if payload[at] != bytes[i] { return false }
                at += 1
            }
            return true
        case .utf16(let start, let count):
            var at = Int(start)
            let end = at + 2 * Int(count)
            for unit in value.utf16 {
                guard at < end, UInt16(payload[at]) << 8 | UInt16(payload[at + 1]) == unit else { return false }
                at += 2
            }
            return at == end
        default:
            return false
        }
    }

    /// The hash of string object `ref`, as `StringMap.hash` computes it of the string.
    private static func stringHash(_ ref: Int32, _ entries: [Entry], _ payload: [UInt8]) -> UInt64 {
        switch entries[Int(ref)] {
        case .ascii(let start, let count):
            return StringMap.hash(bytes: payload[Int(start) ..< Int(start) + Int(count)])
        case .utf16(let start, let count):
            var units: [UInt16] = []
            for i in 0 ..< Int(count) {
                units.append(UInt16(payload[Int(start) + 2 * i]) << 8 | UInt16(payload[Int(start) + 2 * i + 1]))
            }
            return StringMap.hash(String(decoding: units, as: UTF16.self))
        default:
            return 0
        }
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
        refs.append(contentsOf: pairs)
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

    /// The fewest bytes (1 to 8) that hold `value`.
    static func byteWidth(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 7) / 8)
    }

    /// The width of a non-negative integer object's contents: 1, 2, 4 or 8 bytes.
    @inline(__always)
    static func intWidth(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// Bytes of a marker with a count (see `writeHeader`).
    @inline(__always)
    static func headerSize(_ count: Int) -> Int {
        count < 15 ? 1 : 2 + intWidth(UInt64(count))
    }

    /// The serialized size of an entry whose references are `refSize` bytes.
    @inline(__always)
    func size(of entry: Entry, refSize: Int) -> Int {
        switch entry {
        case .bool: return 1
        case .int(let v): return v < 0 ? 9 : 1 + ObjectTable.intWidth(UInt64(v))
        case .uint: return 17
        case .float: return 5
        case .double, .date: return 9
        case .ascii(_, let c), .data(_, let c): return ObjectTable.headerSize(Int(c)) + Int(c)
        case .utf16(_, let c): return ObjectTable.headerSize(Int(c)) + 2 * Int(c)
        case .uid(let v): return 1 + ObjectTable.byteWidth(v)
        case .array(_, let c), .set(_, let c): return ObjectTable.headerSize(Int(c)) + Int(c) * refSize
        case .dict(_, let c): return ObjectTable.headerSize(Int(c)) + 2 * Int(c) * refSize
        }
    }

    /// Writes the table as a `bplist00` file whose top object is `top`: sizes first, then every
    /// byte into a buffer of exactly the file's length.
    func serialize(top: Int32) -> [UInt8] {
        let n = entries.count
        let refSize = ObjectTable.byteWidth(UInt64(max(n - 1, 0)))
        var offsets = [Int](repeating: 0, count: n)
        var end = 8
        for index in 0 ..< n {
            offsets[index] = end
            end += size(of: entries[index], refSize: refSize)
        }
        let tableOffset = end
        let offsetSize = ObjectTable.byteWidth(UInt64(tableOffset))
        var out = [UInt8](repeating: 0, count: tableOffset + n * offsetSize + 32)
        var w = out.mutableSpan
        var at = 0
        w.bytes(&at, [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30])  // "bplist00"
        for index in 0 ..< n {
            switch entries[index] {
            case .bool(let b):
                w.byte(&at, b ? 0x09 : 0x08)
            case .int(let v):
                w.int(&at, v)
            case .uint(let v):
                w.byte(&at, 0x14)
                w.bigEndian(&at, 0, width: 8)
                w.bigEndian(&at, v, width: 8)
            case .float(let bits):
                w.byte(&at, 0x22)
                w.bigEndian(&at, UInt64(bits), width: 4)
            case .double(let bits):
                w.byte(&at, 0x23)
                w.bigEndian(&at, bits, width: 8)
            case .date(let bits):
                w.byte(&at, 0x33)
                w.bigEndian(&at, bits, width: 8)
            case .ascii(let index, let count):
                w.header(&at, 0x50, count: Int(count))
                w.bytes(&at, payload[Int(index) ..< Int(index) + Int(count)])
            case .utf16(let index, let count):
                w.header(&at, 0x60, count: Int(count))
                w.bytes(&at, payload[Int(index) ..< Int(index) + 2 * Int(count)])
            case .data(let start, let count):
                w.header(&at, 0x40, count: Int(count))
                w.bytes(&at, payload[Int(start) ..< Int(start) + Int(count)])
            case .uid(let v):
                let width = ObjectTable.byteWidth(v)
                w.byte(&at, 0x80 | UInt8(width - 1))
                w.bigEndian(&at, v, width: width)
            case .array(let start, let count):
                w.header(&at, 0xA0, count: Int(count))
                w.refs(&at, refs, Int(start), Int(count), refSize)
            case .set(let start, let count):
                w.header(&at, 0xC0, count: Int(count))
                w.refs(&at, refs, Int(start), Int(count), refSize)
            case .dict(let start, let count):
                w.header(&at, 0xD0, count: Int(count))
                w.refs(&at, refs, Int(start), Int(count), refSize, stride: 2)
                w.refs(&at, refs, Int(start) + 1, Int(count), refSize, stride: 2)
            }
        }
        for offset in offsets {
            w.bigEndian(&at, UInt64(offset), width: offsetSize)
        }
        w.bytes(&at, [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        w.bigEndian(&at, UInt64(n), width: 8)
        w.bigEndian(&at, UInt64(top), width: 8)
        w.bigEndian(&at, UInt64(tableOffset), width: 8)
        _ = consume w
        return out
    }
}

/// Writing into a buffer allocated at its final size; `at` is the position, advanced by each write.
extension MutableSpan where Element == UInt8 {
    @inline(__always)
    mutating func byte(_ at: inout Int, _ b: UInt8) {
        self[at] = b
        at += 1
    }

    @inline(__always)
    mutating func bytes(_ at: inout Int, _ bs: ArraySlice<UInt8>) {
        for b in bs {
            self[at] = b
            at += 1
        }
    }

    @inline(__always)
    mutating func bytes(_ at: inout Int, _ bs: [UInt8]) {
        for b in bs {
            self[at] = b
            at += 1
        }
    }

    @inline(__always)
    mutating func bigEndian(_ at: inout Int, _ value: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            self[at] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            at += 1
            shift -= 8
        }
    }

    /// An integer object: non-negative values in the smallest of 1, 2 and 4 bytes (these forms
    /// are unsigned), anything else in 8 bytes (signed).
    @inline(__always)
    mutating func int(_ at: inout Int, _ value: Int64) {
        if value >= 0 {
            let width = ObjectTable.intWidth(UInt64(value))
            byte(&at, 0x10 | UInt8(width.trailingZeroBitCount))
            bigEndian(&at, UInt64(value), width: width)
        } else {
            byte(&at, 0x13)
            bigEndian(&at, UInt64(bitPattern: value), width: 8)
        }
    }

    /// A marker with a count: in the low nibble below 15, else nibble 15 and an integer object.
    @inline(__always)
    mutating func header(_ at: inout Int, _ marker: UInt8, count: Int) {
        if count < 15 {
            byte(&at, marker | UInt8(count))
        } else {
            byte(&at, marker | 0x0F)
            int(&at, Int64(count))
        }
    }

    @inline(__always)
    mutating func refs(_ at: inout Int, _ refs: [Int32], _ start: Int, _ count: Int, _ width: Int, stride step: Int = 1) {
        var i = start
        let end = start + count * step
        switch width {
        case 1:
            while i < end {
                self[at] = UInt8(truncatingIfNeeded: refs[i])
                at += 1
                i += step
            }
        case 2:
            while i < end {
                let r = refs[i]
                self[at] = UInt8(truncatingIfNeeded: r >> 8)
                self[at + 1] = UInt8(truncatingIfNeeded: r)
                at += 2
                i += step
            }
        case 3:
            while i < end {
                let r = refs[i]
                self[at] = UInt8(truncatingIfNeeded: r >> 16)
                self[at + 1] = UInt8(truncatingIfNeeded: r >> 8)
                self[at + 2] = UInt8(truncatingIfNeeded: r)
                at += 3
                i += step
            }
        default:
            while i < end {
                bigEndian(&at, UInt64(UInt32(bitPattern: refs[i])), width: width)
                i += step
            }
        }
    }
}
