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
        // R10: the delegate is asked for controllers only; each makes its views, as a view
        // controller does, and the engine finds them there.
        let decode: (RestorableObject, StateDecoder) throws -> Void = { _, coder in
            sum += (try? coder.decodeInt64(forKey: "i")) ?? 0
            sum += (try? coder.decodeInt64(forKey: "j")) ?? 0
        }
        next.delegate.objectForPath = { path, coder in
            #expect(coder.recordKind == .controller)
            let o = RestorableObject(kind: .controller, className: "ViewController")
            if path.count == 1 { o.isStackContainer = true }
            o.callbacks.decode = decode
            if path.count == 2 {
                for j in 0 ..< 20 {
                    let v = RestorableObject(kind: .view, className: "ScrollView")
                    v.restorationIdentifier = "v\(j)"
                    v.callbacks.decode = decode
                    try? o.addView(v)
                }
            }
            return o
        }
        let report = next.restore()
        #expect(report.count(of: .restored) == saved.objectCount)
        #expect(sum == Int64(499 * 500 / 2) + Int64(500 * (19 * 20 / 2)))
        let newRoot = try #require(report[0].object)
        #expect(newRoot.children.count == 500)
        // R3: identifiers are never rewritten; the position tells the children apart.
        #expect(newRoot.children[1].restorationPath == ["root", "item"])
        #expect(newRoot.children[1].restorationComponents == [PathComponent("root"), PathComponent("item", position: 1)])
        #expect(report[2 + 20].position == 1 && report[2 + 20].path == ["root", "item"])
    }
}
