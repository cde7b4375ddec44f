@testable import AmberCore
import Testing

@Suite struct ScaleTests {
    // R2 R12: a wide tree of many objects round-trips in one pass (no timing asserted).
    @Test func manyObjectsRoundTrip() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root", stack: true)
        try engine.addRoot(root)
        for i in 0 ..< 500 {
            let c = controller("item")
            c.callbacks.encode = { _, coder in try coder.encode(Int64(i), forKey: "i") }
            try root.addChild(c)
            for j in 0 ..< 20 {
                let v = view("v\(j)")
                v.callbacks.encode = { _, coder in try coder.encode(Int64(j), forKey: "j") }
                try c.addView(v)
            }
        }
        let saved = try engine.preserve()
        #expect(saved.objectCount == 1 + 500 * 21)

        let next = makeEngine(store)
        var sum: Int64 = 0
        next.delegate.objectForPath = { path, _ in
            let o = RestorableObject(kind: path.count == 3 ? .view : .controller, className: path.count == 3 ? "ScrollView" : "ViewController")
            if path.count == 1 { o.isStackContainer = true }
            o.callbacks.decode = { _, coder in
                sum += (try? coder.decodeInt64(forKey: "i")) ?? 0
                sum += (try? coder.decodeInt64(forKey: "j")) ?? 0
            }
            return o
        }
        let report = next.restore()
        #expect(report.count(of: .restored) == saved.objectCount)
        #expect(sum == Int64(499 * 500 / 2) + Int64(500 * (19 * 20 / 2)))
        let newRoot = try #require(report[0].object)
        #expect(newRoot.children.count == 500)
        #expect(newRoot.children[1].restorationPath == ["root", "item#1"])
    }
}
