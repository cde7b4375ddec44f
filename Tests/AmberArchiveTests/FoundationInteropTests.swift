import Foundation
import Testing
@testable import AmberArchive

// MARK: - Foundation's side

/// A Foundation object graph node, coded with the same keys as `GraphNode`, so that one coding
/// class reads both.
final class FNode: NSObject, NSCoding {
    var name: String
    var children: [FNode] = []
    var parent: FNode?
    var friend: FNode?

    init(_ name: String) { self.name = name }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(children as NSArray, forKey: "children")
        coder.encode(parent, forKey: "parent")
        coder.encode(friend, forKey: "friend")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        children = coder.decodeObject(forKey: "children") as? [FNode] ?? []
        parent = coder.decodeObject(forKey: "parent") as? FNode
        friend = coder.decodeObject(forKey: "friend") as? FNode
    }
}

/// Decodes with Foundation's unarchiver the safe way: errors are returned, never fatal.
func foundationUnarchiver(_ bytes: [UInt8]) throws -> NSKeyedUnarchiver {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
    unarchiver.requiresSecureCoding = false
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    return unarchiver
}

/// A value Foundation decoded, as the archive value it stands for.
func archiveValue(fromFoundation any: Any?) -> ArchiveValue? {
    guard let any else { return .null }
    switch any {
    case is NSNull: return .null
    case let b as Bool where type(of: any) == Bool.self: return .bool(b)
    case let s as String: return .string(s)
    case let d as Data: return .data(Array(d))
    case let d as Date: return .date(d.timeIntervalSinceReferenceDate)
    case let u as UUID: return .uuid(withUnsafeBytes(of: u.uuid) { Array($0) })
    case let u as NSUUID:
        var bytes = [UInt8](repeating: 0, count: 16)
        u.getBytes(&bytes)
        return .uuid(bytes)
    case let p as IndexPath: return .indexPath(Array(p))
    case let p as NSIndexPath: return .indexPath((0 ..< p.length).map { p.index(atPosition: $0) })
    case let n as NSNumber:
        switch String(cString: n.objCType) {
        // Booleans are "c" (this code never exchanges Int8 values).
        case "c", "B": return .bool(n.boolValue)
        case "f", "d": return .double(n.doubleValue)
        case "Q", "L", "I": return n.uint64Value > UInt64(Int64.max) ? .uint(n.uint64Value) : .int(n.int64Value)
        default: return .int(n.int64Value)
        }
    case let i as IndexSet: return .indexSet(Array(i.rangeView))
    case let i as NSIndexSet:
        var ranges: [Range<Int>] = []
        i.enumerateRanges(options: []) { r, _ in ranges.append(r.location ..< r.location + r.length) }
        return .indexSet(ranges)
    case let a as [Any]: return arrayValue(a)
    case let a as NSArray: return arrayValue(a.map { $0 })
    case let s as NSCountedSet:
        var items: [(value: ArchiveValue, count: Int)] = []
        for object in s {
            guard let value = archiveValue(fromFoundation: object) else { return nil }
            items.append((value, s.count(for: object)))
        }
        return .countedSet(items)
    case let s as NSSet:
        let items = s.allObjects.map(archiveValue(fromFoundation:))
        return items.contains { $0 == nil } ? nil : .set(items.map { $0! })
    case let d as NSDictionary:
        var pairs: [ArchiveValuePair] = []
        for (k, v) in d {
            guard let key = archiveValue(fromFoundation: k), let value = archiveValue(fromFoundation: v) else { return nil }
            pairs.append(ArchiveValuePair(key, value))
        }
        return .dictionary(pairs)
    default: return nil
    }
}

private func arrayValue(_ items: [Any]) -> ArchiveValue? {
    let values = items.map(archiveValue(fromFoundation:))
    return values.contains { $0 == nil } ? nil : .array(values.map { $0! })
}

/// A property list Foundation read, as Amber's value.
func propertyList(fromFoundation any: Any) -> PropertyList? {
    switch any {
    case let b as Bool where type(of: any) == Bool.self: return .bool(b)
    case let s as String: return .string(s)
    case let d as Data: return .data(Array(d))
    case let d as Date: return .date(d.timeIntervalSinceReferenceDate)
    case let n as NSNumber:
        switch String(cString: n.objCType) {
        case "c", "B": return .bool(n.boolValue)
        case "f": return .float(n.floatValue)
        case "d": return .double(n.doubleValue)
        case "Q", "L", "I": return n.uint64Value > UInt64(Int64.max) ? .uint(n.uint64Value) : .int(n.int64Value)
        default: return .int(n.int64Value)
        }
    case let a as [Any]:
        let items = a.map(propertyList(fromFoundation:))
        return items.contains { $0 == nil } ? nil : .array(items.map { $0! })
    case let d as [String: Any]:
        var pairs: [PropertyListPair] = []
        for (k, v) in d {
            guard let value = propertyList(fromFoundation: v) else { return nil }
            pairs.append(PropertyListPair(.string(k), value))
        }
        return .dictionary(pairs)
    default: return nil
    }
}

/// Dictionaries and sets put in one order (by canonical text), for values whose writer does not
/// keep order (Foundation's dictionaries and sets).
func unordered(_ v: ArchiveValue) -> ArchiveValue {
    switch v {
    case .array(let a): return .array(a.map(unordered))
    case .set(let a): return .set(a.map(unordered).sorted { canonical($0) < canonical($1) })
    case .countedSet(let items):
        return .countedSet(items.map { (value: unordered($0.value), count: $0.count) }.sorted { canonical($0.value) < canonical($1.value) })
    case .dictionary(let pairs):
        return .dictionary(pairs.map { ArchiveValuePair(unordered($0.key), unordered($0.value)) }.sorted { canonical($0.key) < canonical($1.key) })
    default: return v
    }
}

func unordered(_ p: PropertyList) -> PropertyList {
    switch p {
    case .array(let a): return .array(a.map(unordered))
    case .set(let a): return .set(a.map(unordered).sorted { canonical($0) < canonical($1) })
    case .dictionary(let pairs):
        return .dictionary(pairs.map { PropertyListPair(unordered($0.key), unordered($0.value)) }.sorted { canonical($0.key) < canonical($1.key) })
    default: return p
    }
}

// MARK: - The suite

@Suite struct FoundationInteropTests {
    /// The values both directions exchange, by key. NSKeyedArchiver stores equal objects once
    /// (NSNumber(true) equals 1 and 1.0), so the numbers here are all different.
    static let values: [(String, ArchiveValue)] = [
        ("string", .string("héllo 🎉")), ("empty", .string("")), ("long", .string(String(repeating: "ü", count: 300))),
        ("number", .int(42)), ("negative", .int(-5_000_000_000)), ("double", .double(2.5)), ("true", .bool(true)),
        ("false", .bool(false)), ("data", .data([0, 1, 255])), ("emptyData", .data([])), ("date", .date(100.5)),
        ("oldDate", .date(-978_307_200)),
        ("array", .array([.string("x"), .int(43), .double(7.25)])),
        ("nestedArray", .array([.array([.string("deep"), .array([])]), .dictionary(["k": .string("v")])])),
        ("dictionary", .dictionary(["k": .string("v"), "n": .int(3), "list": .array([.string("y")])])),
        ("set", .set([.string("a"), .string("b"), .int(9)])),
        ("null", .null),
        ("uuid", .uuid([0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F])),
        ("path0", .indexPath([])), ("path1", .indexPath([7])), ("path2", .indexPath([3, 300])),
        ("path4", .indexPath([1, 300, 70000, 2])),
        ("indexSet", .indexSet([0 ..< 3, 10 ..< 11, 300 ..< 70000])), ("oneRange", .indexSet([5 ..< 9])),
        ("noRanges", .indexSet([])),
        ("countedSet", .countedSet([(.string("p"), 3), (.string("q"), 1)])),
        ("$dollar", .string("a key beginning with $")),
    ]

    /// A Foundation object standing for an archive value.
    static func foundationObject(_ v: ArchiveValue) -> Any? {
        switch v {
        case .null: return NSNull()
        case .bool(let b): return NSNumber(value: b)
        case .int(let i): return NSNumber(value: i)
        case .uint(let u): return NSNumber(value: u)
        case .double(let d): return NSNumber(value: d)
        case .string(let s): return NSString(string: s)
        case .data(let d): return NSData(data: Data(d))
        case .date(let t): return NSDate(timeIntervalSinceReferenceDate: t)
        case .uuid(let b): return NSUUID(uuidBytes: b)
        case .indexPath(let p): return p.isEmpty ? NSIndexPath() : NSIndexPath(indexes: p, length: p.count)
        case .indexSet(let ranges):
            let set = NSMutableIndexSet()
            for r in ranges { set.add(in: NSRange(location: r.lowerBound, length: r.count)) }
            return set.copy()
        case .array(let a): return NSArray(array: a.map { foundationObject($0)! })
        case .set(let a): return NSSet(array: a.map { foundationObject($0)! })
        case .countedSet(let items):
            let set = NSCountedSet()
            for item in items { for _ in 0 ..< item.count { set.add(foundationObject(item.value)!) } }
            return set
        case .dictionary(let pairs):
            let d = NSMutableDictionary()
            for pair in pairs { d[foundationObject(pair.key) as! NSObject] = foundationObject(pair.value)! }
            return d.copy()
        }
    }

    // R26: Amber reads what Foundation's NSKeyedArchiver writes: every standard class, inline
    // scalars, and a key beginning with "$".
    @Test func amberReadsFoundationKeyedArchives() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        for (key, value) in Self.values { archiver.encode(Self.foundationObject(value), forKey: key) }
        archiver.encode(NSMutableString(string: "mutable"), forKey: "mutableString")
        archiver.encode(NSMutableData(data: Data([9, 8, 7])), forKey: "mutableData")
        archiver.encode(NSMutableArray(array: ["m"]), forKey: "mutableArray")
        archiver.encode(nil as Any?, forKey: "nil")
        archiver.encode(true, forKey: "inlineBool")
        archiver.encode(Int64.min, forKey: "inlineInt")
        archiver.encode(-0.25, forKey: "inlineDouble")
        archiver.encode(Int32(-7), forKey: "inlineInt32")
        archiver.encodeBytes([5, 6, 7], length: 3, forKey: "inlineBytes")
        archiver.finishEncoding()
        let bytes = Array(archiver.encodedData)

        let u = try KeyedUnarchiver(bytes: bytes)
        for (key, value) in Self.values {
            let got = try u.decodeValue(forKey: key)
            #expect(unordered(got) == unordered(value), "\(key): \(got)")
        }
        #expect(try u.decodeString(forKey: "string") == "héllo 🎉")
        #expect(try u.decodeString(forKey: "$dollar") == "a key beginning with $")
        #expect(try u.decodeBytes(forKey: "data") == [0, 1, 255])
        #expect(try u.decodeDate(forKey: "date") == 100.5)
        #expect(try u.decodeUUID(forKey: "uuid") == [0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F])
        for (key, path) in [("path0", [Int]()), ("path1", [7]), ("path2", [3, 300]), ("path4", [1, 300, 70000, 2])] {
            #expect(try u.decodeIndexPath(forKey: key) == path)
        }
        #expect(try u.decodeString(forKey: "mutableString") == "mutable")
        #expect(try u.decodeBytes(forKey: "mutableData") == [9, 8, 7])
        #expect(try u.decodeValue(forKey: "mutableArray") == .array([.string("m")]))
        #expect(try u.decodeValue(forKey: "nil") == .null)
        #expect(try u.decodeBool(forKey: "inlineBool") == true)
        #expect(try u.decodeInt64(forKey: "inlineInt") == .min)
        #expect(try u.decodeDouble(forKey: "inlineDouble") == -0.25)
        #expect(try u.decodeInt64(forKey: "inlineInt32") == -7)
        #expect(try u.decodeBytes(forKey: "inlineBytes") == [5, 6, 7])
        #expect(u.allKeys().contains("$dollar"))
    }

    // R26: an NSIndexPath of several indexes, which Foundation's NSKeyedArchiver writes in its
    // packed form (NSIndexPathLength, and NSIndexPathData: a data object of the indexes in
    // groups of seven bits, low group first, the high bit on all but an index's last byte),
    // reads back to its indexes, at every width up to Int.max; the data Foundation wrote is
    // byte for byte what Amber writes, and Foundation reads what Amber writes.
    @Test func foundationIndexPathsOfSeveralIndexes() throws {
        let paths: [[Int]] = [
            [0, 0], [1, 127, 128, 255, 16383, 16384], [70000, 1 << 31, 1 << 40, 1 << 56, Int.max],
            (0 ..< 300).map { $0 * 997 },
        ]
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        for (i, p) in paths.enumerated() { archiver.encode(NSIndexPath(indexes: p, length: p.count), forKey: "p\(i)") }
        archiver.finishEncoding()
        let bytes = Array(archiver.encodedData)

        let u = try KeyedUnarchiver(bytes: bytes)
        let archive = try KeyedArchive(bytes: bytes)
        let roots = Dictionary(uniqueKeysWithValues: try archive.topEntries().map { ($0.key, $0.uid) })
        for (i, p) in paths.enumerated() {
            #expect(try u.decodeIndexPath(forKey: "p\(i)") == p)
            #expect(try u.decodeValue(forKey: "p\(i)") == .indexPath(p))
            // Foundation's fields: the length, and a UID of the packed data.
            guard case .instance("NSIndexPath", _, let fields) = try archive.object(try #require(roots["p\(i)"])) else {
                Issue.record("p\(i) is not an NSIndexPath instance")
                continue
            }
            #expect(fields.first { $0.key == "NSIndexPathLength" }?.value == .int(Int64(p.count)))
            guard case .uid(let dataUID)? = fields.first(where: { $0.key == "NSIndexPathData" })?.value else {
                Issue.record("p\(i) has no NSIndexPathData reference: \(fields)")
                continue
            }
            #expect(try archive.object(Int(dataUID)) == .value(.data(packed(p.map { UInt64($0) }))))
        }

        let amber = KeyedArchiver()
        for (i, p) in paths.enumerated() { amber.encode(indexPath: p, forKey: "p\(i)") }
        let f = try foundationUnarchiver(try amber.finishEncoding())
        for (i, p) in paths.enumerated() {
            let path = f.decodeObject(forKey: "p\(i)") as? NSIndexPath
            #expect(path.map { q in (0 ..< q.length).map { q.index(atPosition: $0) } } == p, "p\(i)")
        }
        #expect(f.error == nil, "\(String(describing: f.error))")
    }

    // R25, R26: Amber reads a Foundation graph of NSCoding objects, shared references included,
    // into its own class registered under Foundation's archived class name.
    @Test func amberReadsFoundationObjectGraphs() throws {
        let root = FNode("root"), a = FNode("a"), b = FNode("b"), c = FNode("c"), d = FNode("d")
        root.children = [a, b, d]
        a.children = [c]
        b.children = [c]
        d.friend = c
        a.parent = root  // a cycle: Foundation writes it, Amber reads it
        c.friend = a
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(root, forKey: "graph")
        archiver.finishEncoding()
        let bytes = Array(archiver.encodedData)
        let className = NSStringFromClass(FNode.self)
        #expect(className == "AmberArchiveTests.FNode")

        let registry = ArchiveClassRegistry()
        try registry.register(graphNodeClass(className))
        let u = try KeyedUnarchiver(bytes: bytes, registry: registry)
        let back = try #require(try u.decodeObject(forKey: "graph", ofClasses: [className]) as? GraphNode)
        #expect(back.name == "root")
        #expect(back.children.map(\.name) == ["a", "b", "d"])
        let (ba, bb, bd) = (back.children[0], back.children[1], back.children[2])
        #expect(ba.children[0] === bb.children[0], "the diamond's bottom is one object")
        #expect(bd.friend === ba.children[0])
        #expect(ba.parent === back)
        #expect(ba.children[0].friend === ba)
        #expect(back.parent == nil && bb.parent == nil)
        // Without the class registered, or not allowed, it is refused.
        expectCode(.classNotAllowed, "an unregistered Foundation class") {
            _ = try KeyedUnarchiver(bytes: bytes, registry: ArchiveClassRegistry()).decodeObject(forKey: "graph")
        }
        expectCode(.classNotAllowed, "a Foundation class not allowed") {
            _ = try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObject(forKey: "graph", ofClasses: ["Other"])
        }
        for n in [back, ba, bb, bd] { n.children = []; n.parent = nil; n.friend = nil }
        a.parent = nil
        c.friend = nil
    }

    // R26: Foundation's NSKeyedUnarchiver reads what Amber writes: the same values.
    @Test func foundationReadsAmberKeyedArchives() throws {
        let archiver = KeyedArchiver()
        for (key, value) in Self.values { archiver.encode(value, forKey: key) }
        archiver.encodeNull(forKey: "nil")
        archiver.encode(true, forKey: "inlineBool")
        archiver.encode(Int64.min, forKey: "inlineInt")
        archiver.encode(-0.25, forKey: "inlineDouble")
        archiver.encode(bytes: [5, 6, 7], forKey: "bytes")
        let bytes = try archiver.finishEncoding()

        let u = try foundationUnarchiver(bytes)
        for (key, value) in Self.values {
            // Numbers are stored inline, as Foundation's own encode(_:forKey:) of a number does,
            // and are read with the typed decoders; everything else is an object.
            switch value {
            case .bool(let b): #expect(u.decodeBool(forKey: key) == b, "\(key)")
            case .int(let i): #expect(u.decodeInt64(forKey: key) == i, "\(key)")
            case .double(let d): #expect(u.decodeDouble(forKey: key) == d, "\(key)")
            default:
                let object = u.decodeObject(forKey: key)
                let got = archiveValue(fromFoundation: object)
                #expect(got.map(unordered) == unordered(value), "\(key): Foundation read \(String(describing: object))")
            }
            #expect(u.error == nil, "\(key): \(String(describing: u.error))")
        }
        #expect(u.decodeObject(forKey: "nil") == nil)
        #expect(u.decodeBool(forKey: "inlineBool") == true)
        #expect(u.decodeInt64(forKey: "inlineInt") == .min)
        #expect(u.decodeDouble(forKey: "inlineDouble") == -0.25)
        #expect((u.decodeObject(forKey: "bytes") as? Data).map(Array.init) == [5, 6, 7])
        #expect(u.containsValue(forKey: "$dollar"))
        u.finishDecoding()
        #expect(u.error == nil, "\(String(describing: u.error))")
    }

    // R25, R26: Foundation reads an Amber graph of objects whose class it maps to its own NSCoding
    // class (shared references; no cycles: corelibs' decoder recurses on them without end).
    @Test func foundationReadsAmberObjectGraphs() throws {
        let root = GraphNode("root"), a = GraphNode("a"), b = GraphNode("b"), c = GraphNode("c"), d = GraphNode("d")
        root.children = [a, b, d]
        a.children = [c]
        b.children = [c]
        d.friend = c
        let registry = ArchiveClassRegistry()
        try registry.register(graphNodeClass("AmberNode"), for: GraphNode.self)
        let bytes = try archiveGraph(root, registry: registry)

        let u = try foundationUnarchiver(bytes)
        u.setClass(FNode.self, forClassName: "AmberNode")
        let back = try #require(u.decodeObject(forKey: "root") as? FNode)
        u.finishDecoding()
        #expect(u.error == nil, "\(String(describing: u.error))")
        #expect(back.name == "root")
        #expect(back.children.map(\.name) == ["a", "b", "d"])
        guard back.children.count == 3 else { return }
        let (fa, fb, fd) = (back.children[0], back.children[1], back.children[2])
        #expect(fa.children.count == 1 && fb.children.count == 1)
        #expect(fa.children.first === fb.children.first, "the diamond's bottom is one object")
        #expect(fd.friend === fa.children.first)
        #expect(fa.children.first?.name == "c")
        #expect(back.parent == nil && back.friend == nil)
    }

    /// A property list both writers exchange (no sets: property lists have none; no 1 and 1.0
    /// together: CF stores equal numbers once).
    static let plist: PropertyList = .dictionary([
        "ints": .array([0, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, .max, -1, .min].map { .int($0) }),
        "big": .uint(.max),
        "double": .double(2.5), "negative": .double(-1e300), "float": .float(1.5),
        "true": .bool(true), "false": .bool(false),
        "string": .string("Homepwner"), "unicode": .string("héllo 🎉 日本"), "long": .string(String(repeating: "z", count: 300)),
        "data": .data(Array(0 ... 255)), "emptyData": .data([]),
        "date": .date(100.5), "oldDate": .date(-978_307_200),
        "nested": .array([.array([]), .dictionary(["inner": .array([.string("deep")])]), .dictionary([:])]),
    ])

    // R26: Amber reads what PropertyListSerialization writes in binary, to the same values.
    @Test func amberReadsFoundationPlists() throws {
        let foundation: [String: Any] = [
            "ints": [0, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, Int64.max, -1, Int64.min].map { NSNumber(value: $0) },
            "big": NSNumber(value: UInt64.max),
            "double": NSNumber(value: 2.5), "negative": NSNumber(value: -1e300), "float": NSNumber(value: Float(1.5)),
            "true": true, "false": false,
            "string": "Homepwner", "unicode": "héllo 🎉 日本", "long": String(repeating: "z", count: 300),
            "data": Data(0 ... 255), "emptyData": Data(),
            "date": Date(timeIntervalSinceReferenceDate: 100.5), "oldDate": Date(timeIntervalSinceReferenceDate: -978_307_200),
            "nested": [[Any](), ["inner": ["deep"]], [String: Any]()] as [Any],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: foundation, format: .binary, options: 0)
        let value = try BinaryPropertyList.decode(Array(data))
        #expect(unordered(value) == unordered(Self.plist))
        if case .dictionary(let got) = unordered(value), case .dictionary(let want) = unordered(Self.plist) {
            for (g, w) in zip(got, want) where g != w { Issue.record("\(g.key): read \(g.value), expected \(w.value)") }
        }
    }

    // R26: PropertyListSerialization reads what Amber writes, to the same values.
    @Test func foundationReadsAmberPlists() throws {
        let bytes = BinaryPropertyList.encode(Self.plist)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        #expect(format == .binary)
        let value = try #require(propertyList(fromFoundation: read), "\(read)")
        #expect(unordered(value) == unordered(Self.plist))
        if case .dictionary(let got) = unordered(value), case .dictionary(let want) = unordered(Self.plist) {
            for (g, w) in zip(got, want) where g != w { Issue.record("\(g.key): read \(g.value), expected \(w.value)") }
        }
        // Amber's smallest widths (3-byte references and offsets) are read by Foundation too.
        let big = PropertyList.array((0 ..< 70000).map { .string("s\($0)") })
        let bigBytes = BinaryPropertyList.encode(big)
        #expect(trailer(bigBytes).refSize == 3 && trailer(bigBytes).offsetSize == 3)
        let bigRead = try PropertyListSerialization.propertyList(from: Data(bigBytes), options: [], format: nil) as? [String]
        #expect(bigRead?.count == 70000)
        #expect(bigRead?.last == "s69999")
        #expect(bigRead?.first == "s0")
    }
}
