import Foundation
import Testing
@testable import AmberArchive

/// A keyed archive whose `$objects` are `$null` then `items`, for breaking one object at a time.
func keyedArchive(_ items: [PropertyList], top: PropertyList = .dictionary(["root": .uid(1)])) -> [UInt8] {
    keyedPlist(top: top, objects: .array([.string("$null")] + items))
}

/// An instance of class description `classUID` with the fields given, in order.
func instance(_ classUID: UInt64, _ fields: KeyValuePairs<String, PropertyList>) -> PropertyList {
    .dictionary([PropertyListPair(.string("$class"), .uid(classUID))] + fields.map { PropertyListPair(.string($0.key), $0.value) })
}

/// Indexes packed as Foundation packs them in `NSIndexPathData` and `NSRangeData`: each an
/// unsigned integer in groups of seven bits, low group first, the high bit set on every byte
/// of an index but its last.
func packed(_ values: [UInt64]) -> [UInt8] {
    var out: [UInt8] = []
    for var v in values {
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
    return out
}

/// Keyed archives whose property list is sound but whose structure is not (issue 26, item 7):
/// each is refused by the keyed layer with a typed error naming the problem, quickly, and
/// without allocating from the counts it declares.
@Suite struct InconsistentKeyedArchiveTests {
    // R22, R26: an NSDictionary whose NS.keys and NS.objects differ in count is refused before
    // any key is decoded: keys that would each expand to a thousand values are not decoded first
    // (the value budget would then be the reason given, or the time taken).
    @Test func dictionaryCountsMustAgree() {
        // 1: the dictionary; 2: its class; 3: an NSArray of 1,000 strings; 4: NSArray's class; 5: the string.
        let keys = Array(repeating: PropertyList.uid(3), count: 3000)
        let bytes = keyedArchive([
            instance(2, ["NS.keys": .array(keys), "NS.objects": .array([.uid(5)])]), classDescription("NSDictionary"),
            instance(4, ["NS.objects": .array(Array(repeating: .uid(5), count: 1000))]), classDescription("NSArray"),
            .string("s"),
        ])
        expectRejected(.notKeyedArchive, "an NSDictionary of 3,000 keys and 1 object") {
            _ = try KeyedUnarchiver.unarchiveValue(bytes)
        }
        expectMessage(bytes, contains: ["NSDictionary object 1", "3000 keys"])
        // The same with the counts the other way round, and an NSMutableDictionary.
        let fewer = keyedArchive([
            instance(2, ["NS.keys": .array([.uid(3)]), "NS.objects": .array([.uid(3), .uid(3)])]),
            classDescription("NSMutableDictionary"), .string("k"),
        ])
        expectRejected(.notKeyedArchive, "an NSMutableDictionary of 1 key and 2 objects") {
            _ = try KeyedUnarchiver.unarchiveValue(fewer)
        }
    }

    // R22, R26: an NSDictionary's keys are objects of any class: the generic value decoder
    // keeps keys that are not strings (`ArchiveValue.dictionary` holds any key; there is no
    // decoder of `[String: …]` to refuse them), as `amber dump --keyed` prints them
    // (`{"$dict": [[key, value]…]}`). The archive's own dictionaries (`$top`, each instance) are
    // keyed by strings: the raw graph refuses one that is not, and so does the unarchiver
    // (ForeignKeyedArchiveTests.instanceKeysMustBeStrings).
    @Test func dictionaryKeysAreStringsWhereRequired() throws {
        let mixed = keyedArchive([
            instance(2, ["NS.keys": .array([.uid(3), .uid(4)]), "NS.objects": .array([.uid(5), .uid(5)])]),
            classDescription("NSDictionary"), .int(1), instance(6, ["NS.time": .double(2)]), .string("v"),
            classDescription("NSDate"),
        ])
        #expect(try KeyedUnarchiver.unarchiveValue(mixed) == .dictionary([
            ArchiveValuePair(.int(1), .string("v")), ArchiveValuePair(.date(2), .string("v")),
        ]))
        let intKey = keyedArchive([
            .dictionary([PropertyListPair(.string("$class"), .uid(2)), PropertyListPair(.int(7), .string("x")),
                         PropertyListPair(.string("NS.objects"), .array([]))]),
            classDescription("NSArray"),
        ])
        expectRejected(.notKeyedArchive, "an instance with an integer key, in the raw graph") {
            _ = try KeyedArchive(bytes: intKey).object(1)
        }
        let uidKey = keyedArchive([.string("x")], top: .dictionary([
            PropertyListPair(.string("root"), .uid(1)), PropertyListPair(.uid(1), .uid(1)),
        ]))
        expectRejected(.notKeyedArchive, "$top with a UID key, by topEntries") { _ = try KeyedArchive(bytes: uidKey).topEntries() }
        expectRejected(.notKeyedArchive, "$top with a UID key, by topValues") { _ = try KeyedArchive(bytes: uidKey).topValues() }
    }

    // R22, R26: a `$top` entry that is not a reference where an object is expected: a string or
    // a container stored in place (NSKeyedArchiver stores objects in `$objects` and refers to
    // them; in place it writes only numbers, booleans and bytes) is refused by every reader.
    @Test func rootsMustBeReferences() throws {
        for (what, root) in [("a string", PropertyList.string("x")), ("an array", .array([.uid(1)])),
                             ("a dictionary", .dictionary(["k": .uid(1)])), ("a date", .date(3))]
        {
            let bytes = keyedArchive([.string("x")], top: .dictionary(["root": root]))
            expectRejected(.notKeyedArchive, "a root that is \(what) in place") {
                _ = try KeyedUnarchiver.unarchiveValue(bytes)
            }
            expectRejected(.notKeyedArchive, "a root that is \(what) in place, by topValues") {
                _ = try KeyedArchive(bytes: bytes).topValues()
            }
            let u = try KeyedUnarchiver(bytes: bytes)
            expectRejected(.typeMismatch, "a root that is \(what) in place, as an object") { _ = try u.decodeObject(forKey: "root") }
            expectRejected(.typeMismatch, "a root that is \(what) in place, as a UID") { _ = try u.objectUID(forKey: "root") }
        }
        // What Foundation writes in place at the top level reads: numbers, booleans, bytes.
        let inline = keyedArchive([], top: .dictionary(["n": .int(3), "b": .bool(true), "d": .data([1, 2]), "r": .double(0.5)]))
        let u = try KeyedUnarchiver(bytes: inline)
        #expect(try u.decodeValue(forKey: "n") == .int(3))
        #expect(try u.decodeValue(forKey: "d") == .data([1, 2]))
        #expect(try u.decodeBytes(forKey: "d") == [1, 2])
        #expect(try KeyedArchive(bytes: inline).topValues().map(\.key) == ["n", "b", "d", "r"])
        // A reader of the whole graph (`amber dump --keyed`) needs a root: a `$top` that refers to
        // no object, or whose `root` is a value in place, is refused; a null root reads.
        expectRejected(.notKeyedArchive, "a $top that refers to no object") { _ = try KeyedArchive(bytes: inline).rootedTopValues() }
        let numberRoot = keyedArchive([], top: .dictionary(["root": .int(3), "other": .uid(0)]))
        expectRejected(.notKeyedArchive, "a root that is a number in place") { _ = try KeyedArchive(bytes: numberRoot).rootedTopValues() }
        let nullRoot = keyedArchive([], top: .dictionary(["root": .uid(0), "n": .int(3)]))
        #expect(try KeyedArchive(bytes: nullRoot).rootedTopValues().map(\.key) == ["root", "n"])
        // `$objects` that is not an array, `$top` that is not a dictionary.
        for (what, bytes) in [("$objects a set", keyedPlist(objects: .set([.string("$null")]))),
                              ("$objects a string", keyedPlist(objects: .string("$null"))),
                              ("$top a UID", keyedPlist(top: .uid(1))), ("$top a string", keyedPlist(top: .string("root")))]
        {
            expectRejected(.notKeyedArchive, what) { _ = try KeyedUnarchiver(bytes: bytes) }
        }
    }

    // R22, R26: an NSIndexPath whose NSIndexPathLength disagrees with its data is refused: more
    // or fewer indexes than declared, data beside a length of 0 or 1 that holds other indexes,
    // an index wider than 64 bits (ten bytes whose last carries more than the 64th bit), an
    // index cut off at the end of the data.
    @Test func indexPathLengthMustAgreeWithData() throws {
        func path(_ fields: KeyValuePairs<String, PropertyList>) -> [UInt8] {
            keyedArchive([instance(2, fields), classDescription("NSIndexPath")])
        }
        let tenBytes = Array(repeating: UInt8(0xFF), count: 9)
        let cases: [(String, [UInt8])] = [
            ("length 0 with data of 2 indexes", path(["NSIndexPathLength": .int(0), "NSIndexPathData": .data([1, 2])])),
            ("length 1 with data of 2 indexes", path(["NSIndexPathLength": .int(1), "NSIndexPathValue": .int(1), "NSIndexPathData": .data([1, 2])])),
            ("length 1 whose data holds another index", path(["NSIndexPathLength": .int(1), "NSIndexPathValue": .int(1), "NSIndexPathData": .data([2])])),
            ("length 2, an index of 64 bits and 6 more", path(["NSIndexPathLength": .int(2), "NSIndexPathData": .data(tenBytes + [0x7F, 1])])),
            ("length 2, an index of 65 bits", path(["NSIndexPathLength": .int(2), "NSIndexPathData": .data(tenBytes + [0x02, 1])])),
            ("length 3 in 2 whole indexes and a cut one", path(["NSIndexPathLength": .int(3), "NSIndexPathData": .data([1, 2, 0x83])])),
            ("length 2 in 3 indexes", path(["NSIndexPathLength": .int(2), "NSIndexPathData": .data([1, 2, 3])])),
            ("a length that is a real", path(["NSIndexPathLength": .double(2), "NSIndexPathData": .data([1, 2])])),
            ("data that is an integer", path(["NSIndexPathLength": .int(2), "NSIndexPathData": .int(258)])),
            ("length 2^63-1 in 3 bytes", path(["NSIndexPathLength": .int(.max), "NSIndexPathData": .data([1, 2, 3])])),
        ]
        for (what, bytes) in cases {
            expectRejected(.notKeyedArchive, "an NSIndexPath of \(what)") { _ = try KeyedUnarchiver.unarchiveValue(bytes) }
            expectRejected(.notKeyedArchive, "an NSIndexPath of \(what), by decodeIndexPath") {
                _ = try KeyedUnarchiver(bytes: bytes).decodeIndexPath(forKey: "root")
            }
        }
        // The largest index that fits: 2^64-1 (read as -1, as Amber writes negative indexes), in ten bytes.
        let widest = path(["NSIndexPathLength": .int(2), "NSIndexPathData": .data(tenBytes + [0x01, 5])])
        #expect(try KeyedUnarchiver.unarchiveValue(widest) == .indexPath([-1, 5]))
    }

    // R26: NSIndexPath's packed form, as Apple's NSKeyedArchiver writes it for more than one
    // index (`NSIndexPathData`: each index in groups of seven bits, low group first, the high
    // bit set on all but an index's last byte; stored as an NSData object, referred to by UID),
    // decodes to its indexes, at every width up to 64 bits; one index is `NSIndexPathValue`.
    @Test func packedIndexPathsDecode() throws {
        let values: [UInt64] = [0, 1, 127, 128, 255, 300, 16383, 16384, 70000, 1 << 31, 1 << 32, (1 << 56) - 1, 1 << 56,
                                UInt64(Int64.max)]
        let data = packed(values)
        #expect(Array(data.prefix(6)) == [0, 1, 0x7F, 0x80, 0x01, 0xFF])
        let bytes = keyedArchive([
            instance(2, ["NSIndexPathLength": .int(Int64(values.count)), "NSIndexPathData": .uid(3)]),
            classDescription("NSIndexPath"), .data(data),
        ])
        #expect(try KeyedUnarchiver.unarchiveValue(bytes) == .indexPath(values.map { Int($0) }))
        #expect(try KeyedUnarchiver(bytes: bytes).decodeIndexPath(forKey: "root") == values.map { Int($0) })
        // Data in place (Amber's reader accepts either), and a single index.
        let inPlace = keyedArchive([
            instance(2, ["NSIndexPathLength": .int(2), "NSIndexPathData": .data(packed([3, 300]))]), classDescription("NSIndexPath"),
        ])
        #expect(try KeyedUnarchiver.unarchiveValue(inPlace) == .indexPath([3, 300]))
        let one = keyedArchive([instance(2, ["NSIndexPathLength": .int(1), "NSIndexPathValue": .int(300)]), classDescription("NSIndexPath")])
        #expect(try KeyedUnarchiver.unarchiveValue(one) == .indexPath([300]))
        // Amber writes the same bytes.
        let written = try KeyedArchive(bytes: KeyedArchiver.archive(.indexPath(values.map { Int($0) })))
        let packedData = (1 ..< written.objectCount).compactMap { u -> [UInt8]? in
            if case .value(.data(let d))? = try? written.object(u) { return d }
            return nil  // the index path, its class description
        }
        #expect(packedData == [data])
    }

    // R22, R26: an NSIndexSet (NSRangeCount ranges: one as NSLocation and NSLength, more in
    // NSRangeData, packed as index paths are) whose count the data cannot hold is refused before
    // anything is allocated from it, as are ranges past Int.max and a count disagreeing with
    // the data.
    @Test func indexSetCountsMustFitTheBytes() {
        let before = peakResidentKiB()
        func set(_ fields: KeyValuePairs<String, PropertyList>, _ name: String = "NSIndexSet") -> [UInt8] {
            keyedArchive([instance(2, fields), classDescription(name), .data([1, 2, 3, 4])])
        }
        let cases: [(String, [UInt8])] = [
            ("2^62 ranges in 4 bytes", set(["NSRangeCount": .int(1 << 62), "NSRangeData": .uid(3)])),
            ("2^31 ranges in 4 bytes", set(["NSRangeCount": .int(1 << 31), "NSRangeData": .data([1, 2, 3, 4])], "NSMutableIndexSet")),
            ("3 ranges in 4 bytes", set(["NSRangeCount": .int(3), "NSRangeData": .uid(3)])),
            ("1 range in 4 bytes of data", set(["NSRangeCount": .int(2), "NSRangeData": .data(packed([1, 2, 3]))])),
            ("a negative count", set(["NSRangeCount": .int(-1)])),
            ("a count that is a string", set(["NSRangeCount": .string("2")])),
            ("no count", set(["NSRangeData": .uid(3)])),
            ("2 ranges without data", set(["NSRangeCount": .int(2)])),
            ("data that is a string object", set(["NSRangeCount": .int(2), "NSRangeData": .uid(1)])),
            ("a range cut off", set(["NSRangeCount": .int(2), "NSRangeData": .data([1, 2, 3, 0x84])])),
            ("a range past Int.max", set(["NSRangeCount": .int(2), "NSRangeData": .data(packed([1, 1, UInt64(Int64.max), 1]))])),
            ("one range without NSLength", set(["NSRangeCount": .int(1), "NSLocation": .int(4)])),
            ("one range of negative length", set(["NSRangeCount": .int(1), "NSLocation": .int(4), "NSLength": .int(-2)])),
            ("one range past Int.max", set(["NSRangeCount": .int(1), "NSLocation": .int(.max), "NSLength": .int(2)])),
            ("no ranges but data", set(["NSRangeCount": .int(0), "NSRangeData": .data([1, 2])])),
        ]
        for (what, bytes) in cases {
            expectRejected(.notKeyedArchive, "an NSIndexSet of \(what)") { _ = try KeyedUnarchiver.unarchiveValue(bytes) }
        }
        let grown = peakResidentKiB() - before
        #expect(grown < 64 * 1024, "peak memory grew by \(grown) KiB")
    }

    // R26: an NSIndexSet and an NSCountedSet, as Foundation writes them, read to their values
    // (`ArchiveValue.indexSet`, `.countedSet`); Amber writes the same fields, and reads them back.
    @Test func indexSetsAndCountedSetsDecode() throws {
        let ranges = keyedArchive([
            instance(2, ["NSRangeCount": .int(3), "NSRangeData": .uid(3)]), classDescription("NSIndexSet"),
            .data(packed([0, 3, 10, 1, 300, 69700])),
        ])
        #expect(try KeyedUnarchiver.unarchiveValue(ranges) == .indexSet([0 ..< 3, 10 ..< 11, 300 ..< 70000]))
        let one = keyedArchive([
            instance(2, ["NSRangeCount": .int(1), "NSLocation": .int(5), "NSLength": .int(4)]),
            classDescription("NSMutableIndexSet", ["NSMutableIndexSet", "NSIndexSet", "NSObject"]),
        ])
        #expect(try KeyedUnarchiver.unarchiveValue(one) == .indexSet([5 ..< 9]))
        let none = keyedArchive([instance(2, ["NSRangeCount": .int(0), "NSRangeData": .data([])]), classDescription("NSIndexSet")])
        #expect(try KeyedUnarchiver.unarchiveValue(none) == .indexSet([]))
        let counted = keyedArchive([
            instance(2, ["NS.count": .int(2), "NS.object1": .uid(4), "NS.count1": .int(1), "NS.object0": .uid(3), "NS.count0": .int(3)]),
            classDescription("NSCountedSet", ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"]), .string("p"), .string("q"),
        ])
        #expect(try KeyedUnarchiver.unarchiveValue(counted) == .countedSet([(.string("p"), 3), (.string("q"), 1)]))
        for value: ArchiveValue in [.indexSet([0 ..< 3, 10 ..< 11, 300 ..< 70000]), .indexSet([5 ..< 9]), .indexSet([]),
                                    .countedSet([(.string("p"), 3), (.array([.int(1)]), 1)]), .countedSet([])]
        {
            #expect(try KeyedUnarchiver.unarchiveValue(KeyedArchiver.archive(value)) == value, "\(value)")
        }
    }

    // R22, R26: an NSCountedSet (NS.count distinct objects, each under NS.object<i> with its
    // count under NS.count<i>, as Foundation writes it) whose count its entries cannot hold is
    // refused before anything is allocated from it, as are missing and duplicate items and
    // counts that are not positive integers.
    @Test func countedSetCountsMustFitTheEntries() {
        let before = peakResidentKiB()
        func set(_ fields: KeyValuePairs<String, PropertyList>) -> [UInt8] {
            keyedArchive([instance(2, fields), classDescription("NSCountedSet", ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"]),
                          .string("a"), .string("b")])
        }
        let cases: [(String, [UInt8])] = [
            ("2^62 objects in 2 entries", set(["NS.count": .int(1 << 62), "NS.object0": .uid(3), "NS.count0": .int(1)])),
            ("2 objects in 2 entries", set(["NS.count": .int(2), "NS.object0": .uid(3), "NS.count0": .int(1)])),
            ("a negative count", set(["NS.count": .int(-1)])),
            ("no count", set(["NS.object0": .uid(3), "NS.count0": .int(1)])),
            ("an object without its count", set(["NS.count": .int(1), "NS.object0": .uid(3), "NS.object1": .uid(4)])),
            ("an item past the count", set(["NS.count": .int(1), "NS.object0": .uid(3), "NS.count0": .int(1), "NS.object5": .uid(4), "NS.count5": .int(1)])),
            ("an item twice", set(["NS.count": .int(2), "NS.object0": .uid(3), "NS.count0": .int(1), "NS.object0": .uid(4), "NS.count1": .int(1)])),
            ("a count of 0", set(["NS.count": .int(1), "NS.object0": .uid(3), "NS.count0": .int(0)])),
            ("a count that is a string", set(["NS.count": .int(1), "NS.object0": .uid(3), "NS.count0": .string("1")])),
            ("an object in place", set(["NS.count": .int(1), "NS.object0": .string("a"), "NS.count0": .int(1)])),
            ("a null object", set(["NS.count": .int(1), "NS.object0": .uid(0), "NS.count0": .int(1)])),
            ("an index with a leading zero", set(["NS.count": .int(1), "NS.object00": .uid(3), "NS.count0": .int(1)])),
        ]
        for (what, bytes) in cases {
            expectRejected(.notKeyedArchive, "an NSCountedSet of \(what)") { _ = try KeyedUnarchiver.unarchiveValue(bytes) }
        }
        let grown = peakResidentKiB() - before
        #expect(grown < 64 * 1024, "peak memory grew by \(grown) KiB")
    }

    // R22: a property-list dictionary whose key is a container (an array, a set, a dictionary)
    // is refused by the reader when it reads the dictionary, as CoreFoundation's reader refuses
    // it (`_plistIsPrimitive`): whichever way its references point, and at any depth; in a keyed
    // archive's raw graph too.
    @Test func containerKeysAreRejected() throws {
        for (what, key) in [("an array", PropertyList.array([.int(1)])), ("a set", .set([])), ("a dictionary", .dictionary(["k": .int(1)]))] {
            let top = PropertyList.dictionary([PropertyListPair(.string("ok"), .int(1)), PropertyListPair(key, .bool(true))])
            expectRejected(.corrupt, "a dictionary keyed by \(what)") { _ = try BinaryPropertyList.decode(BinaryPropertyList.encode(top)) }
            let nested = PropertyList.array([.array([top])])
            expectRejected(.corrupt, "a dictionary keyed by \(what), nested") {
                _ = try BinaryPropertyList.decode(BinaryPropertyList.encode(nested))
            }
        }
        // Written by hand with the key after the dictionary (CoreFoundation's order) and before it.
        for keyFirst in [false, true] {
            var raw = RawPlist()
            if keyFirst {
                raw.add([0xA0])  // 0: the key, an empty array
                raw.add([0x08])  // 1: the value
                raw.add(raw.dict([0], [1]))  // 2: the dictionary
                raw.top = 2
            } else {
                raw.add(raw.dict([1], [2]))
                raw.add([0xA0])
                raw.add([0x08])
            }
            expectRejected(.corrupt, "an array key, \(keyFirst ? "before" : "after") its dictionary") {
                _ = try BinaryPropertyList.decode(raw.bytes())
            }
        }
        // An instance of a keyed archive keyed by an array.
        let keyed = keyedArchive([
            .dictionary([PropertyListPair(.string("$class"), .uid(2)), PropertyListPair(.array([]), .int(1)),
                         PropertyListPair(.string("NS.objects"), .array([]))]),
            classDescription("NSArray"),
        ])
        expectRejected(.corrupt, "an instance keyed by an array, in the raw graph") { _ = try KeyedArchive(bytes: keyed).object(1) }
        // Keys that are not containers are still read: an integer, data, a UID, a date.
        let primitive = PropertyList.dictionary([
            PropertyListPair(.int(1), .string("one")), PropertyListPair(.data([1]), .bool(true)),
            PropertyListPair(.uid(3), .date(1)), PropertyListPair(.date(5), .int(0)),
        ])
        #expect(try BinaryPropertyList.decode(BinaryPropertyList.encode(primitive)) == primitive)
    }
}

/// Expects the error of decoding `bytes`'s root to name each of `parts`.
func expectMessage(_ bytes: [UInt8], contains parts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try KeyedUnarchiver.unarchiveValue(bytes)
        Issue.record("accepted", sourceLocation: sourceLocation)
    } catch {
        for part in parts {
            #expect(error.message.contains(part), "'\(error.message)' does not name '\(part)'", sourceLocation: sourceLocation)
        }
    }
}
