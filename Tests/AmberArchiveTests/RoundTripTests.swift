import Synchronization
import Testing
@testable import AmberArchive

// MARK: - Exact comparison

/// Whether two property lists are the same, strings compared scalar by scalar (Swift's `==` on
/// strings treats canonically equivalent strings, "é" and "e\u{301}", as equal).
func exactlyEqual(_ a: PropertyList, _ b: PropertyList) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return Array(x.unicodeScalars) == Array(y.unicodeScalars)
    case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(exactlyEqual)
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { exactlyEqual($0.key, $1.key) && exactlyEqual($0.value, $1.value) }
    default: return a == b
    }
}

/// The same for archive values.
func exactlyEqual(_ a: ArchiveValue, _ b: ArchiveValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return Array(x.unicodeScalars) == Array(y.unicodeScalars)
    case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(exactlyEqual)
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { exactlyEqual($0.key, $1.key) && exactlyEqual($0.value, $1.value) }
    default: return a == b
    }
}

/// The trailer of a binary property list: offset size, reference size, objects, top, table offset.
func trailer(_ bytes: [UInt8]) -> (offsetSize: Int, refSize: Int, count: Int, top: Int, tableOffset: Int) {
    let t = bytes.count - 32
    func be(_ at: Int) -> Int { (at ..< at + 8).reduce(0) { $0 << 8 | Int(bytes[$1]) } }
    return (Int(bytes[t + 6]), Int(bytes[t + 7]), be(t + 8), be(t + 16), be(t + 24))
}

/// Boundary values of each integer width.
let integerSamples: [Int64] = [
    0, 1, 14, 15, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
    0x1_0000_0000, 1 << 53, Int64.max - 1, Int64.max, -1, -128, -129, -32768, -65536, -0x8000_0000,
    -0x1_0000_0000, Int64.min + 1, Int64.min,
]

let doubleSamples: [Double] = [
    0, -0.0, 1, -1, 1.5, 0.1, -2.75, 3.141592653589793, 1e300, -1e-300, .greatestFiniteMagnitude,
    .leastNormalMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan, -.nan,
    .signalingNaN, Double(bitPattern: 0x7FF8_0000_DEAD_BEEF), Double(bitPattern: 0xFFF0_0000_0000_0001),
]

let floatSamples: [Float] = [
    0, -0.0, 1, 1.5, -2.25, .pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity,
    .nan, .signalingNaN, Float(bitPattern: 0x7FC0_BEEF),
]

let stringSamples: [String] = [
    "", "a", "Homepwner", String(repeating: "x", count: 14), String(repeating: "y", count: 15),
    String(repeating: "z", count: 255), String(repeating: "w", count: 256), String(repeating: "v", count: 65535),
    String(repeating: "u", count: 65536), String(repeating: "t", count: 70000),
    "héllo", "Grüße, Jürgen", "日本語のテキスト", "emoji 🎉", "👩‍👩‍👧‍👦", "🇫🇷🇯🇵", "\u{10FFFF}", "\u{FFFD}",
    "tab\tnewline\nnul\u{0}end", "\u{0}", "ascii with \u{7F} delete", "é", "e\u{301}",
    String(repeating: "é", count: 15), String(repeating: "ü", count: 256), String(repeating: "😀", count: 40000),
]

/// Round-trips a property list: equal when read back, and the same bytes when written again.
func expectPlistRoundTrip(_ value: PropertyList, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = BinaryPropertyList.encode(value)
    do {
        let back = try BinaryPropertyList.decode(bytes)
        #expect(exactlyEqual(back, value), "\(what): read back differently", sourceLocation: sourceLocation)
        #expect(BinaryPropertyList.encode(back) == bytes, "\(what): written again differently", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(what): \(error)", sourceLocation: sourceLocation)
    }
}

/// Round-trips an archive value through a keyed archive.
func expectKeyedRoundTrip(_ value: ArchiveValue, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let bytes = try KeyedArchiver.archive(value)
        let back = try KeyedUnarchiver.unarchiveValue(bytes)
        #expect(exactlyEqual(back, value), "\(what): read back as \(String(describing: back).prefix(300))", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(what): \(error)", sourceLocation: sourceLocation)
    }
}

// MARK: - Object graphs

/// A node of an object graph: children, a parent and a friend, all strong, so cycles are real.
final class GraphNode {
    var name: String
    var children: [GraphNode] = []
    var parent: GraphNode?
    var friend: GraphNode?
    init(_ name: String) { self.name = name }
}

/// A subclass, for `$classes` chains and secure decoding.
final class SpecialNode {
    var level: Int64 = 0
    var base: GraphNode?
}

/// An object of the host that names its class itself (as the C and Python layers do).
final class HostObject: ArchiveClassNaming {
    let archiveClassName: String
    var payload: Int64
    init(className: String, payload: Int64) {
        archiveClassName = className
        self.payload = payload
    }
}

/// The coding class of `GraphNode`, under a name: its own, or the name another writer gave it.
func graphNodeClass(_ name: String = "GraphNode") -> ArchiveClass {
    ArchiveClass(
        name: name,
        encode: { object, archiver in
            let node = object as! GraphNode
            archiver.encode(node.name, forKey: "name")
            try archiver.encodeObjects(node.children, forKey: "children")
            try archiver.encodeObject(node.parent, forKey: "parent")
            try archiver.encodeObject(node.friend, forKey: "friend")
        },
        make: { unarchiver in GraphNode(try unarchiver.decodeString(forKey: "name")) },
        decode: { object, unarchiver in
            let node = object as! GraphNode
            node.children = try unarchiver.decodeObjects(forKey: "children").map { $0 as! GraphNode }
            node.parent = try unarchiver.decodeObject(forKey: "parent") as? GraphNode
            node.friend = try unarchiver.decodeObject(forKey: "friend") as? GraphNode
        })
}

func graphRegistry() throws -> ArchiveClassRegistry {
    let registry = ArchiveClassRegistry()
    try registry.register(graphNodeClass(), for: GraphNode.self)
    try registry.register(ArchiveClass(
        name: "SpecialNode", superclassName: "GraphNode",
        encode: { object, archiver in
            let node = object as! SpecialNode
            archiver.encode(node.level, forKey: "level")
            try archiver.encodeObject(node.base, forKey: "base")
        },
        make: { unarchiver in
            let node = SpecialNode()
            node.level = try unarchiver.decodeInt64(forKey: "level")
            return node
        },
        decode: { object, unarchiver in
            (object as! SpecialNode).base = try unarchiver.decodeObject(forKey: "base") as? GraphNode
        }), for: SpecialNode.self)
    try registry.register(ArchiveClass(
        name: "Unrelated",
        encode: { _, _ in },
        make: { _ in Thing() }), for: Thing.self)
    try registry.register(ArchiveClass(
        name: "HostThing",
        encode: { object, archiver in archiver.encode((object as! HostObject).payload, forKey: "payload") },
        make: { unarchiver in HostObject(className: "HostThing", payload: try unarchiver.decodeInt64(forKey: "payload")) }))
    return registry
}

/// Checks that `copy` has the shape of `original`: the same names, and a one-to-one
/// correspondence of nodes that every edge respects (shared references stay shared, cycles stay
/// cycles). Iterative, so that long chains are fine.
func expectSameGraph(_ original: GraphNode, _ copy: GraphNode, sourceLocation: SourceLocation = #_sourceLocation) {
    var map: [ObjectIdentifier: GraphNode] = [:]
    var reverse: [ObjectIdentifier: GraphNode] = [:]
    var work: [(GraphNode, GraphNode)] = [(original, copy)]
    func pair(_ a: GraphNode?, _ b: GraphNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?):
            if let mapped = map[ObjectIdentifier(a)] { return mapped === b }
            if reverse[ObjectIdentifier(b)] != nil { return false }
            map[ObjectIdentifier(a)] = b
            reverse[ObjectIdentifier(b)] = a
            work.append((a, b))
            return true
        default: return false
        }
    }
    _ = pair(original, copy)
    work.removeAll()
    work.append((original, copy))
    while let (a, b) = work.popLast() {
        #expect(a.name == b.name, sourceLocation: sourceLocation)
        #expect(a.children.count == b.children.count, "\(a.name): children", sourceLocation: sourceLocation)
        for (x, y) in zip(a.children, b.children) {
            #expect(pair(x, y), "\(a.name): child \(x.name)", sourceLocation: sourceLocation)
        }
        #expect(pair(a.parent, b.parent), "\(a.name): parent", sourceLocation: sourceLocation)
        #expect(pair(a.friend, b.friend), "\(a.name): friend", sourceLocation: sourceLocation)
    }
}

func archiveGraph(_ root: GraphNode?, registry: ArchiveClassRegistry, limits: ArchiveLimits = .default) throws -> [UInt8] {
    let archiver = KeyedArchiver(registry: registry, limits: limits)
    try archiver.encodeObject(root, forKey: "root")
    return try archiver.finishEncoding()
}

func unarchiveGraph(_ bytes: [UInt8], registry: ArchiveClassRegistry) throws -> GraphNode? {
    try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObject(forKey: "root") as? GraphNode
}

/// Throws an ArchiveError, or records that something else happened.
func expectCode(_ code: ArchiveError.Code, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("\(what): succeeded; expected .\(code)", sourceLocation: sourceLocation)
    } catch let error as ArchiveError {
        #expect(error.code == code, "\(what): \(error.code): \(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(what): threw \(error), not an ArchiveError", sourceLocation: sourceLocation)
    }
}

// MARK: - The suite

@Suite struct RoundTripTests {
    // MARK: Property lists

    // R26: booleans and integers of every width, Int64.min and max, and the 16-byte form.
    @Test func integersAndBooleans() {
        expectPlistRoundTrip(.bool(true), "true")
        expectPlistRoundTrip(.bool(false), "false")
        for v in integerSamples { expectPlistRoundTrip(.int(v), "int \(v)") }
        for v: UInt64 in [1 << 63, (1 << 63) + 1, UInt64.max - 1, UInt64.max] { expectPlistRoundTrip(.uint(v), "uint \(v)") }
        expectPlistRoundTrip(.array(integerSamples.map { .int($0) } + [.uint(.max), .bool(true), .bool(false)]), "all integers")
    }

    // R26: integers take the smallest form: 1, 2 and 4 bytes (unsigned) for non-negative values
    // that fit, 8 bytes (signed) for the rest of Int64, 16 bytes above Int64.max.
    @Test func integerWidths() throws {
        let expected: [(PropertyList, UInt8, Int)] = [
            (.int(0), 0x10, 1), (.int(255), 0x10, 1), (.int(256), 0x11, 2), (.int(65535), 0x11, 2),
            (.int(65536), 0x12, 4), (.int(0xFFFF_FFFF), 0x12, 4), (.int(0x1_0000_0000), 0x13, 8),
            (.int(.max), 0x13, 8), (.int(-1), 0x13, 8), (.int(.min), 0x13, 8),
            (.uint(1 << 63), 0x14, 16), (.uint(.max), 0x14, 16),
        ]
        for (value, marker, width) in expected {
            let bytes = BinaryPropertyList.encode(value)
            #expect(bytes[8] == marker, "\(value)")
            #expect(trailer(bytes).tableOffset == 9 + width, "\(value)")
        }
        // Readers meet other widths too: every form reads back as the value it holds.
        let forms: [([UInt8], PropertyList)] = [
            ([0x10, 0xFF], .int(255)), ([0x11, 0xFF, 0xFF], .int(65535)), ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], .int(0xFFFF_FFFF)),
            ([0x11, 0x00, 0x05], .int(5)), ([0x12, 0, 0, 0, 5], .int(5)), ([0x13, 0, 0, 0, 0, 0, 0, 0, 5], .int(5)),
            ([0x13] + RawPlist.be(UInt64.max, 8), .int(-1)),
            ([0x14] + RawPlist.be(0, 8) + RawPlist.be(5, 8), .int(5)),
            ([0x14] + RawPlist.be(UInt64.max, 8) + RawPlist.be(UInt64(bitPattern: -5), 8), .int(-5)),
            ([0x14] + RawPlist.be(UInt64.max, 8) + RawPlist.be(1 << 63, 8), .int(.min)),
            ([0x14] + RawPlist.be(0, 8) + RawPlist.be(UInt64.max, 8), .uint(.max)),
        ]
        for (object, value) in forms {
            var raw = RawPlist()
            raw.add(object)
            #expect(try BinaryPropertyList.decode(raw.bytes()) == value, "\(object)")
        }
        // A small unsigned value is stored as an integer, and reads back as one.
        #expect(try BinaryPropertyList.decode(BinaryPropertyList.encode(.uint(5))) == .int(5))
    }

    // R26: 4- and 8-byte reals keep their width and their exact bits: NaN payloads, signed zeros,
    // infinities, subnormals.
    @Test func reals() throws {
        for d in doubleSamples {
            expectPlistRoundTrip(.double(d), "double \(d)")
            let bytes = BinaryPropertyList.encode(.double(d))
            #expect(bytes[8] == 0x23)
        }
        for f in floatSamples {
            expectPlistRoundTrip(.float(f), "float \(f)")
            let bytes = BinaryPropertyList.encode(.float(f))
            #expect(bytes[8] == 0x22)
        }
        let back = try BinaryPropertyList.decode(BinaryPropertyList.encode(.double(Double(bitPattern: 0x7FF8_0000_DEAD_BEEF))))
        if case .double(let d) = back { #expect(d.bitPattern == 0x7FF8_0000_DEAD_BEEF) } else { Issue.record("\(back)") }
    }

    // R26: dates (seconds since 2001), before and after the epoch, fractional, extreme.
    @Test func dates() {
        for t in [0, -1, 1, 100.5, 700_000_000.25, -978_307_200, 1e10, -1e10, .infinity, .nan, .leastNonzeroMagnitude] as [Double] {
            expectPlistRoundTrip(.date(t), "date \(t)")
            #expect(BinaryPropertyList.encode(.date(t))[8] == 0x33)
        }
    }

    // R26: data: empty, around the 15-byte nibble boundary, the length widths, and large.
    @Test func data() {
        for count in [0, 1, 14, 15, 16, 255, 256, 65535, 65536, 1 << 20] {
            let bytes = (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            expectPlistRoundTrip(.data(bytes), "data of \(count)")
        }
        #expect(BinaryPropertyList.encode(.data([]))[8] == 0x40)
        #expect(Array(BinaryPropertyList.encode(.data(Array(repeating: 1, count: 15)))[8 ... 10]) == [0x4F, 0x10, 15])
        #expect(Array(BinaryPropertyList.encode(.data(Array(repeating: 1, count: 256)))[8 ... 11]) == [0x4F, 0x11, 1, 0])
        #expect(Array(BinaryPropertyList.encode(.data(Array(repeating: 1, count: 65536)))[8 ... 13]) == [0x4F, 0x12, 0, 1, 0, 0])
    }

    // R26: strings, ASCII and UTF-16: empty, emoji (surrogate pairs), NUL, lengths of 15, 256 and
    // 65536 (the extended length forms), and canonically equivalent strings kept apart.
    @Test func strings() throws {
        for s in stringSamples { expectPlistRoundTrip(.string(s), "string of \(s.utf16.count) units: \(s.prefix(20))") }
        expectPlistRoundTrip(.array(stringSamples.map { .string($0) }), "all strings")
        // ASCII strings are 0x5n with one byte a character; others 0x6n with UTF-16 code units.
        let ascii = BinaryPropertyList.encode(.string("abc"))
        #expect(Array(ascii[8 ... 11]) == [0x53, 0x61, 0x62, 0x63])
        let utf16 = BinaryPropertyList.encode(.string("é🎉"))
        #expect(Array(utf16[8 ... 14]) == [0x63, 0x00, 0xE9, 0xD8, 0x3C, 0xDF, 0x89])
        #expect(Array(BinaryPropertyList.encode(.string(String(repeating: "a", count: 15)))[8 ... 10]) == [0x5F, 0x10, 15])
        #expect(Array(BinaryPropertyList.encode(.string(String(repeating: "é", count: 256)))[8 ... 11]) == [0x6F, 0x11, 1, 0])
        #expect(Array(BinaryPropertyList.encode(.string(String(repeating: "a", count: 65536)))[8 ... 13]) == [0x5F, 0x12, 0, 1, 0, 0])
        // "é" and "e" + combining acute are equal to Swift but are different strings: both kept.
        let pair = PropertyList.array([.string("é"), .string("e\u{301}"), .string("é")])
        let bytes = BinaryPropertyList.encode(pair)
        #expect(try BinaryPropertyList(bytes: bytes).objectCount == 3)
        expectPlistRoundTrip(pair, "canonically equivalent strings")
    }

    // R26: UIDs: the writer uses the fewest bytes that hold the value (1 to 8); the reader takes
    // every width from 1 to 8.
    @Test func uids() throws {
        let widths: [(UInt64, UInt8)] = [
            (0, 0x80), (255, 0x80), (256, 0x81), (65535, 0x81), (65536, 0x82), (0xFF_FFFF, 0x82),
            (0x100_0000, 0x83), (0xFFFF_FFFF, 0x83), (0x1_0000_0000, 0x84), (1 << 40, 0x85), (1 << 48, 0x86),
            (1 << 56, 0x87), (UInt64.max, 0x87),
        ]
        for (v, marker) in widths {
            expectPlistRoundTrip(.uid(v), "UID \(v)")
            #expect(BinaryPropertyList.encode(.uid(v))[8] == marker, "UID \(v)")
        }
        var raw = RawPlist()
        var expected: [PropertyList] = []
        raw.add([])
        for width in 1 ... 8 {
            let value = (0 ..< width).reduce(UInt64(0)) { $0 << 8 | UInt64($1 + 1) }  // 0x01, 0x0102, 0x010203, …
            raw.add(RawPlist.uid(value, width: width))
            expected.append(.uid(value))
        }
        raw.objects[0] = raw.array(Array(1 ... 8))
        #expect(try BinaryPropertyList.decode(raw.bytes()) == .array(expected))
    }

    // R26: arrays, sets and dictionaries: empty, with 15 or more items (the extended count),
    // nested, and dictionaries with keys that are not strings (but not containers: see
    // `InconsistentKeyedArchiveTests.containerKeysAreRejected`).
    @Test func containers() {
        let many = (0 ..< 20).map { PropertyList.int(Int64($0)) }
        let values: [(String, PropertyList)] = [
            ("empty array", .array([])), ("empty set", .set([])), ("empty dictionary", .dictionary([])),
            ("15 items", .array(Array(many.prefix(15)))), ("20 items", .array(many)), ("a set of 20", .set(many)),
            ("a dictionary of 20", .dictionary(many.map { PropertyListPair(.string("k\($0)"), $0) })),
            ("non-string keys", .dictionary([
                PropertyListPair(.int(1), .string("one")), PropertyListPair(.data([1]), .bool(true)),
                PropertyListPair(.double(1.5), .bool(false)), PropertyListPair(.uid(3), .date(1)),
            ])),
            ("nested", .dictionary([
                "a": .array([.array([.array([.set([.dictionary(["deep": .string("yes")])])])])]),
                "b": .dictionary(["c": .dictionary(["d": .array([])])]),
            ])),
            ("everything", .array([
                .bool(true), .int(-3), .uint(.max), .float(1.5), .double(2.5), .date(3.5), .data([4]),
                .string("five"), .string("sechs ✓"), .uid(7), .array([.int(8)]), .set([.int(9)]),
                .dictionary(["ten": .int(10)]),
            ])),
        ]
        for (what, value) in values { expectPlistRoundTrip(value, what) }
        // Dictionaries keep their order, sets theirs.
        let ordered = PropertyList.dictionary(["z": .int(1), "a": .int(2), "m": .int(3)])
        expectPlistRoundTrip(ordered, "order")
        // Nesting 200 deep (under the default limit).
        var deep = PropertyList.string("bottom")
        for i in 0 ..< 200 { deep = i % 3 == 0 ? .array([deep]) : i % 3 == 1 ? .dictionary(["k": deep]) : .set([deep]) }
        expectPlistRoundTrip(deep, "200 deep")
    }

    // R26: the reference size is the fewest bytes that hold the largest reference, and the
    // offset size the fewest that hold the offset table's offset (as CF and plistlib measure it):
    // 1, 2, 3 or 4 bytes here. The reader takes every size from 1 to 8.
    @Test func referenceAndOffsetSizes() throws {
        // An array of k distinct integers is k + 1 objects, references 0 ... k.
        for (objects, refSize) in [(2, 1), (256, 1), (257, 2), (65536, 2), (65537, 3), (70000, 3)] {
            let value = PropertyList.array((0 ..< Int64(objects - 1)).map { .int($0 + 1_000_000) })
            let bytes = BinaryPropertyList.encode(value)
            let tr = trailer(bytes)
            #expect(tr.count == objects)
            #expect(tr.refSize == refSize, "\(objects) objects")
            #expect(tr.offsetSize == ObjectTable.byteWidth(UInt64(tr.tableOffset)))
            #expect(try BinaryPropertyList.decode(bytes) == value)
        }
        // Offset sizes: a table at offset ≤ 255, ≤ 65535, ≤ 2^24-1, and beyond.
        for (length, offsetSize) in [(10, 1), (240, 1), (250, 2), (60000, 2), (70000, 3), ((1 << 24) + 10, 4)] {
            let value = PropertyList.data(Array(repeating: 7, count: length))
            let bytes = BinaryPropertyList.encode(value)
            let tr = trailer(bytes)
            #expect(tr.offsetSize == offsetSize, "data of \(length): table at \(tr.tableOffset)")
            #expect(tr.refSize == 1)
            #expect(try BinaryPropertyList.decode(bytes) == value)
        }
        // References and offsets of every size from 1 to 8, as other writers may choose them
        // (plistlib and CF use 1, 2, 4 or 8).
        for refSize in 1 ... 8 {
            for offsetSize in 1 ... 8 {
                var raw = RawPlist()
                raw.refSize = refSize
                raw.add([])
                raw.add(RawPlist.ascii("key"))
                raw.add(RawPlist.int(-5))
                raw.add([])
                raw.objects[3] = raw.set([2, 1])
                raw.objects[0] = raw.dict([1], [3])
                let value = try BinaryPropertyList.decode(raw.bytes(offsetSize: offsetSize))
                #expect(value == .dictionary(["key": .set([.int(-5), .string("key")])]), "refs \(refSize), offsets \(offsetSize)")
            }
        }
        // A file with 3-byte offsets and 3-byte references at once.
        let big = PropertyList.array((0 ..< 70000).map { .string("s\($0)") })
        let bytes = BinaryPropertyList.encode(big)
        #expect(trailer(bytes).offsetSize == 3 && trailer(bytes).refSize == 3)
        #expect(try BinaryPropertyList.decode(bytes) == big)
    }

    // R26: equal strings, integers, reals (4- and 8-byte), dates and UIDs, and the booleans, are
    // stored once; values equal to Swift but different in the file (1, true, 1.0) are not merged.
    @Test func writerDedupes() throws {
        let value = PropertyList.array([
            .string("x"), .string("x"), .string("x"), .int(7), .int(7), .double(1.5), .double(1.5),
            .float(2.5), .float(2.5), .date(3), .date(3), .uid(9), .uid(9), .bool(true), .bool(true),
            .bool(false), .bool(false), .uint(.max), .uint(.max), .int(-1), .int(-1),
        ])
        let bytes = BinaryPropertyList.encode(value)
        // the array, "x", 7, 1.5, 2.5f, date, UID, true, false, 2^64-1, -1
        #expect(try BinaryPropertyList(bytes: bytes).objectCount == 11)
        #expect(try BinaryPropertyList.decode(bytes) == value)
        let distinct = PropertyList.array([
            .int(1), .bool(true), .double(1), .float(1), .date(1), .uid(1), .string("1"), .data([1]),
            .double(0), .double(-0.0), .double(.nan), .double(-.nan), .int(-1), .uint(.max),
        ])
        let distinctBytes = BinaryPropertyList.encode(distinct)
        #expect(try BinaryPropertyList(bytes: distinctBytes).objectCount == 15)
        expectPlistRoundTrip(distinct, "distinct look-alikes")
        // Keyed archives: a string under 100 keys, and 50 objects of one class, are stored once.
        let archiver = KeyedArchiver(registry: try graphRegistry())
        for i in 0 ..< 100 { archiver.encode("shared", forKey: "k\(i)") }
        let nodes = (0 ..< 50).map { GraphNode("n\($0 % 5)") }
        try archiver.encodeObjects(nodes, forKey: "nodes")
        let raw = try BinaryPropertyList.decode(try archiver.finishEncoding())
        var strings: [String: Int] = [:]
        var descriptions = 0
        guard case .array(let objects)? = raw["$objects"] else { Issue.record("no $objects"); return }
        for object in objects.dropFirst() {
            if case .string(let s) = object { strings[s, default: 0] += 1 }
            if object["$classname"] != nil { descriptions += 1 }
        }
        #expect(strings == ["shared": 1, "n0": 1, "n1": 1, "n2": 1, "n3": 1, "n4": 1])
        #expect(descriptions == 2, "GraphNode and NSArray, once each")
    }

    // R26: the writer's uniquing table (`RefMap`) finds every value it was given, through its
    // growth from the smallest size, with long runs of full groups and many values sharing one
    // tag (the caller's comparison tells them apart), and never finds one it was not given.
    @Test func uniquingTableFindsWhatItHolds() {
        var map = RefMap()
        let n = 6000
        // Values 0 ..< n; every tenth shares one tag, so that its group overflows into the next.
        func hash(_ i: Int) -> UInt64 {
            i % 10 == 0 ? 0x9E37_79B9_0000_0000 : RefMap.hash(UInt64(i))
        }
        var refs = [Int32](repeating: -1, count: n)
        for i in 0 ..< n {
            let (found, slot, tag) = map.find(hash: hash(i)) { refs[Int($0)] == Int32(i) }
            #expect(found == -1, "value \(i) found before it was inserted")
            // The table maps a value to a reference; here the reference of value i is i.
            refs[i] = Int32(i)
            map.insert(Int32(i), tag: tag, at: slot)
            if i % 1000 == 999 || i < 40 {
                for j in 0 ... i {
                    let (ref, _, _) = map.find(hash: hash(j)) { $0 == Int32(j) }
                    if ref != Int32(j) { Issue.record("value \(j) of \(i + 1) not found"); return }
                }
            }
        }
        #expect(map.used == n)
        // A value not given, with a tag shared by many that are: not found.
        #expect(map.find(hash: hash(10)) { $0 == Int32(n + 10) }.ref == -1)
        // Replacing a reference in place.
        let (ref, slot, _) = map.find(hash: hash(20)) { $0 == 20 }
        #expect(ref == 20)
        map.replace(-7, at: slot)
        #expect(map.find(hash: hash(20)) { $0 == -7 }.ref == -7)
        #expect(map.find(hash: hash(30)) { $0 == 30 }.ref == 30)
    }

    // A capacity hint out of range (negative, or enough to overflow the sizes derived from it)
    // is clamped, never trusted: the archive is the same as without a hint.
    @Test func capacityHintsOutOfRangeAreClamped() throws {
        func archive(_ capacity: Int) throws -> [UInt8] {
            let archiver = KeyedArchiver(registry: try graphRegistry(), capacity: capacity)
            archiver.encode("Homepwner", forKey: "name")
            try archiver.encodeObjects([GraphNode("a"), GraphNode("b")], forKey: "nodes")
            return try archiver.finishEncoding()
        }
        let plain = try archive(0)
        #expect(try archive(-1) == plain)
        #expect(try archive(Int.max) == plain)
        #expect(try archive(Int.max / 9) == plain)
    }

    // A capacity hint of n objects holds two strings an object and the archive's keys and class
    // names beside them: the strings' table is never rehashed (it was, at the very end, for
    // exactly two unique strings an object). Two hundred objects more than the hint, and it grows.
    @Test func capacityHintHoldsTwoStringsAnObjectAndTheKeys() throws {
        func growths(objects: Int, hint: Int) throws -> Int {
            let archiver = KeyedArchiver(registry: try graphRegistry(), capacity: hint)
            var nodes: [GraphNode] = []
            for i in 0 ..< objects { nodes.append(GraphNode("ItemsViewController-\(i)")) }
            try archiver.encodeObjects(nodes, forKey: "nodes")
            for i in 0 ..< objects { _ = archiver.stringUID("itemKey-\(i)") }
            let n = archiver.state.w.table.stringTableGrowths
            _ = try archiver.finishEncoding()
            return n
        }
        #expect(try growths(objects: 1000, hint: 1000) == 0)
        #expect(try growths(objects: 1200, hint: 1000) > 0)
    }

    // R26: a string stored by its UID reads back the same from the archive under construction
    // (ASCII and UTF-16 objects; `$null` is one); a UID that is not a string's, out of range, or
    // asked after finishing gives nil.
    @Test func stringsReadBackByUID() throws {
        let archiver = KeyedArchiver()
        let texts = ["ItemsViewController-12", "", "Überblick", "タブ 🎉", String(repeating: "x", count: 300)]
        let uids = texts.map { archiver.stringUID($0) }
        for (text, uid) in zip(texts, uids) { #expect(archiver.string(uid: uid) == text) }
        #expect(archiver.stringUID("Überblick") == uids[2])
        archiver.encode(Int64(7), forKey: "seven")
        try archiver.encode(objectUIDs: [uids[0]], forKey: "list")
        #expect(archiver.string(uid: 0) == "$null")
        let thing = archiver.encodeDetachedObject(class: archiver.objectClass("Thing")) { _ in }
        #expect(archiver.string(uid: thing) == nil)  // a dictionary
        #expect(archiver.string(uid: -1) == nil)
        #expect(archiver.string(uid: 1 << 20) == nil)
        let bytes = try archiver.finishEncoding()
        #expect(archiver.string(uid: uids[0]) == nil)
        let u = try KeyedUnarchiver(bytes: bytes)
        #expect(try u.decodeInt64(forKey: "seven") == 7)
    }

    // R26: integers found by value in an array (0 ..< 16,384) and those hashed (all others) are
    // stored once each, across the array's growth and its limit, whatever order they come in.
    @Test func smallAndLargeIntegersAreStoredOnce() throws {
        let samples: [Int64] = [0, 1, 63, 64, 65, 127, 128, 255, 256, 4095, 4096, 16383, 16384, 16385, 1 << 20, -1, -16384, .max, .min]
        // Large ones first, then small ones, then all again in reverse: each is written once.
        let order = samples.reversed() + samples + samples.reversed()
        let value = PropertyList.array(order.map { .int($0) })
        let bytes = BinaryPropertyList.encode(value)
        #expect(try BinaryPropertyList(bytes: bytes).objectCount == 1 + samples.count)
        #expect(try BinaryPropertyList.decode(bytes) == value)
        // Many small integers: the array grows past its first sizes; every one is still once.
        let many = PropertyList.array((0 ..< 20000).map { .int(Int64($0 % 17000)) } + (0 ..< 17000).map { .int(Int64($0)) })
        let manyBytes = BinaryPropertyList.encode(many)
        #expect(try BinaryPropertyList(bytes: manyBytes).objectCount == 1 + 17000)
        #expect(try BinaryPropertyList.decode(manyBytes) == many)
    }

    // MARK: Keyed archives: values

    // R25, R26: every value of Foundation's classes round-trips through a keyed archive.
    @Test func keyedValues() throws {
        var values: [ArchiveValue] = [.null, .bool(true), .bool(false), .uint(1 << 63), .uint(.max)]
        values += integerSamples.map { .int($0) }
        values += doubleSamples.map { .double($0) }
        values += stringSamples.map { .string($0) }
        values += [0, 1, 15, 256, 65536, 1 << 20].map { n in .data((0 ..< n).map { UInt8(truncatingIfNeeded: $0) }) }
        // The first and last dates an archive may hold (ArchiveLimits.dates); beyond them, R22.
        values += [0, -1, 100.5, 7e8, -1e10, -63_113_904_000, 252_423_993_599].map { .date($0) }
        values += [.uuid(Array(0 ..< 16)), .uuid(Array(repeating: 0xFF, count: 16)), .uuid(Array(repeating: 0, count: 16))]
        values += [
            [], [0], [5], [-1], [Int.max], [Int.min], [0, 0], [1, 2], [127, 128], [16383, 16384, 2_097_151, 2_097_152],
            [0, 3, 70000, 1 << 40], [Int.max, Int.min, -1, 0], Array(0 ..< 300),
        ].map { .indexPath($0) }
        for value in values { expectKeyedRoundTrip(value, "\(String(describing: value).prefix(60))") }
        // Containers of all of them, nested; dictionaries with keys of any class; nulls inside.
        expectKeyedRoundTrip(.array(values), "an array of every value")
        expectKeyedRoundTrip(.set(values.filter { $0 != .null }), "a set of every value")
        expectKeyedRoundTrip(.dictionary(values.enumerated().map { ArchiveValuePair(.string("key \($0.offset)"), $0.element) }), "a dictionary of every value")
        expectKeyedRoundTrip(.dictionary(values.enumerated().map { ArchiveValuePair($0.element, .int(Int64($0.offset))) }), "every value as a key")
        expectKeyedRoundTrip(.array([.array([]), .set([]), .dictionary([]), .array([.null, .null])]), "empty containers")
        var deep = ArchiveValue.string("bottom")
        for i in 0 ..< 150 { deep = i % 3 == 0 ? .array([deep, .int(Int64(i))]) : i % 3 == 1 ? .dictionary(["k": deep]) : .set([deep]) }
        expectKeyedRoundTrip(deep, "150 deep")
        // Many objects: UIDs and references of 1, 2 and 4 bytes.
        for n in [10, 300, 70000] {
            let big = ArchiveValue.array((0 ..< n).map { .string("item \($0)") })
            let bytes = try KeyedArchiver.archive(big)
            #expect(trailer(bytes).refSize == ObjectTable.byteWidth(UInt64(trailer(bytes).count - 1)))
            expectKeyedRoundTrip(big, "\(n) strings")
        }
    }

    // R25: the typed encoders and decoders, each by its own key.
    @Test func typedKeys() throws {
        let archiver = KeyedArchiver()
        archiver.encode(true, forKey: "bool")
        archiver.encode(Int64.min, forKey: "int64")
        archiver.encode(Int.max, forKey: "int")
        archiver.encode(-2.5, forKey: "double")
        archiver.encode(Double.nan, forKey: "nan")
        archiver.encode(7 as Int64, forKey: "seven")
        archiver.encode("héllo 🎉", forKey: "string")
        archiver.encode("", forKey: "empty")
        archiver.encode(bytes: [1, 2, 3], forKey: "bytes")
        archiver.encode(bytes: [], forKey: "noBytes")
        archiver.encode(date: 100.5, forKey: "date")
        archiver.encode(indexPath: [1, 2, 3], forKey: "path")
        archiver.encode(indexPath: [], forKey: "emptyPath")
        archiver.encode(.uuid(Array(100 ..< 116)), forKey: "uuid")
        archiver.encode(.uint(.max), forKey: "uint")
        archiver.encodeNull(forKey: "null")
        archiver.encode(.array([.string("a"), .int(1)]), forKey: "array")
        archiver.encodeObject(forKey: "nested", className: "Custom") { nested in
            nested.encode("inner", forKey: "name")
            nested.encode(3 as Int64, forKey: "$count")
        }
        let unarchiver = try KeyedUnarchiver(bytes: try archiver.finishEncoding())
        #expect(try unarchiver.decodeBool(forKey: "bool") == true)
        #expect(try unarchiver.decodeInt64(forKey: "int64") == .min)
        #expect(try unarchiver.decodeInt64(forKey: "int") == Int64(Int.max))
        #expect(try unarchiver.decodeDouble(forKey: "double") == -2.5)
        #expect(try unarchiver.decodeDouble(forKey: "nan").isNaN)
        #expect(try unarchiver.decodeDouble(forKey: "seven") == 7, "integers are accepted as doubles")
        #expect(try unarchiver.decodeString(forKey: "string") == "héllo 🎉")
        #expect(try unarchiver.decodeString(forKey: "empty") == "")
        #expect(try unarchiver.decodeBytes(forKey: "bytes") == [1, 2, 3])
        #expect(try unarchiver.decodeBytes(forKey: "noBytes") == [])
        #expect(try unarchiver.decodeDate(forKey: "date") == 100.5)
        #expect(try unarchiver.decodeIndexPath(forKey: "path") == [1, 2, 3])
        #expect(try unarchiver.decodeIndexPath(forKey: "emptyPath") == [])
        #expect(try unarchiver.decodeUUID(forKey: "uuid") == Array(100 ..< 116))
        #expect(try unarchiver.decodeValue(forKey: "uint") == .uint(.max))
        #expect(try unarchiver.decodeValue(forKey: "null") == .null)
        #expect(try unarchiver.decodeValue(forKey: "array") == .array([.string("a"), .int(1)]))
        #expect(try unarchiver.decodeValue(forKey: "bool") == .bool(true))
        #expect(try unarchiver.decodeValue(forKey: "date") == .date(100.5))
        #expect(try unarchiver.decodeObject(forKey: "null") == nil)
        let nested = try unarchiver.decodeObject(forKey: "nested") { inner, className in
            (className, try inner.decodeString(forKey: "name"), try inner.decodeInt64(forKey: "$count"), inner.allKeys())
        }
        #expect(nested?.0 == "Custom")
        #expect(nested?.1 == "inner")
        #expect(nested?.2 == 3)
        #expect(nested?.3 == ["name", "$count"])
        #expect(unarchiver.currentObjectUID == nil, "back at the top level")
        #expect(unarchiver.containsValue(forKey: "bool"))
        #expect(!unarchiver.containsValue(forKey: "missing"))
    }

    // R25: a missing key is .keyNotFound for every decoder.
    @Test func missingKeys() throws {
        let archiver = KeyedArchiver()
        archiver.encode(1 as Int64, forKey: "present")
        let u = try KeyedUnarchiver(bytes: try archiver.finishEncoding(), registry: try graphRegistry())
        let decoders: [(String, () throws -> Void)] = [
            ("decodeBool", { _ = try u.decodeBool(forKey: "absent") }),
            ("decodeInt64", { _ = try u.decodeInt64(forKey: "absent") }),
            ("decodeDouble", { _ = try u.decodeDouble(forKey: "absent") }),
            ("decodeString", { _ = try u.decodeString(forKey: "absent") }),
            ("decodeBytes", { _ = try u.decodeBytes(forKey: "absent") }),
            ("decodeDate", { _ = try u.decodeDate(forKey: "absent") }),
            ("decodeIndexPath", { _ = try u.decodeIndexPath(forKey: "absent") }),
            ("decodeUUID", { _ = try u.decodeUUID(forKey: "absent") }),
            ("decodeValue", { _ = try u.decodeValue(forKey: "absent") }),
            ("decodeObject", { _ = try u.decodeObject(forKey: "absent") }),
            ("decodeObjects", { _ = try u.decodeObjects(forKey: "absent") }),
            ("decodeObject with a body", { _ = try u.decodeObject(forKey: "absent") { _, _ in 1 } }),
            ("a key that differs in case", { _ = try u.decodeInt64(forKey: "Present") }),
            ("the escaped form of a key", { _ = try u.decodeInt64(forKey: "$present") }),
        ]
        for (what, decode) in decoders { expectCode(.keyNotFound, what, decode) }
    }

    // R25: a value of another type is .typeMismatch, for every decoder and every wrong type.
    @Test func wrongTypes() throws {
        let registry = try graphRegistry()
        let archiver = KeyedArchiver(registry: registry)
        archiver.encode(true, forKey: "bool")
        archiver.encode(5 as Int64, forKey: "int")
        archiver.encode(.uint(.max), forKey: "uint")
        archiver.encode(2.5, forKey: "double")
        archiver.encode("text", forKey: "string")
        archiver.encode(bytes: [1], forKey: "data")
        archiver.encode(date: 1, forKey: "date")
        archiver.encode(indexPath: [1, 2], forKey: "path")
        archiver.encode(.uuid(Array(0 ..< 16)), forKey: "uuid")
        archiver.encode(.array([.int(1)]), forKey: "array")
        archiver.encode(.dictionary(["a": .int(1)]), forKey: "dict")
        archiver.encodeNull(forKey: "null")
        try archiver.encodeObject(GraphNode("n"), forKey: "object")
        let u = try KeyedUnarchiver(bytes: try archiver.finishEncoding(), registry: registry)
        let all = ["bool", "int", "uint", "double", "string", "data", "date", "path", "uuid", "array", "dict", "null", "object"]
        let decoders: [(String, Set<String>, (String) throws -> Void)] = [
            ("decodeBool", ["bool"], { _ = try u.decodeBool(forKey: $0) }),
            ("decodeInt64", ["int"], { _ = try u.decodeInt64(forKey: $0) }),
            ("decodeDouble", ["int", "uint", "double"], { _ = try u.decodeDouble(forKey: $0) }),
            ("decodeString", ["string"], { _ = try u.decodeString(forKey: $0) }),
            ("decodeBytes", ["data"], { _ = try u.decodeBytes(forKey: $0) }),
            ("decodeDate", ["date"], { _ = try u.decodeDate(forKey: $0) }),
            ("decodeIndexPath", ["path"], { _ = try u.decodeIndexPath(forKey: $0) }),
            ("decodeUUID", ["uuid"], { _ = try u.decodeUUID(forKey: $0) }),
            ("decodeValue", Set(all).subtracting(["object"]), { _ = try u.decodeValue(forKey: $0) }),
            ("decodeObject", ["object", "null"], { _ = try u.decodeObject(forKey: $0) }),
            ("decodeObjects", [], { _ = try u.decodeObjects(forKey: $0) }),
        ]
        for (name, accepted, decode) in decoders {
            for key in all {
                if accepted.contains(key) {
                    #expect(throws: Never.self, "\(name) of \(key)") { try decode(key) }
                } else if name == "decodeObject" && ["string", "data", "array", "dict", "date", "path", "uuid"].contains(key) {
                    // Not an instance of a coding class: Foundation's value classes are not registered.
                    do {
                        try decode(key)
                        Issue.record("\(name) of \(key) succeeded")
                    } catch let error as ArchiveError {
                        #expect(error.code == .typeMismatch || error.code == .classNotAllowed, "\(name) of \(key): \(error)")
                    }
                } else {
                    expectCode(.typeMismatch, "\(name) of \(key)") { try decode(key) }
                }
            }
        }
        // An index path of one element is not a UUID, a UUID not data, and so on: the class decides.
        expectCode(.typeMismatch, "decodeBytes of a UUID") { _ = try u.decodeBytes(forKey: "uuid") }
    }

    // R25, R26: keys that begin with "$" are escaped with another "$" in the file, so they never
    // collide with `$class`, and read back by the key given.
    @Test func dollarKeysAreEscaped() throws {
        let keys = ["$class", "$top", "$", "$$x", "$null", "plain", "NS.objects"]
        let archiver = KeyedArchiver()
        for (i, key) in keys.enumerated() { archiver.encode(Int64(i), forKey: key) }
        archiver.encodeObject(forKey: "object", className: "Custom") { nested in
            for (i, key) in keys.enumerated() { nested.encode("v\(i)", forKey: key) }
        }
        let bytes = try archiver.finishEncoding()
        let raw = try BinaryPropertyList.decode(bytes)
        guard case .dictionary(let topPairs)? = raw["$top"] else { Issue.record("no $top"); return }
        let stored = topPairs.compactMap { if case .string(let k) = $0.key { k } else { nil } }
        #expect(stored == ["$$class", "$$top", "$$", "$$$x", "$$null", "plain", "NS.objects", "object"])
        let u = try KeyedUnarchiver(bytes: bytes)
        for (i, key) in keys.enumerated() { #expect(try u.decodeInt64(forKey: key) == Int64(i), "\(key)") }
        #expect(u.allKeys() == keys + ["object"])
        let inner = try u.decodeObject(forKey: "object") { nested, _ in
            try keys.map { try nested.decodeString(forKey: $0) }
        }
        #expect(inner == keys.indices.map { "v\($0)" })
        // The raw graph shows the keys unescaped, and the class apart.
        let archive = try KeyedArchive(bytes: bytes)
        guard case .uid(let objectUID)? = raw["$top"]?["object"] else { Issue.record("no object"); return }
        guard case .instance(let className, _, let fields) = try archive.object(Int(objectUID)) else { Issue.record("not an instance"); return }
        #expect(className == "Custom")
        #expect(fields.map(\.key) == keys)
    }

    // R25: nil decodes as nil; nil is not a string, bytes, or a number.
    @Test func nullIsNotAValue() throws {
        let archiver = KeyedArchiver()
        archiver.encodeNull(forKey: "n")
        let u = try KeyedUnarchiver(bytes: try archiver.finishEncoding())
        #expect(try u.decodeValue(forKey: "n") == .null)
        expectCode(.typeMismatch, "decodeString of null") { _ = try u.decodeString(forKey: "n") }
        expectCode(.typeMismatch, "decodeBytes of null") { _ = try u.decodeBytes(forKey: "n") }
        expectCode(.typeMismatch, "decodeInt64 of null") { _ = try u.decodeInt64(forKey: "n") }
        expectCode(.typeMismatch, "decodeBool of null") { _ = try u.decodeBool(forKey: "n") }
        expectCode(.typeMismatch, "decodeDate of null") { _ = try u.decodeDate(forKey: "n") }
        expectCode(.typeMismatch, "decodeObjects of null") { _ = try u.decodeObjects(forKey: "n") }
    }

    // MARK: Keyed archives: object graphs

    // R25: shared references stay shared, cycles stay cycles: a diamond, a node that is its own
    // child and friend, A → B → A, parent pointers, and a chain of 400.
    @Test func objectGraphs() throws {
        let registry = try graphRegistry()
        // A diamond: root → a, b; a → c; b → c.
        let root = GraphNode("root"), a = GraphNode("a"), b = GraphNode("b"), c = GraphNode("c")
        root.children = [a, b]
        a.children = [c]
        b.children = [c]
        var back = try #require(try unarchiveGraph(try archiveGraph(root, registry: registry), registry: registry))
        expectSameGraph(root, back)
        #expect(back.children[0].children[0] === back.children[1].children[0])

        // Itself as child, parent and friend.
        let selfish = GraphNode("self")
        selfish.children = [selfish, selfish]
        selfish.parent = selfish
        selfish.friend = selfish
        back = try #require(try unarchiveGraph(try archiveGraph(selfish, registry: registry), registry: registry))
        expectSameGraph(selfish, back)
        #expect(back.children[0] === back && back.parent === back && back.friend === back)

        // A → B → A, and parent pointers throughout a tree.
        let x = GraphNode("x"), y = GraphNode("y")
        x.friend = y
        y.friend = x
        let tree = GraphNode("tree")
        tree.friend = x
        for i in 0 ..< 10 {
            let child = GraphNode("child \(i)")
            child.parent = tree
            child.friend = i % 2 == 0 ? x : y
            tree.children.append(child)
            for j in 0 ..< 3 {
                let leaf = GraphNode("leaf \(i).\(j)")
                leaf.parent = child
                leaf.friend = tree
                child.children.append(leaf)
            }
        }
        back = try #require(try unarchiveGraph(try archiveGraph(tree, registry: registry), registry: registry))
        expectSameGraph(tree, back)
        #expect(back.friend?.friend?.friend === back.friend)

        // A chain of 400 objects (under the depth limit), closed into a ring.
        var chain = [GraphNode("link 0")]
        for i in 1 ..< 400 {
            let link = GraphNode("link \(i)")
            chain[i - 1].friend = link
            chain.append(link)
        }
        chain[399].friend = chain[0]
        back = try #require(try unarchiveGraph(try archiveGraph(chain[0], registry: registry), registry: registry))
        expectSameGraph(chain[0], back)

        // nil at the root.
        #expect(try unarchiveGraph(try archiveGraph(nil, registry: registry), registry: registry) == nil)
        for node in [root, a, b, c, selfish, x, y, tree] + chain { node.children = []; node.parent = nil; node.friend = nil }
    }

    // R25, R22: a large graph (2 000 nodes, each referring to a few others at random) round-trips.
    // Objects decode depth first, like Foundation's, so the depth of the walk is the limit that
    // matters: here it exceeds the default 512, which refuses the archive, and a higher limit
    // reads it. (The archiver checks the depth of its own walk, in the order it encodes keys;
    // this graph's decode reads them in another order and walks deeper: the archiver cannot
    // foresee that.)
    @Test func largeRandomGraph() throws {
        var rng = SplitMix(seed: 42)
        let nodes = (0 ..< 2000).map { GraphNode("node \($0)") }
        for node in nodes {
            node.friend = nodes[Int(rng.next() % 2000)]
            if rng.next() % 3 == 0 { node.parent = nodes[Int(rng.next() % 2000)] }
            for _ in 0 ..< Int(rng.next() % 4) { node.children.append(nodes[Int(rng.next() % 2000)]) }
        }
        let root = GraphNode("root")
        root.children = nodes
        let registry = try graphRegistry()
        let bytes = try archiveGraph(root, registry: registry)
        #expect(trailer(bytes).refSize >= 2)
        expectCode(.limitExceeded, "a walk deeper than 512 under the default limits") {
            _ = try unarchiveGraph(bytes, registry: registry)
        }
        let unarchiver = try KeyedUnarchiver(bytes: bytes, limits: ArchiveLimits(maxDepth: 2100), registry: registry)
        let back = try #require(try unarchiver.decodeObject(forKey: "root") as? GraphNode)
        expectSameGraph(root, back)
        for node in nodes { node.children = []; node.parent = nil; node.friend = nil }
    }

    // R25, R22: encoding does not recurse, so a graph of any depth is encoded without
    // exhausting the stack (here a chain of 100 000 objects, which recursing, a few frames per
    // object, would need far more than a thread's stack), by an archiver told of a depth limit
    // that high. The decoder's default depth limit refuses the archive with an error; an
    // archiver under the default limits refuses the chain as it meets its 513th link.
    @Test func deepChainsEncodeWithoutRecursion() throws {
        let registry = try graphRegistry()
        var chain = [GraphNode("link 0")]
        for i in 1 ..< 100_000 {
            let link = GraphNode("link \(i)")
            chain[i - 1].friend = link
            chain.append(link)
        }
        let bytes = try archiveGraph(chain[0], registry: registry, limits: ArchiveLimits(maxDepth: 200_000))
        let archive = try KeyedArchive(bytes: bytes)
        #expect(archive.objectCount > 200_000)  // each link and its name
        expectCode(.limitExceeded, "a chain 100 000 deep, archived under the default limits") {
            _ = try archiveGraph(chain[0], registry: registry)
        }
        expectCode(.limitExceeded, "a chain 100 000 deep under the default limits") {
            _ = try unarchiveGraph(bytes, registry: registry)
        }
        // Released link by link: freeing the chain from its head would recurse in deinit.
        for link in chain { link.friend = nil }
    }

    // R25: an object met inside another's encode is encoded after it, so the error of its
    // encode comes out of the outermost call (the one that started the encoding), and the
    // archive cannot be finished afterwards.
    @Test func anErrorOfANestedObjectReachesTheOutermostCall() throws {
        struct Stop: Error {}
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "GraphNode",
            encode: { object, archiver in
                let node = object as! GraphNode
                if node.name == "bad" { throw Stop() }
                try archiver.encodeObjects(node.children, forKey: "children")
            },
            make: { _ in GraphNode("") }), for: GraphNode.self)
        let root = GraphNode("root"), good = GraphNode("good"), bad = GraphNode("bad")
        root.children = [good]
        good.children = [bad]
        let archiver = KeyedArchiver(registry: registry)
        #expect(throws: Stop.self) { try archiver.encodeObject(root, forKey: "root") }
        expectCode(.invalidValue, "finishing after a nested object's encode failed") { _ = try archiver.finishEncoding() }
        root.children = []
        good.children = []
    }

    // R25: objects are laid out in the order they are decoded: each object's dictionary comes
    // before the dictionaries of the objects it refers to, children in their order (depth first,
    // in pre-order), so that a decoder reads the archive front to back.
    @Test func objectsAreLaidOutInDecodingOrder() throws {
        let registry = try graphRegistry()
        var nodes = [GraphNode("node 0")]
        for i in 1 ..< 341 {  // four levels of a tree, 4 children each
            let node = GraphNode("node \(i)")
            nodes[(i - 1) / 4].children.append(node)
            nodes.append(node)
        }
        let archive = try KeyedArchive(bytes: try archiveGraph(nodes[0], registry: registry))
        // The offset of each node's dictionary, in pre-order, by walking the archive from the root.
        func field(_ fields: [(key: String, value: PropertyList)], _ key: String) -> UInt64? {
            guard case .uid(let u)? = fields.first(where: { $0.key == key })?.value else { return nil }
            return u
        }
        var order: [Int] = []
        var stack = [UInt64(try #require(try archive.topEntries().first { $0.key == "root" }?.uid))]
        while let u = stack.popLast() {
            order.append(archive.plist.offsets[archive.objectRefs[Int(u)]])
            guard case .instance(_, _, let fields) = try archive.object(Int(u)),
                  let list = field(fields, "children"),
                  case .instance(_, _, let items) = try archive.object(Int(list)),
                  case .array(let children)? = items.first(where: { $0.key == "NS.objects" })?.value
            else { Issue.record("node \(u) has no children array"); return }
            stack.append(contentsOf: children.reversed().compactMap { if case .uid(let c) = $0 { return c } else { return nil } })
        }
        #expect(order.count == 341)
        let outOfOrder = zip(order, order.dropFirst()).filter { $0 >= $1 }.count
        #expect(outOfOrder == 0, "nodes whose dictionary comes before the previous node's in pre-order")
        for node in nodes { node.children = [] }
    }

    // R25: the `$classes` chain names registered superclasses; objects that name their class
    // themselves are encoded by it; what cannot be encoded is refused.
    @Test func classesAndRegistration() throws {
        let registry = try graphRegistry()
        let special = SpecialNode()
        special.level = 3
        special.base = GraphNode("base")
        let archiver = KeyedArchiver(registry: registry)
        try archiver.encodeObject(special, forKey: "special")
        try archiver.encodeObject(HostObject(className: "HostThing", payload: 99), forKey: "host")
        let bytes = try archiver.finishEncoding()
        let archive = try KeyedArchive(bytes: bytes)
        let uids = Dictionary(uniqueKeysWithValues: try archive.topEntries().map { ($0.key, $0.uid) })
        guard case .instance(let name, let classes, _) = try archive.object(try #require(uids["special"])) else {
            Issue.record("not an instance"); return
        }
        #expect(name == "SpecialNode")
        #expect(classes == ["SpecialNode", "GraphNode", "NSObject"])
        guard case .instance(let hostName, _, _) = try archive.object(try #require(uids["host"])) else {
            Issue.record("not an instance"); return
        }
        #expect(hostName == "HostThing")
        let u = try KeyedUnarchiver(bytes: bytes, registry: registry)
        let decoded = try #require(try u.decodeObject(forKey: "special") as? SpecialNode)
        #expect(decoded.level == 3 && decoded.base?.name == "base")
        #expect((try u.decodeObject(forKey: "host") as? HostObject)?.payload == 99)

        // Refusals.
        expectCode(.invalidValue, "an object of no registered class") {
            try KeyedArchiver(registry: registry).encodeObject(HostObject(className: "Nobody", payload: 1), forKey: "k")
        }
        expectCode(.invalidValue, "an object without a registry") { try KeyedArchiver().encodeObject(GraphNode("n"), forKey: "k") }
        // The same through an array (`encodeObjects` finds the classes in a loop of its own).
        let listed = KeyedArchiver(registry: registry)
        try listed.encodeObjects([GraphNode("g"), HostObject(className: "HostThing", payload: 7)], forKey: "list")
        let list = try KeyedUnarchiver(bytes: try listed.finishEncoding(), registry: registry).decodeObjects(forKey: "list")
        #expect((list.first as? GraphNode)?.name == "g" && (list.last as? HostObject)?.payload == 7, "a class named by the object, in an array")
        expectCode(.invalidValue, "an object of no registered class, in an array") {
            try KeyedArchiver(registry: registry).encodeObjects([GraphNode("g"), HostObject(className: "Nobody", payload: 1)], forKey: "k")
        }
        expectCode(.invalidValue, "an array's object without a registry") { try KeyedArchiver().encodeObjects([GraphNode("n")], forKey: "k") }
        expectCode(.invalidValue, "a class without a name") {
            try registry.register(ArchiveClass(name: "", encode: { _, _ in }, make: { _ in Thing() }))
        }
        for reserved in ["NSArray", "NSString", "NSObject", "NSDictionary", "NSNull", "NSUUID", "NSIndexPath", "NSDate"] {
            expectCode(.invalidValue, "registering \(reserved)") {
                try registry.register(ArchiveClass(name: reserved, encode: { _, _ in }, make: { _ in Thing() }))
            }
        }
        let twice = KeyedArchiver()
        _ = try twice.finishEncoding()
        expectCode(.invalidValue, "finishing twice") { _ = try twice.finishEncoding() }
        // A body that throws leaves an object open: the archive cannot be finished.
        let broken = KeyedArchiver()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try broken.encodeObject(forKey: "k", className: "Custom") { _ in throw Stop() }
        }
        expectCode(.invalidValue, "finishing with an object open") { _ = try broken.finishEncoding() }
    }

    // R25: secure decoding: only registered classes that are, or descend from, an allowed class
    // are made; everything else is .classNotAllowed.
    @Test func secureDecoding() throws {
        let registry = try graphRegistry()
        let archiver = KeyedArchiver(registry: registry)
        let special = SpecialNode()
        try archiver.encodeObject(special, forKey: "special")
        try archiver.encodeObject(GraphNode("plain"), forKey: "plain")
        try archiver.encodeObjects([GraphNode("one"), special], forKey: "list")
        archiver.encodeObject(forKey: "stranger", className: "Stranger") { $0.encode(1 as Int64, forKey: "x") }
        archiver.encodeObject(forKey: "heir", className: "UnknownHeir", classes: ["UnknownHeir", "GraphNode", "NSObject"]) {
            $0.encode("heir", forKey: "name")
            $0.encode(.array([]), forKey: "children")
            $0.encodeNull(forKey: "parent")
            $0.encodeNull(forKey: "friend")
        }
        let bytes = try archiver.finishEncoding()
        func fresh() throws -> KeyedUnarchiver { try KeyedUnarchiver(bytes: bytes, registry: registry) }

        // Allowed: the class itself, a registered superclass, one of several.
        #expect(try fresh().decodeObject(forKey: "plain", ofClasses: ["GraphNode"]) is GraphNode)
        #expect(try fresh().decodeObject(forKey: "special", ofClasses: ["SpecialNode"]) is SpecialNode)
        #expect(try fresh().decodeObject(forKey: "special", ofClasses: ["GraphNode"]) is SpecialNode, "a subclass of an allowed class")
        #expect(try fresh().decodeObject(forKey: "special", ofClasses: ["Unrelated", "GraphNode"]) is SpecialNode)
        #expect(try fresh().decodeObjects(forKey: "list", ofClasses: ["GraphNode"]).count == 2)
        // An unknown class whose chain names a registered one is made as that one, as Foundation does.
        #expect((try fresh().decodeObject(forKey: "heir", ofClasses: ["GraphNode"]) as? GraphNode)?.name == "heir")

        // Refused.
        expectCode(.classNotAllowed, "a superclass when only the subclass is allowed") {
            _ = try fresh().decodeObject(forKey: "plain", ofClasses: ["SpecialNode"])
        }
        expectCode(.classNotAllowed, "an unrelated allowed class") { _ = try fresh().decodeObject(forKey: "plain", ofClasses: ["Unrelated"]) }
        expectCode(.classNotAllowed, "no class allowed") { _ = try fresh().decodeObject(forKey: "plain", ofClasses: []) }
        expectCode(.classNotAllowed, "an unregistered class") { _ = try fresh().decodeObject(forKey: "stranger") }
        expectCode(.classNotAllowed, "an unregistered class, allowed by name") {
            _ = try fresh().decodeObject(forKey: "stranger", ofClasses: ["Stranger"])
        }
        expectCode(.classNotAllowed, "an array holding a disallowed class") {
            _ = try fresh().decodeObjects(forKey: "list", ofClasses: ["SpecialNode"])
        }
        expectCode(.classNotAllowed, "any class without a registry") { _ = try KeyedUnarchiver(bytes: bytes).decodeObject(forKey: "plain") }
        let strict = try fresh()
        strict.requiresSecureCoding = true
        expectCode(.classNotAllowed, "secure coding required, no classes named") { _ = try strict.decodeObject(forKey: "plain") }
        #expect(try strict.decodeObject(forKey: "plain", ofClasses: ["GraphNode"]) is GraphNode)
        // A refusal deep inside a graph: the special node's base is decoded without a class list,
        // so under secure coding it is refused.
        special.base = GraphNode("inner")
        let nested = KeyedArchiver(registry: registry)
        try nested.encodeObject(special, forKey: "root")
        let strictNested = try KeyedUnarchiver(bytes: try nested.finishEncoding(), registry: registry)
        strictNested.requiresSecureCoding = true
        expectCode(.classNotAllowed, "a nested object under secure coding") {
            _ = try strictNested.decodeObject(forKey: "root", ofClasses: ["SpecialNode"])
        }
    }

    // R25: objects that live only in an array a class's `encode` makes for the call are encoded
    // after that `encode` returns, and must stay alive until the archive is finished: were one
    // freed, an object made later at its address would be taken for it (stored as a reference to
    // it). Arrays of one class and of two, and arrays whose objects were met before, alike; and
    // every object is released once the archiver is.
    @Test func objectsMadeForTheCallStayDistinct() throws {
        let alive = AliveCount()
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "Maker",
            encode: { object, archiver in
                let maker = object as! Maker
                archiver.encode(maker.base, forKey: "base")
                try archiver.encodeObjects((0 ..< 3).map { Leaf(maker.base * 10 + Int64($0), alive) }, forKey: "leaves")
                let tag = Tag(alive)
                try archiver.encodeObjects([Leaf(maker.base * 10 + 3, alive), tag], forKey: "mixed")
                try archiver.encodeObjects([tag, tag], forKey: "again")
            },
            make: { u in Maker(try u.decodeInt64(forKey: "base")) },
            decode: { object, u in
                let maker = object as! Maker
                maker.leaves = try u.decodeObjects(forKey: "leaves").map { $0 as! Leaf }
                maker.mixed = try u.decodeObjects(forKey: "mixed")
                maker.again = try u.decodeObjects(forKey: "again")
            }), for: Maker.self)
        try registry.register(ArchiveClass(
            name: "Leaf",
            encode: { object, archiver in archiver.encode((object as! Leaf).value, forKey: "value") },
            make: { u in Leaf(try u.decodeInt64(forKey: "value"), nil) }), for: Leaf.self)
        try registry.register(ArchiveClass(name: "Tag", encode: { _, _ in }, make: { _ in Tag(nil) }), for: Tag.self)

        let makers = (0 ..< 200).map { Maker(Int64($0)) }
        let archiver = KeyedArchiver(registry: registry)
        try archiver.encodeObjects(makers, forKey: "makers")
        #expect(alive.now == 200 * 5, "every object made for a call is alive until the end")
        let bytes = try archiver.finishEncoding()
        #expect(alive.now == 0, "and released when the archive is finished")

        let decoded = try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObjects(forKey: "makers").map { $0 as! Maker }
        #expect(decoded.map(\.base) == (0 ..< 200).map { Int64($0) })
        var leaves = Set<ObjectIdentifier>()
        for maker in decoded {
            #expect(maker.leaves.map(\.value) == (0 ..< 3).map { maker.base * 10 + Int64($0) })
            #expect(maker.mixed.count == 2 && (maker.mixed[0] as? Leaf)?.value == maker.base * 10 + 3 && maker.mixed[1] is Tag)
            #expect(maker.again.count == 2 && maker.again[0] === maker.mixed[1] && maker.again[1] === maker.mixed[1], "the tag, shared")
            for leaf in maker.leaves + [maker.mixed[0]] { leaves.insert(ObjectIdentifier(leaf)) }
        }
        #expect(leaves.count == 200 * 4, "no object taken for another")
        #expect(alive.now == 0)
    }

    /// An array of a registered class is met without reading its objects; each object's class
    /// is found from its own type at its turn: a registered subclass is encoded as itself, and
    /// one no class encodes is refused then, by the outermost call, and the archive cannot be
    /// finished.
    @Test func objectsOfAnArrayFindTheirClassesAtTheirTurn() throws {
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "Shape",
            encode: { object, archiver in
                let shape = object as! Shape
                archiver.encode(shape.name, forKey: "name")
                try archiver.encodeObjects(shape.parts, forKey: "parts")
            },
            make: { u in Shape(try u.decodeString(forKey: "name")) },
            decode: { object, u in (object as! Shape).parts = try u.decodeObjects(forKey: "parts").map { $0 as! Shape } }),
            for: Shape.self)
        try registry.register(ArchiveClass(
            name: "Circle", superclassName: "Shape",
            encode: { object, archiver in
                archiver.encode((object as! Circle).name, forKey: "name")
                archiver.encode((object as! Circle).radius, forKey: "radius")
            },
            make: { u in Circle(try u.decodeString(forKey: "name"), radius: try u.decodeDouble(forKey: "radius")) }),
            for: Circle.self)

        let circle = Circle("c", radius: 2.5)
        let root = Shape("root", parts: [Shape("s", parts: [circle]), circle, Shape("t")])
        let archiver = KeyedArchiver(registry: registry)
        try archiver.encodeObject(root, forKey: "root")
        let bytes = try archiver.finishEncoding()
        let back = try #require(try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObject(forKey: "root") as? Shape)
        #expect(back.parts.map(\.name) == ["s", "c", "t"])
        let c = try #require(back.parts[1] as? Circle, "a registered subclass in an array of its superclass, encoded as itself")
        #expect(c.radius == 2.5 && back.parts[0].parts.count == 1 && back.parts[0].parts[0] === c, "the same circle, shared")

        // A subclass no class encodes, in an array of a registered class: refused at its turn.
        let square = Square("q")
        let shapes: [Shape] = [Shape("a"), square]
        let refused = KeyedArchiver(registry: registry)
        expectCode(.invalidValue, "an unregistered subclass, at the top") {
            try refused.encodeObjects(shapes, forKey: "shapes")
        }
        expectCode(.invalidValue, "finishing after an object was refused") { _ = try refused.finishEncoding() }
        // Met inside an object's encode, it is refused by the outermost call, even when that
        // encode ignores what its own call throws.
        let holder = KeyedArchiver(registry: registry)
        try registry.register(ArchiveClass(
            name: "Lenient",
            encode: { object, archiver in try? archiver.encodeObjects((object as! Lenient).shapes, forKey: "shapes") },
            make: { _ in Lenient([]) }), for: Lenient.self)
        expectCode(.invalidValue, "an unregistered subclass, met inside an encode") {
            try holder.encodeObject(Lenient(shapes), forKey: "root")
        }
        expectCode(.invalidValue, "finishing after a nested object was refused") { _ = try holder.finishEncoding() }
    }
}

/// The objects of arrays the unarchiver returned are found again in those arrays: typed or
/// not, kept by the caller or dropped, met again through another array, one at a time, or
/// after a decoding that failed and was caught; every object lives while the unarchiver or the
/// caller holds it, and not after.
extension RoundTripTests {
    @Test func arraysOfObjectsAreHeldWhole() throws {
        let alive = AliveCount()
        let registry = ArchiveClassRegistry()
        try registry.register(Leaf.archiveClass(counting: alive), for: Leaf.self)
        try registry.register(ArchiveClass(
            name: "Basket",
            encode: { object, archiver in
                let basket = object as! Basket
                try archiver.encodeObjects(basket.leaves, forKey: "leaves")
                try archiver.encodeObjects(basket.others, forKey: "others")
                try archiver.encodeObject(basket.favourite, forKey: "favourite")
                try archiver.encodeObjects(basket.inner, forKey: "inner")
            },
            make: { _ in Basket() },
            decode: { object, u in
                let basket = object as! Basket
                // A decoding that fails half way (the first object is not a Basket), caught.
                #expect(throws: ArchiveError.self) { _ = try u.decodeObjects(forKey: "leaves", as: Basket.self) }
                basket.leaves = try u.decodeObjects(forKey: "leaves", as: Leaf.self)
                basket.inner = try u.decodeObjects(forKey: "inner", as: Basket.self)
                basket.others = try u.decodeObjects(forKey: "others")  // untyped, kept as it is
                basket.favourite = try u.decodeObject(forKey: "favourite") as? Leaf
            }), for: Basket.self)

        let leaves = (0 ..< 5).map { Leaf(Int64($0), nil) }
        let inner = Basket()
        inner.leaves = [leaves[3], leaves[4]]
        inner.others = [leaves[0]]
        inner.favourite = leaves[1]
        let root = Basket()
        root.leaves = [leaves[0], leaves[1], leaves[2]]
        root.inner = [inner, inner]
        root.others = [leaves[4], inner, leaves[2]]
        root.favourite = leaves[3]
        let archiver = KeyedArchiver(registry: registry)
        try archiver.encodeObject(root, forKey: "root")
        let bytes = try archiver.finishEncoding()

        var u: KeyedUnarchiver? = try KeyedUnarchiver(bytes: bytes, registry: registry)
        var back = try #require(try u!.decodeObject(forKey: "root") as? Basket)
        #expect(alive.now == 5, "each leaf made once")
        #expect(back.leaves.map(\.value) == [0, 1, 2])
        let innerBack = try #require(back.inner.first)
        #expect(back.inner.count == 2 && back.inner[1] === innerBack, "an object twice in one array")
        #expect(innerBack.leaves.map(\.value) == [3, 4])
        #expect(innerBack.others.first === back.leaves[0], "through another array, untyped")
        #expect(innerBack.favourite === back.leaves[1], "one at a time, after its array was held")
        #expect(back.favourite === innerBack.leaves[0], "one at a time, from a nested array")
        #expect(back.others.count == 3 && back.others[0] === innerBack.leaves[1] && back.others[1] === innerBack
                    && back.others[2] === back.leaves[2], "an untyped array of objects from other arrays")

        // The caller drops what it got; the unarchiver still finds the same objects.
        let first = ObjectIdentifier(back.leaves[0])
        back = Basket()
        #expect(alive.now == 5, "the unarchiver holds the objects")
        let again = try #require(try u!.decodeObject(forKey: "root") as? Basket)
        #expect(ObjectIdentifier(again.leaves[0]) == first, "the same objects, found in the arrays held")
        u = nil
        #expect(alive.now == 5, "the caller holds them now")
        #expect(again.leaves.count == 3)
    }

    @Test func arraysOfObjectsAreReleasedWithTheUnarchiver() throws {
        let alive = AliveCount()
        let registry = ArchiveClassRegistry()
        try registry.register(Leaf.archiveClass(counting: alive), for: Leaf.self)
        let archiver = KeyedArchiver(registry: registry)
        let leaves = (0 ..< 100).map { Leaf(Int64($0), nil) }
        try archiver.encodeObjects(leaves, forKey: "leaves")
        try archiver.encodeObject(leaves[7], forKey: "one")
        let bytes = try archiver.finishEncoding()
        do {
            let u = try KeyedUnarchiver(bytes: bytes, registry: registry)
            let typed = try u.decodeObjects(forKey: "leaves", as: Leaf.self)
            let untyped = try u.decodeObjects(forKey: "leaves")
            #expect(typed.count == 100 && zip(typed, untyped).allSatisfy { $0 === $1 })
            #expect(try u.decodeObject(forKey: "one") === typed[7])
            expectCode(.typeMismatch, "an array of leaves as baskets") { _ = try u.decodeObjects(forKey: "leaves", as: Basket.self) }
            #expect(alive.now == 100)
        }
        #expect(alive.now == 0, "released with the unarchiver and the arrays it returned")
    }
}

extension Leaf {
    /// The coding class of `Leaf`, whose decoded objects are counted in `alive`.
    static func archiveClass(counting alive: AliveCount) -> ArchiveClass {
        ArchiveClass(
            name: "Leaf",
            encode: { object, archiver in archiver.encode((object as! Leaf).value, forKey: "value") },
            make: { u in Leaf(try u.decodeInt64(forKey: "value"), alive) })
    }
}

/// A container of `Leaf` objects for `arraysOfObjectsAreHeldWhole`.
final class Basket {
    var leaves: [Leaf] = []
    var others: [AnyObject] = []
    var favourite: Leaf?
    var inner: [Basket] = []
}

/// A registered class with a registered subclass (`Circle`) and one that is not (`Square`), for
/// `objectsOfAnArrayFindTheirClassesAtTheirTurn`.
class Shape {
    let name: String
    var parts: [Shape]
    init(_ name: String, parts: [Shape] = []) {
        self.name = name
        self.parts = parts
    }
}

final class Circle: Shape {
    let radius: Double
    init(_ name: String, radius: Double) {
        self.radius = radius
        super.init(name)
    }
}

final class Square: Shape {}

final class Lenient {
    let shapes: [Shape]
    init(_ shapes: [Shape]) { self.shapes = shapes }
}

/// An object of `objectsMadeForTheCallStayDistinct` that makes its leaves when encoded.
final class Maker {
    let base: Int64
    var leaves: [Leaf] = []
    var mixed: [AnyObject] = []
    var again: [AnyObject] = []
    init(_ base: Int64) { self.base = base }
}

/// How many `Leaf` and `Tag` objects made with it are alive.
final class AliveCount: Sendable {
    let value = Atomic<Int>(0)
    var now: Int { value.load(ordering: .relaxed) }
}

/// An object made for one call of `encodeObjects`, counted while alive (when given a count).
final class Leaf {
    let value: Int64
    let alive: AliveCount?
    init(_ value: Int64, _ alive: AliveCount?) {
        self.value = value
        self.alive = alive
        alive?.value.add(1, ordering: .relaxed)
    }
    deinit { alive?.value.subtract(1, ordering: .relaxed) }
}

/// Another class for `objectsMadeForTheCallStayDistinct`, counted like `Leaf`.
final class Tag {
    let alive: AliveCount?
    init(_ alive: AliveCount?) {
        self.alive = alive
        alive?.value.add(1, ordering: .relaxed)
    }
    deinit { alive?.value.subtract(1, ordering: .relaxed) }
}

/// A small deterministic random number generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
