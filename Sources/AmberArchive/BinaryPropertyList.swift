/// A validated binary property list (`bplist00`), read from bytes.
///
/// Creating one checks the whole structure before anything else reads it (SPEC R22): the
/// header, the trailer, the exact length, every offset, every object's marker and length, every
/// reference, that no container contains itself (cycles belong at the keyed layer, as UIDs),
/// and that containers nest no deeper than the limit. Counts declared by the file are checked
/// against the bytes that remain before anything is allocated from them. Afterwards, reading
/// values cannot fail structurally; it can still fail on content (a non-ASCII byte in an ASCII
/// string, an invalid UTF-16 sequence, an integer wider than 64 bits, a dictionary key that is
/// a container), with a typed error.
public struct BinaryPropertyList: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The offset of each object, by reference.
    let offsets: [Int]
    let refSize: Int
    /// The reference of the top object.
    public let top: Int
    let limits: ArchiveLimits

    /// The number of objects in the file's object table.
    public var objectCount: Int { offsets.count }

    /// Reads and validates a binary property list.
    /// - Throws: `ArchiveError` with code `.corrupt` or `.limitExceeded`, naming the problem.
    public init(bytes: [UInt8], limits: ArchiveLimits = .default) throws(ArchiveError) {
        self.bytes = bytes
        self.limits = limits
        let length = bytes.count
        guard length <= limits.maxBytes else {
            throw .limit("the input is \(length) bytes, over the limit of \(limits.maxBytes)")
        }
        guard length >= 8 + 1 + 1 + 32 else {
            throw .corrupt("the input is \(length) bytes, too short for a binary property list")
        }
        guard bytes[0] == 0x62, bytes[1] == 0x70, bytes[2] == 0x6C, bytes[3] == 0x69,
              bytes[4] == 0x73, bytes[5] == 0x74
        else { throw .corrupt("the header is not 'bplist'") }
        guard bytes[6] == 0x30, bytes[7] == 0x30 else {
            throw .corrupt("unsupported binary property list version '\(Character(Unicode.Scalar(bytes[6])))\(Character(Unicode.Scalar(bytes[7])))' (only 00 is read)")
        }
        let t = length - 32
        let offsetSize = Int(bytes[t + 6])
        let refSize = Int(bytes[t + 7])
        let n = BinaryPropertyList.readUInt(bytes, at: t + 8, width: 8)
        let top = BinaryPropertyList.readUInt(bytes, at: t + 16, width: 8)
        let tableOffset = BinaryPropertyList.readUInt(bytes, at: t + 24, width: 8)
        guard (1 ... 8).contains(offsetSize) else {
            throw .corrupt("the trailer's offset size is \(offsetSize), not 1 to 8")
        }
        guard (1 ... 8).contains(refSize) else {
            throw .corrupt("the trailer's reference size is \(refSize), not 1 to 8")
        }
        guard n >= 1 else { throw .corrupt("the trailer declares no objects") }
        guard top < n else { throw .corrupt("the top object \(top) is not among the \(n) objects") }
        guard tableOffset >= 9, tableOffset <= UInt64(t) else {
            throw .corrupt("the offset table's offset \(tableOffset) is outside the object area 9...\(t)")
        }
        // Checked against the file's length first, so that the product cannot overflow whatever
        // the limits (n <= t < Int.max / 8), and so that a truncated or garbled file is corrupt,
        // not over a limit.
        guard n <= UInt64(t), Int(tableOffset) + Int(n) * offsetSize == t else {
            throw .corrupt("the offset table (\(n) entries of \(offsetSize) bytes at \(tableOffset)) does not end where the trailer begins (\(t)): the length is wrong")
        }
        guard n <= UInt64(limits.maxObjects) else {
            throw .limit("the trailer declares \(n) objects, over the limit of \(limits.maxObjects)")
        }
        let objectEnd = Int(tableOffset)
        // Made by `map`, which writes each entry once (an array made zeroed first and filled in
        // after is written twice: 7 MB each time for a 100,000-node tree).
        let offsets = try (0 ..< Int(n)).map { (index) throws(ArchiveError) -> Int in
            let offset = BinaryPropertyList.readUInt(bytes, at: objectEnd + index * offsetSize, width: offsetSize)
            guard offset >= 8, offset < UInt64(objectEnd) else {
                throw .corrupt("object \(index) has offset \(offset), outside the object area 8..<\(objectEnd)")
            }
            return Int(offset)
        }
        self.offsets = offsets
        self.refSize = refSize
        self.top = Int(top)
        let order = try validateObjects(end: objectEnd)
        try validateNesting(order)
    }

    // MARK: Structure

    /// The parts of an object's header.
    @usableFromInline
    struct Header {
        /// The marker byte.
        var marker: UInt8
        /// The count from the low nibble or the following integer (containers, strings, data).
        var count: Int
        /// Where the object's contents begin.
        var start: Int
    }

    /// Reads an object's marker and count. Valid after `init` for every reference.
    @inline(__always)
    func header(_ ref: Int) -> Header {
        let offset = offsets[ref]
        let marker = bytes[offset]
        let nibble = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x4, 0x5, 0x6, 0xA, 0xC, 0xD:
            if nibble != 0x0F { return Header(marker: marker, count: nibble, start: offset + 1) }
            let width = 1 << Int(bytes[offset + 1] & 0x0F)
            let count = Int(truncatingIfNeeded: BinaryPropertyList.readUInt(bytes, at: offset + 2, width: width))
            return Header(marker: marker, count: count, start: offset + 2 + width)
        default:
            return Header(marker: marker, count: nibble, start: offset + 1)
        }
    }

    /// Reads a reference stored at `at`.
    @inline(__always)
    func ref(at: Int) -> Int {
        if refSize == 1 { return Int(bytes[at]) }
        if refSize == 2 { return Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        if refSize == 3 { return Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) }
        return Int(truncatingIfNeeded: BinaryPropertyList.readUInt(bytes, at: at, width: refSize))
    }

    /// The big-endian unsigned integer of `width` bytes at `at` (the common widths unrolled).
    @inline(__always)
    static func readUInt(_ bytes: [UInt8], at: Int, width: Int) -> UInt64 {
        switch width {
        case 1: return UInt64(bytes[at])
        case 2: return UInt64(bytes[at]) << 8 | UInt64(bytes[at + 1])
        case 3: return UInt64(bytes[at]) << 16 | UInt64(bytes[at + 1]) << 8 | UInt64(bytes[at + 2])
        case 4:
            return UInt64(bytes[at]) << 24 | UInt64(bytes[at + 1]) << 16 | UInt64(bytes[at + 2]) << 8
                | UInt64(bytes[at + 3])
        default:
            var value: UInt64 = 0
            for i in at ..< at + width { value = value << 8 | UInt64(bytes[i]) }
            return value
        }
    }

    /// How the containers' references relate to their own positions in the object table.
    enum ReferenceOrder {
        /// Every container refers only to objects before it (Amber's writer): no cycle is possible.
        case childrenFirst
        /// Every container refers only to objects after it (CoreFoundation's writer, plistlib's).
        case childrenLast
        /// Neither: a depth-first walk must look for cycles.
        case mixed
    }

    /// Checks every object's marker, length and references; says how references are ordered.
    /// While every reference points backwards, it also computes nesting heights as it goes, so
    /// that such a file (Amber writes them) needs no second pass.
    private func validateObjects(end: Int) throws(ArchiveError) -> ReferenceOrder {
        let n = offsets.count
        var allBefore = true
        var allAfter = true
        var height = [Int32](repeating: 0, count: n)
        for index in 0 ..< n {
            let offset = offsets[index]
            let marker = bytes[offset]
            let nibble = Int(marker & 0x0F)
            var size: Int  // bytes after the marker (and after the length integer, for counted types)
            var start = offset + 1
            func need(_ bytesNeeded: Int) throws(ArchiveError) {
                if bytesNeeded > end - start {
                    throw .corrupt("object \(index) at offset \(offset) (marker 0x\(hex(marker))) needs \(bytesNeeded) bytes but only \(end - start) remain before the offset table")
                }
            }
            switch marker >> 4 {
            case 0x0:
                guard marker == 0x08 || marker == 0x09 else {
                    throw .corrupt("object \(index) at offset \(offset) has undefined marker 0x\(hex(marker))")
                }
                size = 0
            case 0x1:
                guard nibble <= 4 else {
                    throw .corrupt("object \(index) at offset \(offset) is an integer of undefined width (marker 0x\(hex(marker)))")
                }
                size = 1 << nibble
            case 0x2:
                guard nibble == 2 || nibble == 3 else {
                    throw .corrupt("object \(index) at offset \(offset) is a real of undefined width (marker 0x\(hex(marker)))")
                }
                size = 1 << nibble
            case 0x3:
                guard marker == 0x33 else {
                    throw .corrupt("object \(index) at offset \(offset) has undefined marker 0x\(hex(marker))")
                }
                size = 8
            case 0x4, 0x5, 0x6, 0xA, 0xC, 0xD:
                var count = nibble
                if nibble == 0x0F {
                    try need(1)
                    let intMarker = bytes[start]
                    guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
                        throw .corrupt("object \(index) at offset \(offset): the length after marker 0x\(hex(marker)) is not an integer (marker 0x\(hex(intMarker)))")
                    }
                    let width = 1 << Int(intMarker & 0x0F)
                    start += 1
                    try need(width)
                    let raw = BinaryPropertyList.readUInt(bytes, at: start, width: width)
                    guard raw <= UInt64(Int32.max) else {
                        throw .corrupt("object \(index) at offset \(offset) declares \(Int64(bitPattern: raw)) elements")
                    }
                    count = Int(raw)
                    start += width
                }
                switch marker >> 4 {
                case 0x4, 0x5:
                    size = count
                    guard limits.admitsValue(length: count) else {
                        throw .limit("object \(index) at offset \(offset) is \(count) bytes long, over the limit of \(limits.maxValueLength)")
                    }
                case 0x6:
                    size = 2 * count
                    guard limits.admitsValue(length: size) else {
                        throw .limit("object \(index) at offset \(offset) is \(size) bytes long, over the limit of \(limits.maxValueLength)")
                    }
                case 0xD: size = 2 * count * refSize
                default: size = count * refSize
                }
                try need(size)
                if marker >> 4 >= 0xA {
                    var at = start
                    let stop = start + size
                    var tallest: Int32 = 0
                    // While every reference so far points backwards (Amber's files), this
                    // container's references up to its first one at or after `index` are read
                    // by a loop unrolled for the reference size: each of them is in range
                    // (below index < n) and makes `allAfter` false, so only its height is
                    // taken. The loop below goes on from the first other one, if any, with the
                    // checks and messages it always had.
                    if allBefore, at < stop {
                        switch refSize {
                        case 1:
                            while at < stop {
                                let r = Int(bytes[at])
                                if r >= index { break }
                                tallest = max(tallest, height[r])
                                at += 1
                            }
                        case 2:
                            while at < stop {
                                let r = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                                if r >= index { break }
                                tallest = max(tallest, height[r])
                                at += 2
                            }
                        case 3:
                            while at < stop {
                                let r = Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
                                if r >= index { break }
                                tallest = max(tallest, height[r])
                                at += 3
                            }
                        default:
                            break
                        }
                        if at != start { allAfter = false }
                    }
                    while at < stop {
                        let r = ref(at: at)
                        if r < 0 || r >= n {
                            throw .corrupt("object \(index) at offset \(offset) refers to object \(r), but there are \(n)")
                        }
                        if r >= index { allBefore = false }
                        if r <= index { allAfter = false }
                        if allBefore { tallest = max(tallest, height[r]) }
                        at += refSize
                    }
                    if allBefore {
                        guard tallest < Int32(limits.maxDepth) else {
                            throw .limit("containers nest deeper than the limit of \(limits.maxDepth)")
                        }
                        height[index] = tallest + 1
                    }
                }
                continue
            case 0x8:
                guard nibble <= 7 else {
                    throw .corrupt("object \(index) at offset \(offset) is a UID of undefined width (marker 0x\(hex(marker)))")
                }
                size = nibble + 1
            default:
                throw .corrupt("object \(index) at offset \(offset) has undefined marker 0x\(hex(marker))")
            }
            try need(size)
        }
        return allBefore ? .childrenFirst : allAfter ? .childrenLast : .mixed
    }

    /// Rejects containers that contain themselves and nesting deeper than the limit, by one
    /// iterative depth-first walk from the top object (no recursion, whatever the input).
    /// Rejects containers that contain themselves and nesting deeper than the limit. When the
    /// references all point one way, heights are computed in one pass in that order; otherwise
    /// by an iterative depth-first walk from the top object (no recursion, whatever the input).
    private func validateNesting(_ order: ReferenceOrder) throws(ArchiveError) {
        if order == .childrenFirst { return }  // checked by validateObjects
        guard order == .mixed else {
            var height = [Int32](repeating: 0, count: offsets.count)
            let indices: StrideTo<Int> = order == .childrenFirst
                ? stride(from: 0, to: offsets.count, by: 1)
                : stride(from: offsets.count - 1, to: -1, by: -1)
            for index in indices {
                let h = header(index)
                let kind = h.marker >> 4
                guard kind >= 0xA else { continue }
                let stop = h.start + (kind == 0xD ? 2 : 1) * h.count * refSize
                var tallest: Int32 = 0
                var at = h.start
                while at < stop {
                    tallest = max(tallest, height[ref(at: at)])
                    at += refSize
                }
                guard tallest < Int32(limits.maxDepth) else {
                    throw .limit("containers nest deeper than the limit of \(limits.maxDepth)")
                }
                height[index] = tallest + 1
            }
            return
        }
        // state: 0 unseen, 1 on the path, 2 done. height: containers below, including itself.
        var state = [UInt8](repeating: 0, count: offsets.count)
        var height = [Int32](repeating: 0, count: offsets.count)
        struct Frame { var ref: Int; var next: Int; var stop: Int }
        var stack: [Frame] = []
        func push(_ ref: Int) -> Frame? {
            let h = header(ref)
            switch h.marker >> 4 {
            case 0xA, 0xC: return Frame(ref: ref, next: h.start, stop: h.start + h.count * refSize)
            case 0xD: return Frame(ref: ref, next: h.start, stop: h.start + 2 * h.count * refSize)
            default: return nil
            }
        }
        guard let root = push(top) else { return }
        state[top] = 1
        stack.append(root)
        while !stack.isEmpty {
            let i = stack.count - 1
            if stack[i].next < stack[i].stop {
                let child = ref(at: stack[i].next)
                stack[i].next += refSize
                switch state[child] {
                case 1:
                    throw .corrupt("container object \(child) contains itself (a cycle in the property list)")
                case 2:
                    if Int(height[child]) + stack.count > limits.maxDepth {
                        throw .limit("containers nest deeper than the limit of \(limits.maxDepth)")
                    }
                default:
                    if let frame = push(child) {
                        if stack.count >= limits.maxDepth {
                            throw .limit("containers nest deeper than the limit of \(limits.maxDepth)")
                        }
                        state[child] = 1
                        stack.append(frame)
                    } else {
                        state[child] = 2
                    }
                }
            } else {
                let done = stack.removeLast()
                state[done.ref] = 2
                height[done.ref] = max(height[done.ref], 1)
                if let parent = stack.last {
                    height[parent.ref] = max(height[parent.ref], height[done.ref] + 1)
                }
            }
        }
    }

    // MARK: Values

    /// The whole top object as a value.
    public func topValue() throws(ArchiveError) -> PropertyList {
        var budget = valueBudget
        return try value(at: top, depth: 0, budget: &budget)
    }

    /// The most values one decoding may produce: four per byte of input. A file whose
    /// containers are not shared decodes to at most one value per reference it stores (and a
    /// reference takes at least a byte), so this never refuses one; a file that shares
    /// containers over and over (each array holding the previous one twice) would otherwise
    /// expand exponentially.
    var valueBudget: Int { 4 * bytes.count }

    func overBudget() -> ArchiveError {
        .limit("decoding would produce more than \(valueBudget) values (four per byte of the input): containers are shared so often that they would expand without bound")
    }

    /// The object `ref` as a value, its containers decoded recursively.
    /// - Throws: `.corrupt` for invalid content (a dictionary keyed by an array, a set or a
    ///   dictionary included: CoreFoundation's reader refuses one too, and no value reads with
    ///   one); `.limitExceeded` past the nesting limit.
    public func value(at ref: Int) throws(ArchiveError) -> PropertyList {
        guard ref >= 0, ref < offsets.count else {
            throw .corrupt("object \(ref) is not among the \(offsets.count) objects")
        }
        var budget = valueBudget
        return try value(at: ref, depth: 0, budget: &budget)
    }

    /// `depth` counts the containers above `ref`; `budget` the values still allowed.
    func value(at ref: Int, depth: Int, budget: inout Int) throws(ArchiveError) -> PropertyList {
        budget -= 1
        if budget < 0 { throw overBudget() }
        let h = header(ref)
        if h.marker >> 4 >= 0xA, depth >= limits.maxDepth {
            throw .limit("containers nest deeper than the limit of \(limits.maxDepth)")
        }
        switch h.marker >> 4 {
        case 0x0: return .bool(h.marker == 0x09)
        case 0x1:
            let v = try integer(h, ref: ref)
            if let s = Int64(exactly: v) { return .int(s) }
            return .uint(UInt64(truncatingIfNeeded: v))
        case 0x2:
            if h.count == 2 {
                return .float(Float(bitPattern: UInt32(BinaryPropertyList.readUInt(bytes, at: h.start, width: 4))))
            }
            return .double(Double(bitPattern: BinaryPropertyList.readUInt(bytes, at: h.start, width: 8)))
        case 0x3: return .date(Double(bitPattern: BinaryPropertyList.readUInt(bytes, at: h.start, width: 8)))
        case 0x4: return .data(Array(bytes[h.start ..< h.start + h.count]))
        case 0x5, 0x6: return .string(try string(h, ref: ref))
        case 0x8: return .uid(BinaryPropertyList.readUInt(bytes, at: h.start, width: h.count + 1))
        case 0xA, 0xC:
            var items: [PropertyList] = []
            items.reserveCapacity(h.count)
            var at = h.start
            for _ in 0 ..< h.count {
                items.append(try value(at: self.ref(at: at), depth: depth + 1, budget: &budget))
                at += refSize
            }
            return h.marker >> 4 == 0xA ? .array(items) : .set(items)
        default:
            var pairs: [PropertyListPair] = []
            pairs.reserveCapacity(h.count)
            let valuesStart = h.start + h.count * refSize
            for i in 0 ..< h.count {
                let keyRef = self.ref(at: h.start + i * refSize)
                let keyMarker = bytes[offsets[keyRef]]
                if keyMarker >> 4 == 0xA || keyMarker >> 4 == 0xC || keyMarker >> 4 == 0xD {
                    throw .corrupt("dictionary object \(ref) has a key that is \(a: KeyedArchive.typeName(keyMarker)) (object \(keyRef)); a key cannot be a container")
                }
                let k = try value(at: keyRef, depth: depth + 1, budget: &budget)
                let v = try value(at: self.ref(at: valuesStart + i * refSize), depth: depth + 1, budget: &budget)
                pairs.append(PropertyListPair(k, v))
            }
            return .dictionary(pairs)
        }
    }

    /// An integer object's value: anything in the `Int64` or `UInt64` range.
    func integer(_ h: Header, ref: Int) throws(ArchiveError) -> Int128 {
        switch h.count {
        case 0, 1, 2:
            return Int128(BinaryPropertyList.readUInt(bytes, at: h.start, width: 1 << h.count))
        case 3:
            return Int128(Int64(bitPattern: BinaryPropertyList.readUInt(bytes, at: h.start, width: 8)))
        default:
            let high = BinaryPropertyList.readUInt(bytes, at: h.start, width: 8)
            let low = BinaryPropertyList.readUInt(bytes, at: h.start + 8, width: 8)
            if high == 0 { return Int128(low) }
            if high == UInt64.max, low >= 1 << 63 { return Int128(Int64(bitPattern: low)) }
            throw .corrupt("integer object \(ref) does not fit in 64 bits")
        }
    }

    /// A string object's value; ASCII strings must be ASCII, UTF-16 strings valid UTF-16.
    func string(_ h: Header, ref: Int) throws(ArchiveError) -> String {
        if h.marker >> 4 == 0x5 {
            let slice = bytes[h.start ..< h.start + h.count]
            for byte in slice where byte >= 0x80 {
                throw .corrupt("ASCII string object \(ref) holds the non-ASCII byte 0x\(hex(byte))")
            }
            return String(decoding: slice, as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var decoder = UTF16()
        var units = BigEndianUTF16(bytes: bytes, start: h.start, count: h.count)
        loop: while true {
            switch decoder.decode(&units) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput: break loop
            case .error: throw .corrupt("UTF-16 string object \(ref) is not valid UTF-16")
            }
        }
        return String(scalars)
    }
}

/// Big-endian UTF-16 code units over a byte array, for `UTF16.decode`.
struct BigEndianUTF16: IteratorProtocol {
    let bytes: [UInt8]
    var at: Int
    let end: Int
    init(bytes: [UInt8], start: Int, count: Int) {
        self.bytes = bytes
        self.at = start
        self.end = start + 2 * count
    }
    mutating func next() -> UInt16? {
        guard at < end else { return nil }
        defer { at += 2 }
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }
}

@inline(__always)
func hex(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

extension BinaryPropertyList {
    /// Encodes a value as a binary property list, with the smallest reference and offset sizes
    /// and equal strings and numbers stored once.
    public static func encode(_ value: PropertyList) -> [UInt8] {
        var table = ObjectTable()
        let top = table.add(value)
        return table.finish(top: top)
    }

    /// Decodes a binary property list into a value.
    public static func decode(_ bytes: [UInt8], limits: ArchiveLimits = .default) throws(ArchiveError) -> PropertyList {
        try BinaryPropertyList(bytes: bytes, limits: limits).topValue()
    }
}
