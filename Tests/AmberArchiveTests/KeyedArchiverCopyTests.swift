@testable import AmberArchive
import Testing

/// A keyed archive made as raw `$objects`: 1 a Node that refers to itself ("self"), to a string
/// twice ("name", "alias", the same item), to a Ref ("ref") and holds an NSArray of the string
/// and a number; 2 Node's class; 3 "hello"; 4 a Ref { index: 7 }; 5 Ref's class; 6 the array;
/// 7 NSArray's class. `$top`: root → 1.
private func sourceArchive() throws -> KeyedArchive {
    func cls(_ name: String) -> PropertyList {
        .dictionary([PropertyListPair(.string("$classname"), .string(name)),
                     PropertyListPair(.string("$classes"), .array([.string(name), .string("NSObject")]))])
    }
    let objects: [PropertyList] = [
        .string("$null"),
        .dictionary([
            PropertyListPair(.string("$class"), .uid(2)), PropertyListPair(.string("self"), .uid(1)),
            PropertyListPair(.string("name"), .uid(3)), PropertyListPair(.string("alias"), .uid(3)),
            PropertyListPair(.string("ref"), .uid(4)), PropertyListPair(.string("items"), .uid(6)),
            PropertyListPair(.string("count"), .int(2)),
        ]),
        cls("Node"),
        .string("hello"),
        .dictionary([PropertyListPair(.string("$class"), .uid(5)), PropertyListPair(.string("index"), .int(7))]),
        cls("Ref"),
        .dictionary([PropertyListPair(.string("$class"), .uid(7)), PropertyListPair(.string("NS.objects"), .array([.uid(3), .uid(0)]))]),
        cls("NSArray"),
    ]
    let top = PropertyList.dictionary([
        PropertyListPair(.string("$archiver"), .string("NSKeyedArchiver")),
        PropertyListPair(.string("$version"), .int(100000)),
        PropertyListPair(.string("$top"), .dictionary([PropertyListPair(.string("root"), .uid(1))])),
        PropertyListPair(.string("$objects"), .array(objects)),
    ])
    return try KeyedArchive(bytes: BinaryPropertyList.encode(top))
}

/// Copies the source's root into a new archive under "copy", beside a string written first (so
/// that UIDs differ from the source's), and reads the result back.
private func copied(
    rewrite: (String, [(key: String, value: PropertyList)]) throws -> KeyedArchiver.CopiedInstance = { .fields($1) }
) throws -> (archive: KeyedArchive, root: Int) {
    let source = try sourceArchive()
    let archiver = KeyedArchiver()
    archiver.encode("first", forKey: "first")
    let uid = try archiver.copyObject(1, from: source, rewrite: rewrite)
    archiver.encode(stringUID: uid, forKey: ArchiveKey("copy"))
    let archive = try KeyedArchive(bytes: try archiver.finishEncoding())
    let root = try #require(try archive.topEntries().first { $0.key == "copy" }?.uid)
    return (archive, root)
}

/// The fields of an instance, by key.
private func fields(_ archive: KeyedArchive, _ uid: Int) throws -> [String: PropertyList] {
    guard case .instance(_, _, let fields) = try archive.object(uid) else { return [:] }
    return Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
}

@Suite struct KeyedArchiverCopyTests {
    // R35 (carried records): a graph is copied whole; a cycle stays a cycle, a shared item shared.
    @Test func testCopyKeepsCyclesSharingAndValues() throws {
        let (archive, root) = try copied()
        guard case .instance(let className, _, _) = try archive.object(root) else {
            Issue.record("the copy is not an instance")
            return
        }
        #expect(className == "Node")
        let f = try fields(archive, root)
        #expect(f["self"] == .uid(UInt64(root)))
        #expect(f["name"] == f["alias"])
        guard case .uid(let name)? = f["name"] else { Issue.record("no name"); return }
        #expect(try archive.object(Int(name)) == .value(.string("hello")))
        #expect(f["count"] == .int(2))
        guard case .uid(let ref)? = f["ref"] else { Issue.record("no ref"); return }
        #expect(try fields(archive, Int(ref))["index"] == .int(7))
        guard case .uid(let items)? = f["items"], case .array(let members)? = try fields(archive, Int(items))["NS.objects"] else {
            Issue.record("no items")
            return
        }
        #expect(members == [.uid(name), .uid(0)])
    }

    // R35: the rewrite changes an instance's fields, or makes it null where it is referred to.
    @Test func testRewriteChangesOrNullsAnInstance() throws {
        let renumbered = try copied { className, fields in
            guard className == "Ref" else { return .fields(fields) }
            return .fields(fields.map { (key: $0.key, value: $0.key == "index" ? PropertyList.int(2) : $0.value) })
        }
        guard case .uid(let ref)? = try fields(renumbered.archive, renumbered.root)["ref"] else { Issue.record("no ref"); return }
        #expect(try fields(renumbered.archive, Int(ref))["index"] == .int(2))

        let nulled = try copied { className, fields in className == "Ref" ? .null : .fields(fields) }
        #expect(try fields(nulled.archive, nulled.root)["ref"] == .uid(0))
    }

    // R22: a UID out of range in the source is an error, and the archive can still be finished.
    @Test func testBadSourceUIDThrowsAndLeavesAFinishableArchive() throws {
        let archiver = KeyedArchiver()
        #expect(throws: ArchiveError.self) { try archiver.copyObject(99, from: try sourceArchive()) }
        archiver.encode("after", forKey: "after")
        #expect(try KeyedArchive(bytes: try archiver.finishEncoding()).topEntries().map(\.key) == ["after"])
    }
}
