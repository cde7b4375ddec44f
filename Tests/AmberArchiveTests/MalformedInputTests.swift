import Foundation
import Testing
@testable import AmberArchive

// MARK: - A binary property list built byte by byte

/// Builds binary property lists byte by byte, for inputs Amber's writer never produces: odd
/// widths, lying counts, bad offsets, cycles. Objects are given as their encoded bytes; the
/// builder lays them out after the header, writes the offset table and the trailer, and lets a
/// test override any trailer field.
struct RawPlist {
    var objects: [[UInt8]] = []
    var refSize = 1
    var top = 0

    @discardableResult
    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    static func be(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0 ..< width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - $0))) }
    }

    /// A marker with a count: in the low nibble below 15, else nibble 15 and an integer.
    static func header(_ marker: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [marker | UInt8(count)] }
        return [marker | 0x0F] + int(Int64(count))
    }

    static func int(_ v: Int64) -> [UInt8] {
        if v < 0 || v > 0xFFFF_FFFF { return [0x13] + be(UInt64(bitPattern: v), 8) }
        if v > 0xFFFF { return [0x12] + be(UInt64(v), 4) }
        if v > 0xFF { return [0x11] + be(UInt64(v), 2) }
        return [0x10, UInt8(v)]
    }

    static func ascii(_ s: String) -> [UInt8] { header(0x50, count: s.utf8.count) + Array(s.utf8) }
    static func utf16(_ s: String) -> [UInt8] {
        header(0x60, count: s.utf16.count) + s.utf16.flatMap { be(UInt64($0), 2) }
    }
    static func uid(_ v: UInt64, width: Int) -> [UInt8] { [0x80 | UInt8(width - 1)] + be(v, width) }
    static func double(_ d: Double) -> [UInt8] { [0x23] + be(d.bitPattern, 8) }

    func refs(_ rs: [Int]) -> [UInt8] { rs.flatMap { RawPlist.be(UInt64($0), refSize) } }
    func array(_ rs: [Int]) -> [UInt8] { RawPlist.header(0xA0, count: rs.count) + refs(rs) }
    func set(_ rs: [Int]) -> [UInt8] { RawPlist.header(0xC0, count: rs.count) + refs(rs) }
    func dict(_ keys: [Int], _ values: [Int]) -> [UInt8] {
        RawPlist.header(0xD0, count: keys.count) + refs(keys) + refs(values)
    }

    /// The file. Every trailer field may be overridden; `offsets` replaces the computed offsets.
    func bytes(
        offsetSize: Int? = nil, trailerOffsetSize: Int? = nil, trailerRefSize: Int? = nil,
        count: UInt64? = nil, top: UInt64? = nil, tableOffset: UInt64? = nil, offsets: [UInt64]? = nil
    ) -> [UInt8] {
        var out: [UInt8] = Array("bplist00".utf8)
        var computed: [UInt64] = []
        for object in objects {
            computed.append(UInt64(out.count))
            out += object
        }
        let table = out.count
        let width = offsetSize ?? ObjectTable.byteWidth(UInt64(table))
        for offset in offsets ?? computed { out += RawPlist.be(offset, width) }
        out += [0, 0, 0, 0, 0, 0, UInt8(trailerOffsetSize ?? width), UInt8(trailerRefSize ?? refSize)]
        out += RawPlist.be(count ?? UInt64(objects.count), 8)
        out += RawPlist.be(top ?? UInt64(self.top), 8)
        out += RawPlist.be(tableOffset ?? UInt64(table), 8)
        return out
    }
}

// MARK: - Expecting a rejection

/// Runs `body`, which must throw an `ArchiveError` with `code` and a message. How long a
/// rejection takes is a figure, not a check: `swift run -c release amber-bench-archive --hostile`
/// prints it (the slowest of every truncation and bit flip of an archive).
func expectRejected(
    _ code: ArchiveError.Code, _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("\(what()): was accepted; expected .\(code)", sourceLocation: sourceLocation)
    } catch let error as ArchiveError {
        #expect(error.code == code, "\(what()): \(error.code): \(error.message)", sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, "\(what()): the error has no message", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(what()): threw \(error), not an ArchiveError", sourceLocation: sourceLocation)
    }
}

/// The largest resident set the process has had, in KiB.
func peakResidentKiB() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage.ru_maxrss
}

/// A keyed archive's top-level property list, from parts, for breaking one part at a time.
func keyedPlist(
    archiver: PropertyList? = .string("NSKeyedArchiver"), version: PropertyList? = .int(100000),
    top: PropertyList? = .dictionary(["root": .uid(1)]), objects: PropertyList? = .array([.string("$null"), .string("x")])
) -> [UInt8] {
    var pairs: [PropertyListPair] = []
    if let archiver { pairs.append(PropertyListPair(.string("$archiver"), archiver)) }
    if let version { pairs.append(PropertyListPair(.string("$version"), version)) }
    if let top { pairs.append(PropertyListPair(.string("$top"), top)) }
    if let objects { pairs.append(PropertyListPair(.string("$objects"), objects)) }
    return BinaryPropertyList.encode(.dictionary(pairs))
}

/// A class description dictionary.
func classDescription(_ name: String, _ classes: [String]? = nil) -> PropertyList {
    .dictionary([
        "$classname": .string(name),
        "$classes": .array((classes ?? [name, "NSObject"]).map { .string($0) }),
    ])
}

// MARK: - The suite

@Suite struct MalformedInputTests {
    /// A plain property list of a few hundred bytes with every kind of object.
    static let plainSample: [UInt8] = BinaryPropertyList.encode(.dictionary([
        "name": .string("Homepwner"), "count": .int(300), "neg": .int(-7), "big": .uint(UInt64.max),
        "pi": .double(3.14159), "f": .float(1.5), "when": .date(700_000_000.5), "blob": .data([0, 1, 2, 3, 254, 255]),
        "uni": .string("héllo wörld ✓"), "ref": .uid(70000), "flags": .array([.bool(true), .bool(false)]),
        "set": .set([.int(1), .string("two")]),
        "nested": .dictionary(["list": .array([.int(1), .int(2), .array([.string("deep"), .dictionary([:])])])]),
        "long": .string(String(repeating: "abcdefgh", count: 6)),
    ]))

    /// A keyed archive of a few hundred bytes with values of Foundation's classes.
    static let keyedSample: [UInt8] = try! KeyedArchiver.archive(.dictionary([
        "title": .string("Items"), "n": .int(42), "ok": .bool(true), "when": .date(100.25),
        "path": .indexPath([0, 3, 70000]), "id": .uuid(Array(0 ..< 16)), "bytes": .data([9, 8, 7]),
        "list": .array([.string("a"), .double(2.5), .null, .set([.int(1)])]),
        "uni": .string("zwölf 🎉"),
    ]))

    /// A registry with the class `Thing` (a name and a next object).
    static func thingRegistry() throws -> ArchiveClassRegistry {
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "Thing",
            encode: { object, archiver in
                let thing = object as! Thing
                archiver.encode(thing.name, forKey: "name")
                try archiver.encodeObject(thing.next, forKey: "next")
            },
            make: { _ in Thing() },
            decode: { object, unarchiver in
                guard let thing = object as? Thing else { return }
                thing.name = try unarchiver.decodeString(forKey: "name")
                thing.next = try unarchiver.decodeObject(forKey: "next", ofClasses: ["Thing"]) as? Thing
            }), for: Thing.self)
        return registry
    }

    /// A keyed archive of a ring of five `Thing`s (a cycle), of a few hundred bytes.
    static func graphSample(_ registry: ArchiveClassRegistry) throws -> [UInt8] {
        let things = (0 ..< 5).map { i in Thing(name: "thing \(i)") }
        for i in 0 ..< 5 { things[i].next = things[(i + 1) % 5] }
        let archiver = KeyedArchiver(registry: registry)
        try archiver.encodeObject(things[0], forKey: "root")
        defer { for t in things { t.next = nil } }
        return try archiver.finishEncoding()
    }

    // R22: the samples are valid to begin with, and the right size for the exhaustive loops.
    @Test func samplesAreValid() throws {
        #expect((200 ... 1000).contains(Self.plainSample.count))
        #expect((200 ... 1500).contains(Self.keyedSample.count))
        _ = try BinaryPropertyList.decode(Self.plainSample)
        _ = try KeyedUnarchiver.unarchiveValue(Self.keyedSample)
        let registry = try Self.thingRegistry()
        let graph = try Self.graphSample(registry)
        #expect((200 ... 1000).contains(graph.count))
        let root = try #require(try KeyedUnarchiver(bytes: graph, registry: registry).decodeObject(forKey: "root") as? Thing)
        #expect(root.next?.next?.next?.next?.next === root)
    }

    // R22: every prefix of a valid file is rejected as corrupt, quickly.
    @Test func everyTruncationIsRejected() {
        for (name, sample) in [("plain", Self.plainSample), ("keyed", Self.keyedSample)] {
            for length in 0 ..< sample.count {
                let prefix = Array(sample[..<length])
                expectRejected(.corrupt, "\(name) prefix of \(length) bytes") {
                    _ = try BinaryPropertyList.decode(prefix)
                }
                expectRejected(.corrupt, "\(name) keyed prefix of \(length) bytes") {
                    _ = try KeyedUnarchiver.unarchiveValue(prefix)
                }
            }
        }
    }

    // R22: every single-bit flip either still decodes or throws an ArchiveError; none traps.
    // Flips in the header and in the trailer's sizes, count and table offset are always
    // rejected; flips in the trailer's six unused bytes are ignored.
    @Test func everyBitFlipIsHandled() throws {
        let registry = try Self.thingRegistry()
        let graph = try Self.graphSample(registry)
        for (name, sample) in [("plain", Self.plainSample), ("keyed", Self.keyedSample), ("graph", graph)] {
            let t = sample.count - 32
            var rejected = 0
            for index in 0 ..< sample.count {
                for bit in 0 ..< 8 {
                    var bytes = sample
                    bytes[index] ^= 1 << UInt8(bit)
                    var error: ArchiveError?
                    do throws(ArchiveError) {
                        if name == "plain" {
                            _ = try BinaryPropertyList.decode(bytes)
                        } else if name == "graph" {
                            // Objects of a coding class, through its callbacks.
                            do {
                                _ = try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObject(forKey: "root")
                            } catch let e as ArchiveError {
                                throw e
                            } catch {
                                Issue.record("graph: flip of bit \(bit) of byte \(index) threw \(error), not an ArchiveError")
                            }
                        } else {
                            // The whole archive: the plist, the layout, and every value.
                            _ = try KeyedUnarchiver.unarchiveValue(bytes)
                        }
                    } catch let e { error = e }
                    if error != nil { rejected += 1 }
                    if index < 8 {
                        #expect(error?.code == .corrupt, "\(name): a flip in the header must be rejected")
                    } else if index >= t && index < t + 6 {
                        #expect(error == nil, "\(name): the trailer's unused byte \(index - t) is ignored")
                    } else if index >= t + 6 && index < t + 16 || index >= t + 24 {
                        // Sizes, object count, table offset (the top reference may move to another object).
                        #expect(error != nil, "\(name): a flip of trailer byte \(index - t) must be rejected")
                        if let code = error?.code {
                            #expect(code == .corrupt || code == .limitExceeded)
                        }
                    }
                }
            }
            #expect(rejected > sample.count, "\(name): only \(rejected) of \(sample.count * 8) flips were rejected")
            print("R22 bit flips (\(name)): \(rejected) of \(sample.count * 8) rejected")
        }
    }

    // R22: a one-object plist whose object has each marker 0x00-0xFF; exactly the markers the
    // format defines are accepted, every other is rejected as corrupt.
    @Test func everyUndefinedMarkerIsRejected() {
        func defined(_ m: UInt8) -> Bool {
            switch m >> 4 {
            case 0x0: return m == 0x08 || m == 0x09
            case 0x1: return m & 0x0F <= 4
            case 0x2: return m == 0x22 || m == 0x23
            case 0x3: return m == 0x33
            case 0x4, 0x5, 0x6, 0xA, 0xC, 0xD: return true
            case 0x8: return m & 0x0F <= 7
            default: return false
            }
        }
        var accepted: [UInt8] = []
        for value in 0 ... 255 {
            let m = UInt8(value)
            // Object 0 is the one tested; object 1 is `false`, for containers to refer to.
            // Its contents are enough bytes for whatever the marker declares: zeros for
            // integers (so 16-byte integers fit in 64 bits), else 0x01 (references to object 1,
            // valid ASCII and UTF-16); for nibble 15, a length of 1 first.
            var payload: [UInt8] = m >> 4 == 0x1 ? Array(repeating: 0, count: 40) : Array(repeating: 1, count: 40)
            if m & 0x0F == 0x0F, [0x4, 0x5, 0x6, 0xA, 0xC, 0xD].contains(m >> 4) { payload = [0x10, 0x01] + payload }
            var raw = RawPlist()
            raw.add([m] + payload)
            raw.add([0x08])
            let bytes = raw.bytes()
            if defined(m) {
                var error: ArchiveError?
                do throws(ArchiveError) { _ = try BinaryPropertyList.decode(bytes) } catch let e { error = e }
                #expect(error == nil, "defined marker 0x\(String(m, radix: 16)) was rejected: \(error?.message ?? "")")
                if error == nil { accepted.append(m) }
            } else {
                expectRejected(.corrupt, "marker 0x\(String(m, radix: 16))") {
                    _ = try BinaryPropertyList.decode(bytes)
                }
            }
        }
        // 2 booleans + 5 integers + 2 reals + 1 date + 6 × 16 counted + 8 UIDs.
        #expect(accepted.count == 2 + 5 + 2 + 1 + 6 * 16 + 8)
    }

    // R22: declared counts far beyond the input are rejected before anything is allocated
    // from them: the error comes at once, and the process's peak memory does not grow.
    @Test func hugeDeclaredCountsAreRejectedWithoutAllocating() {
        let before = peakResidentKiB()
        func one(_ marker: UInt8, lengthInt: [UInt8]) -> [UInt8] {
            var raw = RawPlist()
            raw.add([marker | 0x0F] + lengthInt + Array(repeating: 0, count: 16))
            return raw.bytes()
        }
        let int31 = [0x12] + RawPlist.be(UInt64(Int32.max), 4)  // 2^31-1
        let int62 = [0x13] + RawPlist.be(1 << 62, 8)  // 2^62
        let int31plus = [0x12] + RawPlist.be(1 << 31, 4)  // 2^31
        let negative = [0x13] + RawPlist.be(UInt64.max, 8)  // -1
        let lifted = ArchiveLimits(maxBytes: .max, maxObjects: .max, maxDepth: 512, maxValueLength: .max)
        for (marker, what) in [(UInt8(0x40), "data"), (0x50, "ASCII string"), (0x60, "UTF-16 string")] {
            // Longer than the value limit: refused by the limit, before looking for the bytes.
            expectRejected(.limitExceeded, "\(what) of 2^31-1") {
                _ = try BinaryPropertyList.decode(one(marker, lengthInt: int31))
            }
            // With the limit lifted, refused because the bytes are not there.
            expectRejected(.corrupt, "\(what) of 2^31-1, limits lifted") {
                _ = try BinaryPropertyList.decode(one(marker, lengthInt: int31), limits: lifted)
            }
        }
        for (marker, what) in [(UInt8(0x40), "data"), (0x50, "ASCII string"), (0x60, "UTF-16 string"),
                               (0xA0, "array"), (0xC0, "set"), (0xD0, "dictionary")]
        {
            for (lengthInt, n) in [(int31, "2^31-1"), (int31plus, "2^31"), (int62, "2^62"), (negative, "-1")] {
                if marker < 0xA0 && lengthInt == int31 { continue }
                expectRejected(.corrupt, "\(what) of \(n) elements") {
                    _ = try BinaryPropertyList.decode(one(marker, lengthInt: lengthInt))
                }
                expectRejected(.corrupt, "\(what) of \(n) elements, limits lifted") {
                    _ = try BinaryPropertyList.decode(one(marker, lengthInt: lengthInt), limits: lifted)
                }
            }
        }
        // A trailer declaring 2^40, 2^62 or 2^64-1 objects: the offset table it implies does not
        // fit the file, whatever the limits and the offset size (and no offset table is allocated).
        var raw = RawPlist()
        raw.add([0x08])
        for count: UInt64 in [1 << 40, 1 << 62, UInt64.max] {
            for size in [1, 2, 4, 8] {
                let bytes = raw.bytes(trailerOffsetSize: size, count: count)
                expectRejected(.corrupt, "a trailer declaring \(count) objects of offset size \(size)") {
                    _ = try BinaryPropertyList.decode(bytes)
                }
                expectRejected(.corrupt, "a trailer declaring \(count) objects of offset size \(size), limits lifted") {
                    _ = try BinaryPropertyList.decode(bytes, limits: lifted)
                }
            }
        }
        // A keyed index path declaring 2^62 indexes in a few bytes.
        let path = keyedPlist(
            top: .dictionary(["root": .uid(1)]),
            objects: .array([
                .string("$null"),
                .dictionary(["$class": .uid(2), "NSIndexPathLength": .int(1 << 62), "NSIndexPathData": .data([1, 2, 3])]),
                classDescription("NSIndexPath"),
            ]))
        expectRejected(.notKeyedArchive, "an index path of 2^62 indexes") {
            _ = try KeyedUnarchiver.unarchiveValue(path)
        }
        let grown = peakResidentKiB() - before
        #expect(grown < 64 * 1024, "peak memory grew by \(grown) KiB")
        print("R22 huge counts: peak RSS grew \(grown) KiB")
    }

    /// Arrays nested `depth` deep: object i is an array holding object i+1; the last is empty.
    /// Built directly as bytes, never through recursion.
    static func nestedArrays(_ depth: Int, marker: UInt8 = 0xA1) -> [UInt8] {
        let n = depth
        let refSize = ObjectTable.byteWidth(UInt64(n - 1))
        var out: [UInt8] = Array("bplist00".utf8)
        out.reserveCapacity(n * 10 + 64)
        var offsets: [Int] = []
        offsets.reserveCapacity(n)
        for i in 0 ..< n {
            offsets.append(out.count)
            if i == n - 1 {
                out.append(marker & 0xF0)
            } else if marker >> 4 == 0xD {
                // One pair: key object i+1 would recurse too; key and value are both the next dict.
                // (A key is a container like any other.) Use the next object for the value and
                // the last (empty) one for the key.
                out.append(0xD1)
                out += RawPlist.be(UInt64(n - 1), refSize)
                out += RawPlist.be(UInt64(i + 1), refSize)
            } else {
                out.append(marker)
                out += RawPlist.be(UInt64(i + 1), refSize)
            }
        }
        let table = out.count
        let offsetSize = ObjectTable.byteWidth(UInt64(table))
        for o in offsets { out += RawPlist.be(UInt64(o), offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += RawPlist.be(UInt64(n), 8) + RawPlist.be(0, 8) + RawPlist.be(UInt64(table), 8)
        return out
    }

    // R22: containers nested 100 000 deep are rejected by the depth limit, without recursing.
    @Test func deepNestingIsRejected() {
        for (marker, what) in [(UInt8(0xA1), "arrays"), (0xC1, "sets"), (0xD1, "dictionaries")] {
            let bytes = Self.nestedArrays(100_000, marker: marker)
            expectRejected(.limitExceeded, "\(what) nested 100k deep") {
                _ = try BinaryPropertyList.decode(bytes)
            }
            expectRejected(.limitExceeded, "\(what) nested 100k deep, as a keyed archive") {
                _ = try KeyedUnarchiver.unarchiveValue(bytes)
            }
        }
    }

    // R22: nesting up to the limit is accepted, one more level is not; the default limit and a
    // custom one alike, in validation and in decoding.
    @Test func nestingWithinLimitsIsAccepted() throws {
        for maxDepth in [10, 512] {
            let limits = ArchiveLimits(maxDepth: maxDepth)
            let ok = Self.nestedArrays(maxDepth)
            var value = try BinaryPropertyList.decode(ok, limits: limits)
            var depth = 0
            while case .array(let items) = value {
                depth += 1
                guard let first = items.first else { break }
                value = first
            }
            #expect(depth == maxDepth)
            expectRejected(.limitExceeded, "arrays nested \(maxDepth + 1) deep, limit \(maxDepth)") {
                _ = try BinaryPropertyList.decode(Self.nestedArrays(maxDepth + 1), limits: limits)
            }
        }
        // The defaults: 512.
        _ = try BinaryPropertyList.decode(Self.nestedArrays(512))
        expectRejected(.limitExceeded, "arrays nested 513 deep") {
            _ = try BinaryPropertyList.decode(Self.nestedArrays(513))
        }
    }

    // R22: a container reachable by two paths counts at the depth of the deeper one, whichever
    // path the check meets first.
    @Test func sharedSubtreeDepthIsChecked() throws {
        for deepFirst in [false, true] {
            // chain: 8 nested arrays; wrapper: 5 nested arrays around the chain; top: [chain, wrapper]
            // or [wrapper, chain]. Depth via the wrapper: 1 + 5 + 8 = 14.
            var raw = RawPlist()
            let topIndex = raw.add([])
            var chain: [Int] = []
            for _ in 0 ..< 8 { chain.append(raw.add([])) }
            for (i, ref) in chain.enumerated() {
                raw.objects[ref] = i == chain.count - 1 ? [0xA0] : raw.array([chain[i + 1]])
            }
            var wrapper: [Int] = []
            for _ in 0 ..< 5 { wrapper.append(raw.add([])) }
            for (i, ref) in wrapper.enumerated() {
                raw.objects[ref] = raw.array([i == wrapper.count - 1 ? chain[0] : wrapper[i + 1]])
            }
            raw.objects[topIndex] = raw.array(deepFirst ? [wrapper[0], chain[0]] : [chain[0], wrapper[0]])
            let bytes = raw.bytes()
            _ = try BinaryPropertyList.decode(bytes, limits: ArchiveLimits(maxDepth: 14))
            expectRejected(.limitExceeded, "a shared subtree 14 deep by its deeper path, limit 13, deep path first: \(deepFirst)") {
                _ = try BinaryPropertyList.decode(bytes, limits: ArchiveLimits(maxDepth: 13))
            }
        }
    }

    // R22: containers that contain themselves are corrupt: an array holding itself, a dictionary
    // whose value or key is itself, a set holding itself, and A → B → A.
    @Test func selfReferencingContainersAreRejected() {
        var cases: [(String, RawPlist)] = []
        var r = RawPlist()
        r.add(r.array([0]))
        cases.append(("an array containing itself", r))
        r = RawPlist()
        r.add(r.dict([1], [0]))
        r.add(RawPlist.ascii("k"))
        cases.append(("a dictionary whose value is itself", r))
        r = RawPlist()
        r.add(r.dict([0], [1]))
        r.add(RawPlist.ascii("v"))
        cases.append(("a dictionary whose key is itself", r))
        r = RawPlist()
        r.add(r.set([1, 0]))
        r.add([0x09])
        cases.append(("a set containing itself", r))
        r = RawPlist()
        r.add(r.array([1]))
        r.add(r.dict([2], [0]))
        r.add(RawPlist.ascii("back"))
        cases.append(("A → B → A", r))
        r = RawPlist()
        r.add(r.array([1, 2]))
        r.add(r.array([2]))
        r.add(r.array([3]))
        r.add(r.array([1]))
        cases.append(("top → [B, C], B → C → D → B", r))
        for (what, raw) in cases {
            let bytes = raw.bytes()
            expectRejected(.corrupt, what) { _ = try BinaryPropertyList.decode(bytes) }
            expectRejected(.corrupt, "\(what), as a keyed archive") { _ = try KeyedUnarchiver.unarchiveValue(bytes) }
        }
    }

    // R22: keyed-level cycles among Foundation values (an NSArray holding itself, an NSDictionary
    // whose value is itself) are not object graphs; they are refused, not followed forever.
    @Test func selfReferencingKeyedValuesAreRejected() {
        let array = keyedPlist(objects: .array([
            .string("$null"), .dictionary(["$class": .uid(2), "NS.objects": .array([.uid(1)])]), classDescription("NSArray"),
        ]))
        let dict = keyedPlist(objects: .array([
            .string("$null"),
            .dictionary(["$class": .uid(2), "NS.keys": .array([.uid(3)]), "NS.objects": .array([.uid(4)])]),
            classDescription("NSMutableDictionary"), .string("k"),
            .dictionary(["$class": .uid(5), "NS.objects": .array([.uid(1)])]), classDescription("NSSet"),
        ]))
        expectRejected(.notKeyedArchive, "an NSArray containing itself") { _ = try KeyedUnarchiver.unarchiveValue(array) }
        expectRejected(.notKeyedArchive, "NSDictionary → NSSet → NSDictionary") { _ = try KeyedUnarchiver.unarchiveValue(dict) }
    }

    // R22: a small file whose containers share children exponentially (each of 64 arrays holds
    // the next one twice) does not expand into 2^64 values: it is refused by the value budget
    // (or, equally good, decoded with its sharing intact). A decoder that expanded it would not
    // finish: the time limit (minutes, for what takes microseconds) turns that hang into a failure.
    @Test(.timeLimit(.minutes(1))) func exponentialSharingIsNotExpanded() throws {
        func check(_ what: String, _ body: () throws(ArchiveError) -> Int) {
            do throws(ArchiveError) {
                let count = try body()
                #expect(count == 2, "\(what): decoded to \(count) items")
            } catch {
                #expect(error.code == .limitExceeded, "\(what): \(error)")
            }
        }
        var raw = RawPlist()
        let levels = 64
        for i in 0 ..< levels { raw.add(i == levels - 1 ? RawPlist.ascii("leaf") : raw.array([i + 1, i + 1])) }
        let bytes = raw.bytes()
        check("a plist of 64 doubly shared arrays") { () throws(ArchiveError) -> Int in
            guard case .array(let items) = try BinaryPropertyList.decode(bytes) else { return -1 }
            return items.count
        }

        // The same at the keyed level: NSArrays each holding the next NSArray twice.
        var objects: [PropertyList] = [.string("$null"), classDescription("NSArray")]
        for i in 0 ..< levels {
            let next = UInt64(objects.count + 1)
            objects.append(i == levels - 1
                ? .string("leaf")
                : .dictionary(["$class": .uid(1), "NS.objects": .array([.uid(next), .uid(next)])]))
        }
        let keyed = keyedPlist(top: .dictionary(["root": .uid(2)]), objects: .array(objects))
        check("a keyed archive of 64 doubly shared NSArrays") { () throws(ArchiveError) -> Int in
            guard case .array(let items) = try KeyedUnarchiver.unarchiveValue(keyed) else { return -1 }
            return items.count
        }
    }

    // R22: offsets and references that point outside the file or the object table.
    @Test func badOffsetsAndReferencesAreRejected() {
        var raw = RawPlist()
        raw.add(raw.array([1, 2]))
        raw.add(RawPlist.ascii("one"))
        raw.add(RawPlist.int(2))
        let good = raw.bytes()
        let table = UInt64(good.count - 32 - 3)
        #expect(throws: Never.self) { try BinaryPropertyList.decode(good) }
        let cases: [(String, [UInt8])] = [
            ("an offset into the header", raw.bytes(offsets: [8, 3, 15])),
            ("an offset at the offset table", raw.bytes(offsets: [8, table, 15])),
            ("an offset past the end", raw.bytes(offsetSize: 2, offsets: [8, 9999, 15])),
            ("the top object out of range", raw.bytes(top: 3)),
            ("the top object far out of range", raw.bytes(top: UInt64.max)),
            ("no objects", raw.bytes(count: 0)),
            ("one object too many", raw.bytes(count: 4)),
            ("one object too few", raw.bytes(count: 2)),
            ("the table offset inside the header", raw.bytes(tableOffset: 4)),
            ("the table offset 0", raw.bytes(tableOffset: 0)),
            ("the table offset one too far", raw.bytes(tableOffset: table + 1)),
            ("the table offset one too near", raw.bytes(tableOffset: table - 1)),
            ("the table offset past the trailer", raw.bytes(tableOffset: UInt64(good.count))),
            ("the table offset 2^63", raw.bytes(tableOffset: 1 << 63)),
            ("offset size 0", raw.bytes(trailerOffsetSize: 0)),
            ("offset size 9", raw.bytes(trailerOffsetSize: 9)),
            ("offset size 255", raw.bytes(trailerOffsetSize: 255)),
            ("reference size 0", raw.bytes(trailerRefSize: 0)),
            ("reference size 9", raw.bytes(trailerRefSize: 9)),
            ("reference size 2 for 1-byte references", raw.bytes(trailerRefSize: 2)),
            ("a header of bplist01", Array("bplist01".utf8) + good.dropFirst(8)),
            ("a header of bplist15", Array("bplist15".utf8) + good.dropFirst(8)),
            ("a header of xplist00", Array("xplist00".utf8) + good.dropFirst(8)),
            ("an XML plist", Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><true/></plist>".utf8)),
            ("an empty input", []),
            ("41 bytes", Array(good.prefix(41))),
            ("a byte appended", good + [0]),
            ("a byte prepended", [0] + good),
        ]
        for (what, bytes) in cases {
            expectRejected(.corrupt, what) { _ = try BinaryPropertyList.decode(bytes) }
        }
        // References out of range, in each kind of container.
        for (what, object) in [("an array", raw.array([1, 3])), ("a set", raw.set([1, 200])),
                               ("a dictionary's key", raw.dict([3], [1])), ("a dictionary's value", raw.dict([1], [255]))]
        {
            var bad = raw
            bad.objects[0] = object
            expectRejected(.corrupt, "\(what) referring past the last object") { _ = try BinaryPropertyList.decode(bad.bytes()) }
        }
        // An object whose contents run into the offset table.
        var long = raw
        long.objects[1] = [0x5A] + Array("one".utf8)
        expectRejected(.corrupt, "a string running into the offset table") { _ = try BinaryPropertyList.decode(long.bytes()) }
        // A length integer that is not an integer, or of 16 bytes.
        for lengthMarker: UInt8 in [0x08, 0x23, 0x14, 0x51] {
            var bad = raw
            bad.objects[1] = [0x5F, lengthMarker] + Array(repeating: 0x41, count: 20)
            expectRejected(.corrupt, "a length given by marker 0x\(String(lengthMarker, radix: 16))") {
                _ = try BinaryPropertyList.decode(bad.bytes())
            }
        }
        // Over the byte and object limits.
        expectRejected(.limitExceeded, "over the byte limit") {
            _ = try BinaryPropertyList.decode(good, limits: ArchiveLimits(maxBytes: good.count - 1))
        }
        expectRejected(.limitExceeded, "over the object limit") {
            _ = try BinaryPropertyList.decode(good, limits: ArchiveLimits(maxObjects: 2))
        }
        expectRejected(.limitExceeded, "over the value length limit") {
            _ = try BinaryPropertyList.decode(good, limits: ArchiveLimits(maxValueLength: 2))
        }
    }

    // R22: contents that are structurally sound but invalid: non-ASCII bytes in an ASCII string,
    // broken UTF-16, a 16-byte integer beyond 64 bits.
    @Test func invalidContentsAreRejected() {
        let cases: [(String, [UInt8])] = [
            ("a byte 0x80 in an ASCII string", [0x53, 0x61, 0x80, 0x62]),
            ("a byte 0xFF in an ASCII string", [0x51, 0xFF]),
            ("a lone high surrogate", [0x62, 0x00, 0x61, 0xD8, 0x3D]),
            ("a lone low surrogate", [0x61, 0xDC, 0x00]),
            ("a reversed surrogate pair", [0x62, 0xDE, 0x00, 0xD8, 0x3D]),
            ("a 16-byte integer of 2^64", [0x14] + RawPlist.be(1, 8) + RawPlist.be(0, 8)),
            ("a 16-byte integer below Int64.min", [0x14] + RawPlist.be(UInt64.max, 8) + RawPlist.be(0, 8)),
        ]
        for (what, object) in cases {
            var raw = RawPlist()
            raw.add(object)
            expectRejected(.corrupt, what) { _ = try BinaryPropertyList.decode(raw.bytes()) }
        }
    }

    // R22, R26: property lists that are not keyed archives in the NSKeyedArchiver layout.
    @Test func brokenKeyedLayoutsAreRejected() throws {
        let null = PropertyList.string("$null")
        let cases: [(String, [UInt8])] = [
            ("a top object that is an array", BinaryPropertyList.encode(.array([.string("NSKeyedArchiver")]))),
            ("$archiver missing", keyedPlist(archiver: nil)),
            ("$archiver wrong", keyedPlist(archiver: .string("NSArchiver"))),
            ("$archiver with a suffix", keyedPlist(archiver: .string("NSKeyedArchiverX"))),
            ("$archiver not a string", keyedPlist(archiver: .int(1))),
            ("$version missing", keyedPlist(version: nil)),
            ("$version 99999", keyedPlist(version: .int(99999))),
            ("$version a string", keyedPlist(version: .string("100000"))),
            ("$version a real", keyedPlist(version: .double(100000))),
            ("$top missing", keyedPlist(top: nil)),
            ("$top an array", keyedPlist(top: .array([.uid(1)]))),
            ("$objects missing", keyedPlist(objects: nil)),
            ("$objects a dictionary", keyedPlist(objects: .dictionary(["0": null]))),
            ("$objects empty", keyedPlist(objects: .array([]))),
            ("the first object not $null", keyedPlist(objects: .array([.string("null"), .string("x")]))),
            ("the first object an integer", keyedPlist(objects: .array([.int(0), .string("x")]))),
            ("the first object $NULL", keyedPlist(objects: .array([.string("$NULL")]))),
        ]
        for (what, bytes) in cases {
            expectRejected(.notKeyedArchive, what) { _ = try KeyedArchive(bytes: bytes) }
            expectRejected(.notKeyedArchive, "\(what), by the unarchiver") { _ = try KeyedUnarchiver(bytes: bytes) }
        }

        // Broken objects are found when they are decoded.
        func objects(_ items: [PropertyList], top: PropertyList = .dictionary(["root": .uid(1)])) -> [UInt8] {
            keyedPlist(top: top, objects: .array([null] + items))
        }
        let valueCases: [(String, [UInt8])] = [
            ("a UID in $top out of range", objects([.string("x")], top: .dictionary(["root": .uid(2)]))),
            ("a UID in $top of 2^64-1", objects([.string("x")], top: .dictionary(["root": .uid(UInt64.max)]))),
            ("a UID in NS.objects out of range", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([.uid(9)])]), classDescription("NSArray")])),
            ("a $class UID out of range", objects([.dictionary(["$class": .uid(7), "NS.objects": .array([])])])),
            ("a $class that is not a UID", objects([.dictionary(["$class": .int(2), "NS.objects": .array([])]), classDescription("NSArray")])),
            ("a $class naming $null", objects([.dictionary(["$class": .uid(0), "NS.objects": .array([])])])),
            ("a class description without $classname", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([])]), .dictionary(["$classes": .array([.string("NSArray")])])])),
            ("a $classname that is not a string", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([])]), .dictionary(["$classname": .int(1), "$classes": .array([])])])),
            ("a class description with a string $classes", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([])]), .dictionary(["$classname": .string("NSArray"), "$classes": .string("NSArray")])])),
            ("a class description with a $classes of integers", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([])]), .dictionary(["$classname": .string("NSArray"), "$classes": .array([.int(1)])])])),
            ("a class description without $classes", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([])]), .dictionary(["$classname": .string("NSArray")])])),
            ("a class description that is a string", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([])]), .string("NSArray")])),
            ("a dictionary object without $class", objects([.dictionary(["NS.objects": .array([])])])),
            ("an NSArray without NS.objects", objects([.dictionary(["$class": .uid(2)]), classDescription("NSArray")])),
            ("an NSArray whose NS.objects is a string", objects([.dictionary(["$class": .uid(2), "NS.objects": .string("x")]), classDescription("NSArray")])),
            ("an NSArray holding a plain integer", objects([.dictionary(["$class": .uid(2), "NS.objects": .array([.int(1)])]), classDescription("NSArray")])),
            ("an NSDictionary with more keys than values", objects([.dictionary(["$class": .uid(2), "NS.keys": .array([.uid(3), .uid(3)]), "NS.objects": .array([.uid(3)])]), classDescription("NSDictionary"), .string("k")])),
            ("an NSDate without NS.time", objects([.dictionary(["$class": .uid(2)]), classDescription("NSDate")])),
            ("an NSDate whose NS.time is a string", objects([.dictionary(["$class": .uid(2), "NS.time": .string("now")]), classDescription("NSDate")])),
            ("an NSUUID of 15 bytes", objects([.dictionary(["$class": .uid(2), "NS.uuidbytes": .data(Array(repeating: 1, count: 15))]), classDescription("NSUUID")])),
            ("an NSIndexPath without NSIndexPathLength", objects([.dictionary(["$class": .uid(2)]), classDescription("NSIndexPath")])),
            ("an NSIndexPath of length -1", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(-1)]), classDescription("NSIndexPath")])),
            ("an NSIndexPath of length 2 without data", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(2)]), classDescription("NSIndexPath")])),
            ("an NSIndexPath of length 1 without a value", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(1)]), classDescription("NSIndexPath")])),
            ("an NSIndexPath whose data ends inside an index", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(2), "NSIndexPathData": .data([1, 0x80])]), classDescription("NSIndexPath")])),
            ("an NSIndexPath holding fewer indexes than it declares", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(3), "NSIndexPathData": .data([1, 2])]), classDescription("NSIndexPath")])),
            ("an NSIndexPath holding more indexes than it declares", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(2), "NSIndexPathData": .data([1, 2, 3])]), classDescription("NSIndexPath")])),
            ("an NSIndexPath with an index of 77 bits", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(2), "NSIndexPathData": .data(Array(repeating: 0xFF, count: 11) + [1, 1])]), classDescription("NSIndexPath")])),
            ("an NSIndexPath whose data UID is a string", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(2), "NSIndexPathData": .uid(3)]), classDescription("NSIndexPath"), .string("xx")])),
            ("an NSIndexPath whose data UID is out of range", objects([.dictionary(["$class": .uid(2), "NSIndexPathLength": .int(2), "NSIndexPathData": .uid(30)]), classDescription("NSIndexPath")])),
            ("an NSString holding invalid UTF-8", objects([.dictionary(["$class": .uid(2), "NS.string": .data([0xC3, 0x28])]), classDescription("NSString")])),
            ("an NSData whose NS.data is a string", objects([.dictionary(["$class": .uid(2), "NS.data": .string("x")]), classDescription("NSMutableData")])),
            ("a plain array in $objects", objects([.array([.int(1)])])),
            ("a plain UID in $objects", objects([.uid(1)])),
        ]
        for (what, bytes) in valueCases {
            expectRejected(.notKeyedArchive, what) { _ = try KeyedUnarchiver.unarchiveValue(bytes) }
        }
        // UIDs out of range and broken class descriptions, reached through the raw graph and
        // through decodeObject.
        let classCases = Array(valueCases[0 ..< 2]) + Array(valueCases[3 ..< 12])
        for (what, bytes) in classCases {
            let archive = try KeyedArchive(bytes: bytes)
            expectRejected(.notKeyedArchive, "\(what), by KeyedArchive.object") {
                for (_, uid) in try archive.topEntries() { _ = try archive.object(uid) }
                for uid in 1 ..< archive.objectCount { _ = try archive.object(uid) }
            }
        }
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(name: "Thing", encode: { _, _ in }, make: { _ in Thing() }), for: Thing.self)
        for (what, bytes) in classCases {
            expectRejected(.notKeyedArchive, "\(what), by decodeObject") {
                _ = try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObject(forKey: "root")
            }
        }
    }

    // R22, R26: an object whose UID is wider than 64 bits, or a UID of 2^64-1 asked for as the wrong
    // type, is refused, never trapped on.
    @Test func extremeUIDsAreRejected() throws {
        let bytes = keyedPlist(top: .dictionary(["k": .uid(UInt64.max), "j": .uid(1 << 63)]), objects: .array([.string("$null")]))
        let unarchiver = try KeyedUnarchiver(bytes: bytes)
        for key in ["k", "j"] {
            expectRejected(.typeMismatch, "decodeBool of a UID of 2^64-1") { _ = try unarchiver.decodeBool(forKey: key) }
            expectRejected(.typeMismatch, "decodeInt64 of a UID of 2^64-1") { _ = try unarchiver.decodeInt64(forKey: key) }
            expectRejected(.typeMismatch, "decodeDouble of a UID of 2^64-1") { _ = try unarchiver.decodeDouble(forKey: key) }
            expectRejected(.notKeyedArchive, "decodeString of a UID of 2^64-1") { _ = try unarchiver.decodeString(forKey: key) }
            expectRejected(.notKeyedArchive, "decodeValue of a UID of 2^64-1") { _ = try unarchiver.decodeValue(forKey: key) }
            expectRejected(.notKeyedArchive, "decodeObject of a UID of 2^64-1") { _ = try unarchiver.decodeObject(forKey: key) }
            expectRejected(.notKeyedArchive, "topEntries with a UID of 2^64-1") { _ = try unarchiver.archive.topEntries() }
        }
        // UIDs of 9 to 16 bytes are undefined.
        for width in 9 ... 16 {
            var raw = RawPlist()
            raw.add([0x80 | UInt8(width - 1)] + Array(repeating: 0, count: width))
            expectRejected(.corrupt, "a UID of \(width) bytes") { _ = try BinaryPropertyList.decode(raw.bytes()) }
        }
    }

    // R22: a cycle of custom objects through `make` (an object that needs itself before it
    // exists), and custom objects nested deeper than the limit, are refused.
    @Test func brokenObjectGraphsAreRejected() throws {
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "Eager",
            encode: { _, _ in },
            make: { un in
                // Needs its child to exist before it does.
                let t = Thing()
                t.next = try un.decodeObject(forKey: "next") as? Thing
                return t
            }))
        let cycle = keyedPlist(objects: .array([
            .string("$null"), .dictionary(["$class": .uid(2), "next": .uid(3)]), classDescription("Eager"),
            .dictionary(["$class": .uid(2), "next": .uid(1)]),
        ]))
        expectRejected(.notKeyedArchive, "a cycle through make") {
            _ = try KeyedUnarchiver(bytes: cycle, registry: registry).decodeObject(forKey: "root")
        }
        // A chain of 10 000 objects, each decoding the next in `make`: the depth limit stops it.
        var items: [PropertyList] = [.string("$null"), classDescription("Eager")]
        let n = 10_000
        for i in 0 ..< n {
            items.append(.dictionary(["$class": .uid(1), "next": .uid(i == n - 1 ? 0 : UInt64(items.count + 1))]))
        }
        let deep = keyedPlist(top: .dictionary(["root": .uid(2)]), objects: .array(items))
        expectRejected(.limitExceeded, "objects nested 10k deep") {
            _ = try KeyedUnarchiver(bytes: deep, registry: registry).decodeObject(forKey: "root")
        }
    }
}

/// A coding class for tests of object graphs: a name and a next object.
final class Thing {
    var name: String
    var next: Thing?
    init(name: String = "") { self.name = name }
}
