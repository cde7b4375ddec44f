// The seeds of the `reader` harness that the library itself writes (`amber-fuzz make-seeds`
// writes them to DIR/reader/ beside the plistlib-made ones of Fuzz/make_seeds.py): property
// lists and keyed archives with what plistlib does not write.

import AmberArchive
#if canImport(Glibc)
import Glibc
#endif

final class SeedNode {
    var name = ""
    var children: [SeedNode] = []
    weak var parent: SeedNode?
}

enum ReaderSeeds {
    /// Writes the seeds into the existing directory `dir`.
    static func write(to dir: String) throws {
        func write(_ name: String, _ bytes: [UInt8]) {
            precondition(bytes.count < 4096, "\(name) is \(bytes.count) bytes")
            guard let f = fopen(dir + "/" + name, "wb") else { fatalError("cannot write \(name)") }
            precondition(fwrite(bytes, 1, bytes.count, f) == bytes.count)
            fclose(f)
        }

        // Property lists with what plistlib does not write: 4-byte reals, sets, non-string keys.
        write("lib-plist-all-types.bplist", BinaryPropertyList.encode(.dictionary([
            "bool": .bool(true), "int": .int(-7), "uint": .uint(UInt64.max), "float": .float(2.5),
            "double": .double(-1.25), "date": .date(86400), "data": .data([0, 1, 2, 0xFF]),
            "ascii": .string("plain"), "utf16": .string("h\u{e9}llo \u{1F600}"), "uid": .uid(300),
            "array": .array([.int(1), .int(70000), .int(1 << 40)]),
            "set": .set([.string("a"), .string("b")]),
        ])))
        write("lib-plist-non-string-keys.bplist", BinaryPropertyList.encode(.dictionary([
            PropertyListPair(.int(1), .string("one")),
            PropertyListPair(.array([.bool(false)]), .float(.nan)),
            PropertyListPair(.uid(2), .set([])),
        ])))

        // Keyed archives of values.
        write("lib-archive-values.bplist", try KeyedArchiver.archive(.dictionary([
            "s": .string("x"), "n": .int(3), "u": .uint(UInt64.max), "b": .bool(true), "r": .double(0.5),
            "p": .indexPath([1, 300, 70000]), "p1": .indexPath([4]), "p0": .indexPath([]),
            "d": .date(100), "id": .uuid(Array(0 ..< 16)), "bytes": .data([9, 8, 7]),
            "arr": .array([.null, .double(2), .set([.string("q")]), .string("x")]),
        ])))
        write("lib-archive-nested-arrays.bplist", try KeyedArchiver.archive(
            .array([.array([.array([.int(1)]), .dictionary(["k": .null])]), .string("\u{65e5}"),
                    .dictionary([ArchiveValuePair(.int(1), .string("one")), ArchiveValuePair(.array([]), .set([.int(2)]))])])
        ))

        // Keyed archives of objects: registered classes, nested objects, escaped keys.
        let registry = ArchiveClassRegistry()
        try registry.register(ArchiveClass(
            name: "AmberFuzzNode",
            encode: { object, archiver in
                let node = object as! SeedNode
                archiver.encode(node.name, forKey: "name")
                try archiver.encodeObjects(node.children, forKey: "children")
                try archiver.encodeObject(node.parent, forKey: "parent")
            },
            make: { _ in SeedNode() }), for: SeedNode.self)
        let root = SeedNode()
        root.name = "root"
        for i in 0 ..< 2 {
            let child = SeedNode()
            child.name = "c\(i)"
            child.parent = root
            root.children.append(child)
        }
        let archiver = KeyedArchiver(registry: registry)
        try archiver.encodeObject(root, forKey: "root")
        archiver.encode("top level string", forKey: "$escaped")
        archiver.encode(Int64(-3), forKey: "count")
        archiver.encode(true, forKey: "flag")
        archiver.encode(2.75, forKey: "ratio")
        archiver.encode(bytes: [1, 2, 3], forKey: "bytes")
        archiver.encode(date: 12.5, forKey: "when")
        archiver.encode(indexPath: [0, 5], forKey: "path")
        archiver.encodeNull(forKey: "nothing")
        archiver.encodeObject(forKey: "custom", className: "MyWidget", classes: ["MyWidget", "NSView", "NSObject"]) { a in
            a.encode("w", forKey: "title")
            a.encodeObject(forKey: "inner", className: "MyInner") { b in b.encode(Int64(1), forKey: "depth") }
        }
        write("lib-archive-objects.bplist", try archiver.finishEncoding())
    }
}
