import Testing
@testable import AmberArchive

/// Keyed archives as other writers make them, and the ones no writer makes (issue 39, item 15):
/// Foundation's other encodings are read; dates no reader takes, instance dictionaries keyed by
/// something else than strings and roots that are not references are refused by every reader
/// (the unarchiver, the raw graph `amber dump --keyed` prints), with an error naming the object.
@Suite struct ForeignKeyedArchiveTests {
    /// Reads `bytes` both ways: the unarchiver's root value, and every object of the raw graph.
    private func readBothWays(_ bytes: [UInt8]) throws(ArchiveError) -> ArchiveValue {
        let archive = try KeyedArchive(bytes: bytes)
        for u in 0 ..< archive.objectCount {
            let h = archive.plist.header(archive.objectRefs[u])
            if h.marker >> 4 == 0xD, archive.plist.lookup("$classname", in: h) != nil { continue }  // a class description
            _ = try archive.object(u)
            _ = try archive.standardObject(u)
        }
        return try KeyedUnarchiver.unarchiveValue(bytes)
    }

    // R26: Apple's Foundation and swift-corelibs-foundation build the NSIndexPathData and
    // NSRangeData of an index path or set of more than one index or range as an NSMutableData,
    // and archive it as an instance: `{$class: NSMutableData, NS.data: <bytes>}`, NS.data in
    // place, or (swift-corelibs-foundation's `_encodePropertyList`) a UID of the bytes. Each is
    // read, as are a data item and data in place.
    @Test func foundationsOtherEncodingsOfDataAreRead() throws {
        let indexes: [UInt64] = [1, 300, 70000]
        let bytes = packed(indexes)
        func path(_ data: PropertyList, _ more: [PropertyList] = []) -> [UInt8] {
            keyedArchive([instance(2, ["NSIndexPathLength": .int(3), "NSIndexPathData": data]), classDescription("NSIndexPath")] + more)
        }
        let mutable = classDescription("NSMutableData", ["NSMutableData", "NSData", "NSObject"])
        let encodings: [(String, [UInt8])] = [
            ("data in place", path(.data(bytes))),
            ("a data item", path(.uid(3), [.data(bytes)])),
            ("an NSMutableData, NS.data in place", path(.uid(3), [instance(4, ["NS.data": .data(bytes)]), mutable])),
            ("an NSMutableData, NS.data a data item", path(.uid(3), [instance(4, ["NS.data": .uid(5)]), mutable, .data(bytes)])),
            ("an NSData, NS.bytes", path(.uid(3), [instance(4, ["NS.bytes": .data(bytes)]), classDescription("NSData")])),
        ]
        for (what, archive) in encodings {
            #expect(try readBothWays(archive) == .indexPath([1, 300, 70000]), "\(what)")
        }
        // An NSMutableIndexSet as Apple's Foundation writes one of several ranges.
        let ranges = packed([3, 2, 100, 1, 1 << 33, 70000])
        let set = keyedArchive([
            instance(4, ["NSRangeCount": .int(3), "NSRangeData": .uid(2)]),
            instance(3, ["NS.data": .data(ranges)]), mutable,
            classDescription("NSMutableIndexSet", ["NSMutableIndexSet", "NSIndexSet", "NSObject"]),
        ])
        #expect(try readBothWays(set) == .indexSet([3 ..< 5, 100 ..< 101, (1 << 33) ..< (1 << 33) + 70000]))
        // NSMutableData itself, NS.data a data item.
        let data = keyedArchive([instance(2, ["NS.data": .uid(3)]), mutable, .data([9, 8, 7])])
        #expect(try readBothWays(data) == .data([9, 8, 7]))
        // What is not data is refused, naming the field; an index path whose data is itself
        // (or another index path) is refused rather than followed.
        for (what, archive) in [
            ("NS.data a string", keyedArchive([instance(2, ["NS.data": .uid(3)]), mutable, .string("x")])),
            ("NSIndexPathData an NSIndexPath", path(.uid(1))),
            ("NSIndexPathData an NSMutableData of a string", path(.uid(3), [instance(4, ["NS.data": .string("x")]), mutable])),
        ] {
            expectRejected(.notKeyedArchive, what) { _ = try readBothWays(archive) }
        }
    }

    // R22: a date that is NaN, infinite, or outside years 1 to 9999 (what the bindings' date
    // types hold; `ArchiveLimits.dates`) is refused by every reader with an error naming the
    // object and why; the first and last dates allowed read.
    @Test func datesNoReaderTakesAreRefused() throws {
        let date = classDescription("NSDate")
        let cases: [(Double, String)] = [
            (.nan, "not a number"), (.infinity, "infinite"), (-.infinity, "infinite"),
            (1e300, "outside years 1 to 9999"), (252_423_993_600, "outside years 1 to 9999"),
            (-63_113_904_001, "outside years 1 to 9999"),
        ]
        for (seconds, why) in cases {
            let instanceDate = keyedArchive([instance(2, ["NS.time": .double(seconds)]), date])
            let plainDate = keyedArchive([.date(seconds)])
            for archive in [instanceDate, plainDate] {
                do {
                    _ = try readBothWays(archive)
                    Issue.record("a date of \(seconds) seconds was read")
                } catch {
                    #expect(error.code == .notKeyedArchive)
                    #expect(error.message.contains(why) && error.message.contains("object 1"), "\(error.message)")
                }
            }
        }
        for seconds in [-63_113_904_000, 252_423_993_599, 0.5] {
            #expect(try readBothWays(keyedArchive([instance(2, ["NS.time": .double(seconds)]), date])) == .date(seconds))
        }
    }

    // R22, R26: an instance dictionary with a key that is not a string is refused by the
    // unarchiver as by the raw graph, whether the object is decoded as a value or as an object
    // of a registered class.
    @Test func instanceKeysMustBeStrings() throws {
        let intKey = keyedArchive([
            .dictionary([PropertyListPair(.string("$class"), .uid(2)), PropertyListPair(.int(7), .string("x")),
                         PropertyListPair(.string("NS.objects"), .array([]))]),
            classDescription("NSArray"),
        ])
        expectRejected(.notKeyedArchive, "an NSArray with an integer key, as a value") {
            _ = try KeyedUnarchiver.unarchiveValue(intKey)
        }
        let objectWithUIDKey = keyedArchive([
            .dictionary([PropertyListPair(.string("$class"), .uid(2)), PropertyListPair(.uid(1), .int(1))]),
            classDescription("Thing"),
        ])
        let u = try KeyedUnarchiver(bytes: objectWithUIDKey)
        do {
            _ = try u.decodeObject(forKey: "root") { _, _ in 0 }
            Issue.record("an instance with a UID key was decoded")
        } catch let error as ArchiveError {
            #expect(error.code == .notKeyedArchive && error.message.contains("object 1"), "\(error.message)")
        }
    }

    // R22, R26: an object's keys are checked the first time the unarchiver enters it, not at
    // every entry; an object refused is refused again at every entry, by each way in, and an
    // object accepted reads the same every time.
    @Test func instanceKeysAreCheckedAtEveryEntryUntilAccepted() throws {
        let archive = keyedArchive([
            .dictionary([PropertyListPair(.string("$class"), .uid(3)), PropertyListPair(.string("bad"), .uid(2)),
                         PropertyListPair(.string("good"), .uid(4))]),
            .dictionary([PropertyListPair(.string("$class"), .uid(3)), PropertyListPair(.uid(1), .int(1))]),
            classDescription("Thing"),
            instance(3, ["n": .int(7)]),
        ])
        let u = try KeyedUnarchiver(bytes: archive)
        for entry in 1 ... 3 {
            for (how, enter) in [
                ("withObject", { _ = try u.withObject(uid: 2) { _, _ in 0 } }),
                ("decodeObject", { _ = try u.withObject(uid: 1) { r, _ in try r.decodeObject(forKey: "bad") { _, _ in 0 } } }),
            ] as [(String, () throws -> Void)] {
                do {
                    try enter()
                    Issue.record("entry \(entry) by \(how): an instance with a UID key was entered")
                } catch let error as ArchiveError {
                    #expect(error.code == .notKeyedArchive && error.message.contains("object 2"), "entry \(entry) by \(how): \(error.message)")
                }
            }
            let n = try u.withObject(uid: 1) { r, _ in try r.decodeObject(forKey: "good") { g, _ in try g.decodeInt64(forKey: "n") } }
            #expect(n == 7, "entry \(entry)")
        }
    }

    // R22, R26: `unarchiveValue` reads the value under `root`, which NSKeyedArchiver (and
    // `KeyedArchiver.archive`) writes as a reference: an archive without one, or whose root is
    // a number, boolean or bytes in place, is refused as not such an archive.
    @Test func theRootMustBeAReference() throws {
        for (what, top) in [("no root", PropertyList.dictionary(["other": .uid(1)])),
                            ("a number in place", .dictionary(["root": .int(3)])),
                            ("bytes in place", .dictionary(["root": .data([1])]))]
        {
            expectRejected(.notKeyedArchive, what) { _ = try KeyedUnarchiver.unarchiveValue(keyedArchive([.string("x")], top: top)) }
        }
    }

    // R22: a binary property list object whose marker the format does not define (0x7_, 0x9_,
    // 0xB_, 0xE_, 0xF_, and 0x00 null and 0x0F fill, which no writer emits as an object) is
    // refused as corrupt, naming the marker.
    @Test func undefinedObjectMarkersAreRefused() throws {
        let good = BinaryPropertyList.encode(.array([.int(5)]))
        // The integer 5: a one-byte integer's marker, then 5.
        let at = try #require((8 ..< good.count - 1).first { good[$0] == 0x10 && good[$0 + 1] == 5 })
        for marker: UInt8 in [0x70, 0x90, 0xB0, 0xE0, 0xF0, 0x00, 0x0F, 0x34, 0x21] {
            var bytes = good
            bytes[at] = marker
            do {
                _ = try BinaryPropertyList.decode(bytes)
                Issue.record("marker 0x\(String(marker, radix: 16)) was read")
            } catch {
                #expect(error.code == .corrupt)
            }
        }
    }
}
