/// The object table of a binary property list under construction, written as it grows.
///
/// Objects are added children first; each addition returns the object's reference and writes
/// the object's bytes at once at the end of `body`, the file being built, so that finishing
/// only appends the offset table and the trailer. Equal strings, integers, reals, dates and UIDs,
/// and the two booleans, are stored once: the uniquing tables hold references, and compare
/// values against the bytes already written.
///
/// Containers' references are written `refWidth` bytes wide: the width the final number of
/// objects needs, as far as it is known. The capacity hint sets it from the start; when more
/// objects come than it can refer to, the objects written so far are rewritten wider
/// (`rewrite(refWidth:)`), and `finish` rewrites them once more if the final count needs fewer
/// bytes than were used. Either way the file is the one whose widths are the smallest.
struct ObjectTable {
    /// The file so far: `bplist00`, then every object in reference order. Its count runs ahead of
    /// `end` (zeros, extended a block at a time), so that an object is written through one
    /// mutable span instead of one append per byte.
    private var body: [UInt8]
    /// Where the bytes written end.
    private var end = 8
    /// Where each object begins in `body`, by reference.
    private var offsets = OffsetList()
    /// `$objects` of a keyed archive: the reference of the object of each UID.
    var objects: [Int32] = []
    /// The width of container references written so far (1 to 4).
    private var refWidth: Int
    /// The most bytes a string or data object written takes (without its header): what the
    /// reader's per-value limit (`ArchiveLimits.admitsValue(length:)`) is checked against.
    private(set) var longestValue = 0

    /// Every string, by its text. An entry is the string's reference (≥ 0), or `~uid` (≤ -2)
    /// for a string listed in `objects` at `uid` (its reference is `objects[uid]`).
    private var strings = RefMap()
    private var ints = RefMap()
    private var reals = RefMap()
    /// 4-byte reals, 16-byte integers and dates: stored once like the others.
    private var others = RefMap()
    /// UIDs are small and dense in a keyed archive (below the number of objects): their objects
    /// are found by value in an array. A UID beyond what the table could hold goes to a map.
    private var uidRefs: [Int32] = []
    /// Small non-negative integers (counts, indices, enumerations: most integers of a keyed
    /// archive) are found by value in an array, like UIDs, without hashing (and are not in
    /// `ints`): their references, -1 for one not written yet. It grows as larger ones come, up
    /// to `smallIntLimit`.
    private var smallInts: [Int32] = []
    private static let smallIntLimit = 1 << 14
    private var largeUIDs = RefMap()
    private var boolRefs: (Int32, Int32) = (-1, -1)

    /// `objects` is a hint: how many archived objects (each with a few values) to expect.
    init(capacity objects: Int = 0) {
        let expected = min(max(objects, 0), 1 << 24) * 9
        refWidth = ObjectTable.byteWidth(UInt64(max(expected, 1)))
        body = [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30]  // "bplist00"
        if objects > 0 {
            body.reserveCapacity(objects * 192)
            offsets.reserveCapacity(expected)
            uidRefs.reserveCapacity(objects * 4)
            self.objects.reserveCapacity(objects * 4 + 8)
            // Two strings an object, and the archive's keys and class names beside them (without
            // those, an archive of exactly two strings an object rehashed the whole table at its end).
            strings = RefMap(capacity: objects * 2 + 256)
            ints = RefMap(capacity: min(objects, 4096))
            reals = RefMap(capacity: objects)
        }
    }

    var count: Int { offsets.count }

    /// How many times the strings' uniquing table has grown by rehashing.
    var stringTableGrowths: Int { strings.growths }

    /// The number of bytes written so far (the finished file adds the offset table and trailer).
    var byteCount: Int { end }

    /// A hint given once the size is better known than at `init`: `entries` objects in the
    /// finished table, `bytes` bytes in the finished file (0: unknown). Widens the container
    /// references now if `entries` needs it (cheap while few objects are written, instead of
    /// rewriting everything when the count crosses 256 or 65,536), and reserves the storage.
    mutating func reserve(entries: Int, bytes: Int) {
        reserve(SizeHint(entries: entries, bytes: bytes, strings: entries / 3, ints: 0, reals: 0, objects: entries / 2))
    }

    /// How big a table grew: what `reserve(_:)` needs to hold the same again without growing.
    /// Counts only (each clamped when used), so a wrong hint costs time or memory, never
    /// correctness.
    struct SizeHint {
        var entries: Int, bytes: Int, strings: Int, ints: Int, reals: Int, objects: Int

        /// The hint for `to` archived objects where this one was for `from`.
        func scaled(from: Int, to: Int) -> SizeHint {
            guard from > 0, from != to else { return self }
            func s(_ x: Int) -> Int { Int(min(Double(max(x, 0)) * Double(max(to, 0)) / Double(from), Double(1 << 28))) }
            return SizeHint(entries: s(entries), bytes: s(bytes), strings: s(strings), ints: s(ints), reals: s(reals), objects: s(objects))
        }
    }

    /// The sizes of this table so far (before `finish`, which empties the uniquing tables).
    var sizeHint: SizeHint {
        SizeHint(entries: offsets.count, bytes: end, strings: strings.used, ints: ints.used, reals: reals.used, objects: objects.count)
    }

    /// Reserves room for a table of the sizes of `hint`: widens the container references now if
    /// its entries need it (cheap while few objects are written, instead of rewriting everything
    /// when the count crosses 256 or 65,536), and sizes the storage and uniquing tables.
    mutating func reserve(_ hint: SizeHint) {
        let entries = min(max(hint.entries, 0), 1 << 28)
        let width = ObjectTable.byteWidth(UInt64(max(entries, 1)))
        if width > refWidth { rewrite(refWidth: width) }
        let objectCount = min(max(hint.objects, 0), entries)
        // The bytes, then what finishing adds (the `$objects` array, the offset table: at most
        // 4 bytes an entry below 4 GiB), and the most `extend` adds beyond what is asked: all
        // of it in one allocation, so the buffer is never copied to grow.
        let bytes = min(max(hint.bytes, 0), 1 << 31)
        let finished = bytes + objectCount * max(width, refWidth) + entries * 4 + (1 << 16) + 512
        if finished > body.capacity { body.reserveCapacity(finished) }
        if entries > offsets.count { offsets.reserveCapacity(entries) }
        strings.reserve(min(max(hint.strings, 0), entries))
        ints.reserve(min(max(hint.ints, 0), entries))
        reals.reserve(min(max(hint.reals, 0), entries))
        uidRefs.reserveCapacity(objectCount)
        objects.reserveCapacity(objectCount)
    }

    // MARK: Writing bytes

    /// Makes room for `size` more bytes after `end`.
    @inline(__always)
    private mutating func room(_ size: Int) {
        if end + size > body.count { extend(size) }
    }

    private mutating func extend(_ size: Int) {
        // Doubling while small, then a block at a time (zeroed just before it is written), and
        // no more than the storage holds while it holds `size` (reserved storage is then used
        // up before the buffer is copied to grow).
        var block = min(max(body.count, 248), 1 << 16)
        let room = body.capacity - body.count
        if room >= size { block = min(block, room) }
        block = max(block, size)
        body.append(contentsOf: repeatElement(0, count: block))
    }

    /// Starts a new object of at most `size` bytes: records its offset and returns its reference.
    @inline(__always)
    private mutating func begin(_ size: Int) -> Int32 {
        room(size)
        offsets.append(end)
        return Int32(truncatingIfNeeded: offsets.count - 1)
    }

    mutating func bool(_ value: Bool) -> Int32 {
        if value {
            if boolRefs.1 < 0 { boolRefs.1 = oneByte(0x09) }
            return boolRefs.1
        } else {
            if boolRefs.0 < 0 { boolRefs.0 = oneByte(0x08) }
            return boolRefs.0
        }
    }

    private mutating func oneByte(_ b: UInt8) -> Int32 {
        let ref = begin(1)
        var at = end
        var w = body.mutableSpan
        w.byte(&at, b)
        _ = consume w
        end = at
        return ref
    }

    /// The value a scalar object holds, as the bits its uniquing table is keyed by: an integer's
    /// value (an unsigned 16-byte integer's low half), a real's or date's bits, a UID's value.
    private func scalarBits(_ ref: Int32) -> UInt64 {
        let at = offsets[Int(ref)]
        let marker = body[at]
        switch marker {
        case 0x10 ... 0x13: return BinaryPropertyList.readUInt(body, at: at + 1, width: 1 << Int(marker & 0x0F))
        case 0x14: return BinaryPropertyList.readUInt(body, at: at + 9, width: 8)
        case 0x22: return BinaryPropertyList.readUInt(body, at: at + 1, width: 4)
        case 0x23, 0x33: return BinaryPropertyList.readUInt(body, at: at + 1, width: 8)
        default: return BinaryPropertyList.readUInt(body, at: at + 1, width: Int(marker & 0x0F) + 1)  // UID
        }
    }

    /// Looks up in `map` the scalar whose object's marker is `marker` and whose bits are `bits`.
    @inline(__always)
    private func find(_ map: RefMap, _ marker: UInt8, _ bits: UInt64) -> (ref: Int32, slot: Int, tag: UInt32) {
        map.find(hash: RefMap.hash(bits ^ UInt64(marker) << 56)) { ref in
            body[offsets[Int(ref)]] == marker && scalarBits(ref) == bits
        }
    }

    /// Writes a scalar object other than an integer.
    private mutating func scalar(_ marker: UInt8, _ bits: UInt64) -> Int32 {
        let ref = begin(17)
        var at = end
        var w = body.mutableSpan
        switch marker {
        case 0x14:
            w.byte(&at, 0x14)
            w.bigEndian(&at, 0, width: 8)
            w.bigEndian(&at, bits, width: 8)
        case 0x22:
            w.byte(&at, 0x22)
            w.bigEndian(&at, bits, width: 4)
        case 0x80:
            let width = ObjectTable.byteWidth(bits)
            w.byte(&at, 0x80 | UInt8(width - 1))
            w.bigEndian(&at, bits, width: width)
        default:  // 0x23, 0x33
            w.byte(&at, marker)
            w.bigEndian(&at, bits, width: 8)
        }
        _ = consume w
        end = at
        return ref
    }

    /// An integer, stored once: one in 0 ..< `smallIntLimit` found by value in `smallInts`,
    /// any other through `ints`.
    mutating func int(_ value: Int64) -> Int32 {
        let bits = UInt64(bitPattern: value)
        if bits < UInt64(ObjectTable.smallIntLimit) {
            let index = Int(bits)
            if index < smallInts.count {
                let ref = smallInts[index]
                if ref >= 0 { return ref }
            } else {
                let count = min(max(index + 1, 2 * smallInts.count, 64), ObjectTable.smallIntLimit)
                smallInts.append(contentsOf: repeatElement(-1, count: count - smallInts.count))
            }
            let ref = writeInt(value)
            smallInts[index] = ref
            return ref
        }
        // Matched by value whatever the width it was written in (0x10 to 0x13).
        let (found, slot, tag) = ints.find(hash: RefMap.hash(bits)) { ref in
            let at = offsets[Int(ref)]
            return scalarBits(ref) == bits && body[at] & 0xF0 == 0x10
        }
        if found >= 0 { return found }
        let ref = writeInt(value)
        ints.insert(ref, tag: tag, at: slot)
        return ref
    }

    /// Writes an integer object and returns its reference.
    private mutating func writeInt(_ value: Int64) -> Int32 {
        let ref = begin(9)
        var at = end
        var w = body.mutableSpan
        w.int(&at, value)
        _ = consume w
        end = at
        return ref
    }

    mutating func uint(_ value: UInt64) -> Int32 {
        if value <= UInt64(Int64.max) { return int(Int64(value)) }
        let (found, slot, tag) = find(others, 0x14, value)
        if found >= 0 { return found }
        let ref = scalar(0x14, value)
        others.insert(ref, tag: tag, at: slot)
        return ref
    }

    mutating func double(_ value: Double) -> Int32 {
        let (found, slot, tag) = find(reals, 0x23, value.bitPattern)
        if found >= 0 { return found }
        let ref = scalar(0x23, value.bitPattern)
        reals.insert(ref, tag: tag, at: slot)
        return ref
    }

    mutating func float(_ value: Float) -> Int32 {
        let (found, slot, tag) = find(others, 0x22, UInt64(value.bitPattern))
        if found >= 0 { return found }
        let ref = scalar(0x22, UInt64(value.bitPattern))
        others.insert(ref, tag: tag, at: slot)
        return ref
    }

    mutating func date(_ value: Double) -> Int32 {
        let (found, slot, tag) = find(others, 0x33, value.bitPattern)
        if found >= 0 { return found }
        let ref = scalar(0x33, value.bitPattern)
        others.insert(ref, tag: tag, at: slot)
        return ref
    }

    mutating func uid(_ value: UInt64) -> Int32 {
        guard value < UInt64(max(offsets.count * 2, 1024)) else {
            let (found, slot, tag) = find(largeUIDs, 0x80, value)
            if found >= 0 { return found }
            let ref = scalar(0x80, value)
            largeUIDs.insert(ref, tag: tag, at: slot)
            return ref
        }
        let index = Int(value)
        if index < uidRefs.count {
            let ref = uidRefs[index]
            if ref >= 0 { return ref }
        } else {
            uidRefs.append(contentsOf: repeatElement(-1, count: max(index + 1 - uidRefs.count, uidRefs.count)))
        }
        let ref = begin(9)
        let width = ObjectTable.byteWidth(value)
        var at = end
        var w = body.mutableSpan
        w.byte(&at, 0x80 | UInt8(width - 1))
        w.bigEndian(&at, value, width: width)
        _ = consume w
        end = at
        uidRefs[index] = ref
        return ref
    }

    mutating func data(_ bytes: [UInt8]) -> Int32 {
        let ref = begin(ObjectTable.headerSize(bytes.count) + bytes.count)
        var at = end
        var w = body.mutableSpan
        w.header(&at, 0x40, count: bytes.count)
        w.bytes(&at, bytes)
        _ = consume w
        end = at
        longestValue = max(longestValue, bytes.count)
        return ref
    }

    /// The reference of the string whose entry in `strings` is `entry`.
    @inline(__always)
    private func stringRef(_ entry: Int32) -> Int32 {
        entry >= 0 ? entry : objects[Int(~entry)]
    }

    /// A string, stored once however often it is added.
    mutating func string(_ value: String) -> Int32 {
        let units = value.utf8.span
        let (found, slot, tag) = strings.find(hash: RefMap.hash(units)) { e in stringEquals(stringRef(e), value, units) }
        if found != -1 { return stringRef(found) }
        let ref = write(value, units)
        strings.insert(ref, tag: tag, at: slot)
        return ref
    }

    /// The UID of a string value: the string stored once, and listed once in `objects`.
    mutating func stringUID(_ value: String) -> Int {
        let units = value.utf8.span
        let (found, slot, tag) = strings.find(hash: RefMap.hash(units)) { e in stringEquals(stringRef(e), value, units) }
        if found < -1 { return Int(~found) }
        return listString(found >= 0 ? found : write(value, units), found: found, slot: slot, tag: tag)
    }

    /// The number of characters of the string object written at `at` (ASCII or UTF-16), and
    /// where they start: the count is in the marker's low half, or in the integer after it.
    @inline(__always)
    private func stringExtent(at: Int) -> (count: Int, start: Int) {
        let marker = body[at]
        if marker & 0x0F != 0x0F { return (Int(marker & 0x0F), at + 1) }
        let width = 1 << Int(body[at + 1] & 0x0F)
        return (Int(BinaryPropertyList.readUInt(body, at: at + 2, width: width)), at + 2 + width)
    }

    /// The string listed in `objects` at `uid` (as `stringUID(_:)` stored it), read back from
    /// the bytes written; nil if `uid` is not a string's.
    func string(uid: Int) -> String? {
        guard uid >= 0, uid < objects.count else { return nil }
        let ref = Int(objects[uid])
        guard ref >= 0, ref < offsets.count else { return nil }
        // Bytes this table wrote: a string object's header is whole and its text within `end`.
        let at = offsets[ref]
        let (count, start) = stringExtent(at: at)
        switch body[at] >> 4 {
        case 0x5:
            return String(decoding: body[start ..< start + count], as: UTF8.self)
        case 0x6:
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in 0 ..< count { units.append(UInt16(body[start + 2 * i]) << 8 | UInt16(body[start + 2 * i + 1])) }
            return String(decoding: units, as: UTF16.self)
        default:
            return nil
        }
    }

    /// The UID of a string value given as ASCII bytes (every byte below 0x80): as
    /// `stringUID(_:)` for the string of those bytes, without making the string.
    mutating func stringUID(ascii units: Span<UInt8>) -> Int {
        let (found, slot, tag) = strings.find(hash: RefMap.hash(units)) { e in asciiEquals(stringRef(e), units) }
        if found < -1 { return Int(~found) }
        return listString(found >= 0 ? found : writeASCII(units), found: found, slot: slot, tag: tag)
    }

    /// Lists the string object `ref` in `objects` and marks its slot in `strings` with `~uid`
    /// (`found`, `slot` and `tag`: what the lookup of that string gave; `found` ≥ 0 when the
    /// string was stored before as a key, -1 when `ref` was just written). Returns the UID.
    @inline(__always)
    private mutating func listString(_ ref: Int32, found: Int32, slot: Int, tag: UInt32) -> Int {
        objects.append(ref)
        let uid = objects.count - 1
        if found >= 0 {
            strings.replace(Int32(truncatingIfNeeded: ~uid), at: slot)
        } else {
            strings.insert(Int32(truncatingIfNeeded: ~uid), tag: tag, at: slot)
        }
        return uid
    }

    /// Writes an ASCII string object and returns its reference.
    private mutating func writeASCII(_ units: Span<UInt8>) -> Int32 {
        let count = units.count
        let ref = begin(ObjectTable.headerSize(count) + count)
        var at = end
        var w = body.mutableSpan
        w.header(&at, 0x50, count: count)
        w.bytes(&at, units)
        _ = consume w
        end = at
        longestValue = max(longestValue, count)
        return ref
    }

    /// Whether object `ref` is an ASCII string holding exactly `units`.
    private func asciiEquals(_ ref: Int32, _ units: Span<UInt8>) -> Bool {
        let at = offsets[Int(ref)]
        guard body[at] >> 4 == 0x5 else { return false }
        let (count, start) = stringExtent(at: at)
        guard units.count == count else { return false }
        let stored = body.span.extracting(start ..< start + count)
        for i in units.indices where stored[i] != units[i] { return false }
        return true
    }

    /// Writes a string object (ASCII or UTF-16) and returns its reference.
    private mutating func write(_ value: String, _ units: Span<UInt8>) -> Int32 {
        let ref: Int32
        // ASCII found from the bytes at hand: asking the string (`value.utf16.count`) copied it,
        // an atomic count of a reference that waits for every write before it, cold table slots
        // among them.
        if units.isASCII {
            ref = writeASCII(units)
        } else {
            let n = value.utf16.count
            ref = begin(ObjectTable.headerSize(n) + 2 * n)
            var at = end
            var w = body.mutableSpan
            w.header(&at, 0x60, count: n)
            for unit in value.utf16 {
                w.byte(&at, UInt8(truncatingIfNeeded: unit >> 8))
                w.byte(&at, UInt8(truncatingIfNeeded: unit))
            }
            _ = consume w
            end = at
            longestValue = max(longestValue, 2 * n)
        }
        return ref
    }

    /// Whether object `ref` is a string holding exactly `value`'s code units.
    private func stringEquals(_ ref: Int32, _ value: String, _ units: Span<UInt8>) -> Bool {
        let at = offsets[Int(ref)]
        let marker = body[at]
        let (count, start) = stringExtent(at: at)
        switch marker >> 4 {
        case 0x5:
            guard units.count == count else { return false }
            let stored = body.span.extracting(start ..< start + count)
            for i in units.indices where stored[i] != units[i] { return false }
            return true
        case 0x6:
            var at = start
            let end = at + 2 * count
            for unit in value.utf16 {
                guard at < end, UInt16(body[at]) << 8 | UInt16(body[at + 1]) == unit else { return false }
                at += 2
            }
            return at == end
        default:
            return false
        }
    }

    // MARK: Containers

    /// A container of `count` references (a dictionary: `2 * count`) whose marker nibble is
    /// `marker`: its header, then `write` writes the references.
    @inline(__always)
    private mutating func container(_ marker: UInt8, _ count: Int, _ refs: Int, _ write: (inout MutableSpan<UInt8>, inout Int, Int) -> Void) -> Int32 {
        // The new object's own reference is the largest any container can hold once it exists.
        if offsets.count > 1 << (8 * refWidth) { rewrite(refWidth: ObjectTable.byteWidth(UInt64(offsets.count - 1))) }
        let ref = begin(ObjectTable.headerSize(count) + refs * refWidth)
        let width = refWidth
        var at = end
        var w = body.mutableSpan
        w.header(&at, marker, count: count)
        write(&w, &at, width)
        _ = consume w
        end = at
        return ref
    }

    mutating func array(_ items: some Collection<Int32>) -> Int32 {
        container(0xA0, items.count, items.count) { w, at, width in w.refs(&at, items, width) }
    }

    mutating func set(_ items: some Collection<Int32>) -> Int32 {
        container(0xC0, items.count, items.count) { w, at, width in w.refs(&at, items, width) }
    }

    /// A dictionary from `pairs`, laid out as key, value, key, value, ….
    mutating func dictionary(interleaved pairs: ArraySlice<Int32>) -> Int32 {
        container(0xD0, pairs.count / 2, pairs.count) { w, at, width in
            w.refs(&at, pairs, width, from: 0)
            w.refs(&at, pairs, width, from: 1)
        }
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

    // MARK: Finishing

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

    /// Bytes of a marker with a count (see `header`).
    @inline(__always)
    static func headerSize(_ count: Int) -> Int {
        count < 15 ? 1 : 2 + intWidth(UInt64(count))
    }

    /// Rewrites every object written so far with container references `width` bytes wide.
    /// Objects other than containers are copied unchanged, a run of them at a time.
    private mutating func rewrite(refWidth width: Int) {
        let old = body
        let oldWidth = refWidth
        let n = offsets.count
        // Containers grow at most by the ratio of the widths.
        var out: [UInt8] = []
        out.reserveCapacity(8 + (end - 8) * max(width, oldWidth) / oldWidth + 256)
        // Bytes from `run` on are copied as they are, up to the next container's references.
        var run = 0
        for index in 0 ..< n {
            let start = offsets[index]
            offsets[index] = out.count + (start - run)
            let marker = old[start]
            switch marker >> 4 {
            case 0xA, 0xC, 0xD:
                var count = Int(marker & 0x0F)
                var refsAt = start + 1
                if count == 0x0F {
                    let intWidth = 1 << Int(old[start + 1] & 0x0F)
                    count = Int(BinaryPropertyList.readUInt(old, at: start + 2, width: intWidth))
                    refsAt = start + 2 + intWidth
                }
                out.append(contentsOf: old[run ..< refsAt])
                let refs = marker >> 4 == 0xD ? 2 * count : count
                for k in 0 ..< refs {
                    let r = BinaryPropertyList.readUInt(old, at: refsAt + k * oldWidth, width: oldWidth)
                    var shift = (width - 1) * 8
                    while shift >= 0 {
                        out.append(UInt8(truncatingIfNeeded: r >> UInt64(shift)))
                        shift -= 8
                    }
                }
                run = refsAt + refs * oldWidth
            default:
                break
            }
        }
        out.append(contentsOf: old[run ..< end])
        end = out.count
        body = out
        refWidth = width
    }

    /// The finished `bplist00` file whose top object is `top`.
    mutating func finish(top: Int32) -> [UInt8] {
        let n = offsets.count
        let width = ObjectTable.byteWidth(UInt64(max(n - 1, 0)))
        if width != refWidth { rewrite(refWidth: width) }
        let tableOffset = end
        let offsetSize = ObjectTable.byteWidth(UInt64(tableOffset))
        // Nothing is added any more: the uniquing tables go before the output grows by the
        // offset table, so that they are never alive beside a larger buffer.
        strings = RefMap()
        ints = RefMap()
        reals = RefMap()
        others = RefMap()
        largeUIDs = RefMap()
        uidRefs = []
        smallInts = []
        objects = []
        let offsets = self.offsets
        self.offsets = OffsetList()
        room(n * offsetSize + 32)
        var at = end
        var w = body.mutableSpan
        for i in 0 ..< n {
            w.bigEndian(&at, UInt64(offsets[i]), width: offsetSize)
        }
        w.bytes(&at, [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(width)])
        w.bigEndian(&at, UInt64(n), width: 8)
        w.bigEndian(&at, UInt64(top), width: 8)
        w.bigEndian(&at, UInt64(tableOffset), width: 8)
        _ = consume w
        end = at
        body.removeSubrange(end...)
        var out: [UInt8] = []
        swap(&out, &body)
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

    /// Copies `bs` to `at` onward in one move, its range checked once. (Through the buffers'
    /// addresses: MutableSpan has no bulk copy from a Span in this toolchain.)
    @inline(__always)
    mutating func bytes(_ at: inout Int, _ bs: Span<UInt8>) {
        precondition(at >= 0 && bs.count <= count - at, "bytes past the end of the span")
        if !bs.isEmpty {
            let start = at
            withUnsafeMutableBytes { dst in
                bs.withUnsafeBytes { src in (dst.baseAddress! + start).copyMemory(from: src.baseAddress!, byteCount: src.count) }
            }
        }
        at += bs.count
    }

    @inline(__always)
    mutating func bytes(_ at: inout Int, _ bs: ArraySlice<UInt8>) { bytes(&at, bs.span) }

    @inline(__always)
    mutating func bytes(_ at: inout Int, _ bs: [UInt8]) { bytes(&at, bs.span) }

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

    /// A reference, `width` bytes.
    @inline(__always)
    mutating func ref(_ at: inout Int, _ r: Int32, _ width: Int) {
        switch width {
        case 1:
            self[at] = UInt8(truncatingIfNeeded: r)
            at += 1
        case 2:
            self[at] = UInt8(truncatingIfNeeded: r >> 8)
            self[at + 1] = UInt8(truncatingIfNeeded: r)
            at += 2
        case 3:
            self[at] = UInt8(truncatingIfNeeded: r >> 16)
            self[at + 1] = UInt8(truncatingIfNeeded: r >> 8)
            self[at + 2] = UInt8(truncatingIfNeeded: r)
            at += 3
        default:
            bigEndian(&at, UInt64(UInt32(bitPattern: r)), width: width)
        }
    }

    @inline(__always)
    mutating func refs(_ at: inout Int, _ refs: some Collection<Int32>, _ width: Int) {
        for r in refs { ref(&at, r, width) }
    }

    /// Every other reference of `pairs`, from its `first`: a dictionary's keys or values. One
    /// loop per width (the references of a container are all as wide), rather than a choice of
    /// width per reference.
    @inline(__always)
    mutating func refs(_ at: inout Int, _ pairs: ArraySlice<Int32>, _ width: Int, from first: Int) {
        var i = pairs.startIndex &+ first
        let end = pairs.endIndex
        var a = at
        switch width {
        case 1:
            while i < end {
                self[a] = UInt8(truncatingIfNeeded: pairs[i])
                a &+= 1
                i &+= 2
            }
        case 2:
            while i < end {
                let r = pairs[i]
                self[a] = UInt8(truncatingIfNeeded: r >> 8)
                self[a &+ 1] = UInt8(truncatingIfNeeded: r)
                a &+= 2
                i &+= 2
            }
        case 3:
            while i < end {
                let r = pairs[i]
                self[a] = UInt8(truncatingIfNeeded: r >> 16)
                self[a &+ 1] = UInt8(truncatingIfNeeded: r >> 8)
                self[a &+ 2] = UInt8(truncatingIfNeeded: r)
                a &+= 3
                i &+= 2
            }
        default:
            while i < end {
                ref(&a, pairs[i], width)
                i &+= 2
            }
        }
        at = a
    }
}

/// Where each object of an `ObjectTable` begins: 4 bytes an object while the file is below
/// 4 GiB, 8 bytes from the first offset beyond (all of them converted then).
struct OffsetList {
    private var narrow: [UInt32] = []
    private var wide: [Int] = []
    private var isWide = false

    var count: Int { isWide ? wide.count : narrow.count }

    mutating func reserveCapacity(_ n: Int) { narrow.reserveCapacity(n) }

    subscript(i: Int) -> Int {
        @inline(__always) get { isWide ? wide[i] : Int(narrow[i]) }
        set {
            if !isWide, let v = UInt32(exactly: newValue) { narrow[i] = v; return }
            widen()
            wide[i] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ offset: Int) {
        if !isWide, let v = UInt32(exactly: offset) { narrow.append(v); return }
        widen()
        wide.append(offset)
    }

    private mutating func widen() {
        guard !isWide else { return }
        wide = narrow.map { Int($0) }
        narrow = []
        isWide = true
    }
}

extension Span where Element == UInt8 {
    /// Whether every byte is below 0x80 (ASCII text: its UTF-8 and its UTF-16 code units are
    /// the same count).
    @inline(__always)
    var isASCII: Bool {
        var high: UInt8 = 0
        for i in indices { high |= self[i] }
        return high < 0x80
    }
}
