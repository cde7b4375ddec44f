// The seed corpus of the `unarchiver` harness (amber-fuzz make-seeds writes it to
// Fuzz/corpus/unarchiver/): archives written with amber_archiver_* and the harness's own
// registry (UnarchiverHarness.swift), so that the fuzzer starts from every shape the harness
// reads: top-level values, a root object, an array of objects, nesting, cycles, a subclass, a
// class without make, a long chain.

import CAmber

enum UnarchiverSeeds {
    /// A seed: its name and what it encodes on the top level of a fresh archiver.
    typealias Seed = (name: String, encode: (OpaquePointer) -> CInt)

    static func node(_ className: String = "Node", _ name: String, value: Int64 = 0) -> HostNode {
        let node = HostObjects.make(className)
        node.name = name
        node.value = value
        node.flag = value % 2 == 1
        node.weight = Double(value) / 4
        node.when = 1e9 + Double(value)
        node.data = Array(0 ..< UInt8(truncatingIfNeeded: value % 16))
        return node
    }

    static func encodeRoot(_ archiver: OpaquePointer, _ root: HostNode) -> CInt {
        amber_archiver_encode_object(archiver, "root", root.className, root.address)
    }

    static func encodeItems(_ archiver: OpaquePointer, _ items: [HostNode]) -> CInt {
        let addresses = items.map { UnsafeRawPointer($0.address) as UnsafeRawPointer? }
        return amber_archiver_encode_object_array(archiver, "items", items[0].className, addresses, addresses.count)
    }

    nonisolated(unsafe) static let seeds: [Seed] = [
        ("empty", { _ in 0 }),
        ("values", { archiver in CodingCallbacks.encodeFields(node("Node", "Top level \u{1F43B}", value: 7), archiver) }),
        ("node", { archiver in encodeRoot(archiver, node("Node", "Chair", value: 50)) }),
        ("leaf-root", { archiver in encodeRoot(archiver, node("Leaf", "Lamp", value: 12)) }),
        ("chain-and-items", { archiver in
            let a = node("Node", "a", value: 1), b = node("Node", "b", value: 2), c = node("Leaf", "c", value: 3)
            a.next = b.address
            b.next = c.address
            let status = encodeRoot(archiver, a)
            return status != 0 ? status : encodeItems(archiver, [node("Leaf", "x", value: 4), node("Leaf", "y", value: 5), c])
        }),
        ("cycle", { archiver in
            let parent = node("Node", "parent", value: 8)
            let children = [node("Node", "first", value: 9), node("Node", "second", value: 10)]
            parent.children = children.map(\.address)
            for child in children { child.parent = parent.address }
            children[0].next = children[1].address
            return encodeRoot(archiver, parent)
        }),
        ("sealed", { archiver in
            let root = node("Node", "holder", value: 11)
            root.next = node("Sealed", "sealed").address
            let status = encodeRoot(archiver, root)
            return status != 0 ? status : encodeItems(archiver, [node("Sealed", "s1"), node("Sealed", "s2")])
        }),
        ("chain-100", { archiver in
            let chain = (0 ..< 100).map { node("Node", "link \($0)", value: Int64($0)) }
            for (a, b) in zip(chain, chain.dropFirst()) { a.next = b.address }
            return encodeRoot(archiver, chain[0])
        }),
    ]

    /// The archive of a seed.
    static func archive(_ seed: Seed) throws -> [UInt8] {
        defer { HostObjects.releaseAll() }
        var archiver: OpaquePointer?
        guard amber_archiver_new(&archiver, UnarchiverHarness.registry) == 0, let archiver else {
            throw HarnessError("amber_archiver_new: \(String(cString: amber_error_last()))")
        }
        defer { amber_archiver_free(archiver) }
        guard seed.encode(archiver) == 0 else { throw HarnessError("seed \(seed.name): \(String(cString: amber_error_last()))") }
        var buffer = amber_buf()
        guard amber_archiver_finish(&buffer, archiver) == 0 else {
            throw HarnessError("seed \(seed.name): \(String(cString: amber_error_last()))")
        }
        defer { amber_buf_dispose(&buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer.ptr, count: buffer.size))
    }

    /// Writes DIR/unarchiver/.
    static func write(to directory: String) throws -> Int {
        let dir = directory + "/unarchiver"
        try Files.makeDirectory(dir)
        for seed in seeds {
            try Files.write("\(dir)/\(seed.name)", try archive(seed))
        }
        return seeds.count
    }
}
