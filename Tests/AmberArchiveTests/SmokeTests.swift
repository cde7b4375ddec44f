import Testing
@testable import AmberArchive

final class Node {
    var name = ""
    var children: [Node] = []
    weak var parent: Node?
}

@Suite struct SmokeTests {
    @Test func plistRoundTrip() throws {
        let v: PropertyList = .dictionary([
            "a": .int(-5), "b": .uint(UInt64.max), "c": .double(1.5), "d": .float(2.5),
            "e": .string("héllo"), "f": .data([1, 2, 3]), "g": .date(12.5), "h": .uid(300),
            "i": .array([.bool(true), .bool(false), .string("héllo"), .string(String(repeating: "x", count: 40))]),
            "j": .set([.int(1), .int(70000), .int(1 << 40)]),
        ])
        let bytes = BinaryPropertyList.encode(v)
        #expect(try BinaryPropertyList.decode(bytes) == v)
    }

    @Test func keyedRoundTrip() throws {
        let v: ArchiveValue = .dictionary([
            "s": .string("x"), "n": .int(3), "p": .indexPath([1, 300, 70000]), "p1": .indexPath([4]), "p0": .indexPath([]),
            "d": .date(100), "u": .uuid(Array(0 ..< 16)), "arr": .array([.null, .double(2), .set([.string("q")])]),
        ])
        let bytes = try KeyedArchiver.archive(v)
        #expect(try KeyedUnarchiver.unarchiveValue(bytes) == v)
    }

    @Test func objectGraph() throws {
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "Node",
            encode: { obj, ar in
                let n = obj as! Node
                ar.encode(n.name, forKey: "name")
                try ar.encodeObjects(n.children, forKey: "children")
                try ar.encodeObject(n.parent, forKey: "parent")
            },
            make: { _ in Node() },
            decode: { obj, un in
                let n = obj as! Node
                n.name = try un.decodeString(forKey: "name")
                n.children = try un.decodeObjects(forKey: "children").map { $0 as! Node }
                n.parent = try un.decodeObject(forKey: "parent") as? Node
            }), for: Node.self)
        let root = Node(); root.name = "root"
        for i in 0 ..< 3 { let c = Node(); c.name = "c\(i)"; c.parent = root; root.children.append(c) }
        let ar = KeyedArchiver(registry: registry)
        try ar.encodeObject(root, forKey: "root")
        let bytes = try ar.finishEncoding()
        let un = try KeyedUnarchiver(bytes: bytes, registry: registry)
        let back = try #require(un.decodeObject(forKey: "root") as? Node)
        #expect(back.name == "root")
        #expect(back.children.map(\.name) == ["c0", "c1", "c2"])
        #expect(back.children.allSatisfy { $0.parent === back })
    }
}
