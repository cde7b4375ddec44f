@testable import AmberCore
import Testing

/// A chain of `depth` controllers under `root` (the root not counted), each the child of the
/// one above, or every third one presented by it, so that both relations nest; identifiers
/// repeat (`c0`, `c1`, `c2`), as the screens of a real app do. `level`: the level of the
/// chain's first object below the root of the whole chain (`root` is at `level - 1`).
@discardableResult
private func chain(under root: RestorableObject, depth: Int, from level: Int = 0) throws -> RestorableObject {
    var top = root
    for i in level ..< level + depth {
        let c = controller("c\(i % 3)")
        if i % 3 == 2 { try top.present(c) } else { try top.addChild(c) }
        top = c
    }
    return top
}

/// The restoration path of the object `levels` below a root named "root" in a `chain`.
private func chainPath(levels: Int) -> [String] {
    ["root"] + (0 ..< levels).map { "c\($0 % 3)" }
}

/// How deep a host tree the tests build: far deeper than anything Amber records (512 levels,
/// SPEC R22), and deep enough that anything recursive over the tree, or anything that costs
/// the depth per object (a path per object), exhausts the stack or the memory.
private let hostDepth = 100_000

/// A host tree far deeper than an archive may be (SPEC R1, R2, R3, R10, R22): building it,
/// preserving it, finding its objects at launch, claiming late, and freeing it are each linear
/// in the number of objects and need no stack in proportion to the depth. No time is asserted:
/// before the change, a launch over such a tree allocated a path per object (100,000 levels:
/// 5·10⁹ path components) and aborted, and freeing the tree recursed once per level.
@Suite struct DeepTreeTests {
    // R1 R2 R3 R10 R22: a 100,000-deep host tree launches, restores the 512 levels an archive
    // holds by implicit lookup, preserves again, and is freed with its engine.
    @Test func testR10AHundredThousandDeepHostTreeLaunchesRestoresAndPreserves() throws {
        let store = MemoryStore()
        do {
            let engine = makeEngine(store)
            let root = controller("root")
            try engine.addRoot(root)
            let bottom = try chain(under: root, depth: hostDepth)
            // R3: the path of the deepest object, made without recursion.
            #expect(bottom.restorationPath?.count == hostDepth + 1)
            let saved = try engine.preserve()
            #expect(saved.objectCount == 512)
            #expect(saved.leftOut.count == 1)
            #expect(saved.leftOut.first?.leftOut == .tooDeep(limit: 512, below: hostDepth + 1 - 513))
        }

        // The next launch: the host builds the same tree before restoration, and each record
        // finds its object there (SPEC R10 step 3).
        let next = makeEngine(store)
        let root = controller("root")
        let report = next.launch {
            try? next.addRoot(root)
            _ = try? chain(under: root, depth: hostDepth)
        }
        #expect(report.count(of: .restored) == 512)
        #expect(report.records.map(\.path) == (0 ..< 512).map { chainPath(levels: $0) })
        // Each record found the host's object with its path, and placed nothing.
        #expect(report.records.first?.object === root)
        #expect(report.records.allSatisfy { $0.object?.restorationPath == $0.path })
        #expect(root.children.count == 1 && next.roots.count == 1)

        // Preserved again from the restored engine.
        #expect(try next.preserve().objectCount == 512)
    }

    // R4 R22: a reference to an object deeper than an archive may hold is refused by its
    // depth, found by walking no further up than the limit, and the rest is saved.
    @Test func testR4AReferenceDeeperThanTheLimitIsRefused() throws {
        let engine = makeEngine()
        let root = controller("root")
        try engine.addRoot(root)
        let bottom = try chain(under: root, depth: hostDepth)
        var refusal: AmberError?
        root.callbacks.encode = { _, coder in
            do throws(AmberError) { try coder.encodeReference(to: bottom, forKey: "bottom") } catch {
                refusal = error
                throw error
            }
        }
        let report = try engine.preserve()
        #expect(refusal?.code == .limitExceeded)
        #expect(refusal?.message == "the referenced object 'c0' (ViewController) is more than 512 levels deep; the limit is 512")
        guard case .encodeFailed = report.leftOut.first?.leftOut else {
            Issue.record("the root was not left out: \(report)")
            return
        }
    }

    // R35 R22: an object created after launch with a 100,000-deep subtree claims its kept
    // record and those under it.
    @Test func testR35ADeepSubtreeClaimsItsKeptRecords() throws {
        let store = MemoryStore()
        do {
            let engine = makeEngine(store)
            let root = controller("root")
            try engine.addRoot(root)
            try chain(under: root, depth: 600)
            #expect(try engine.preserve().objectCount == 512)
        }
        let engine = makeEngine(store)
        try engine.keepUnclaimed(milliseconds: 60_000)
        let root = controller("root")
        let report = engine.launch { try? engine.addRoot(root) }
        #expect(report.count(of: .notFound) == 511)

        let late = controller("c0")
        try chain(under: late, depth: hostDepth, from: 1)
        try root.addChild(late)
        #expect(try engine.restorePending(late) == 511)
        #expect(!engine.hasUnclaimedRecords)
    }

    // R1: a tree built bottom up (each new parent takes the deep tree built so far) checks for
    // cycles without walking it, and still refuses a cycle at any depth.
    @Test func testR1ADeepTreeBuiltBottomUpChecksCyclesWithoutRecursion() throws {
        var top = controller("c")
        let bottom = top
        for _ in 0 ..< hostDepth {
            let parent = controller("c")
            try parent.addChild(top)
            top = parent
        }
        #expect(bottom.restorationPath?.count == hostDepth + 1)
        #expect(throws: AmberError.self) { try bottom.addChild(top) }
        #expect(throws: AmberError.self) { try bottom.present(top) }
        #expect(bottom.children.isEmpty && top.parent == nil)
    }

    // R1: a tree built top down, each controller given its view and a child before it is
    // attached under the deepest one (as a host makes a screen, then pushes it): the cycle
    // check of each attachment looks at the little under the new object, not at the ancestors
    // above where it goes.
    @Test func testR1ADeepTreeOfReadyMadeScreensChecksCyclesByTheSmallerSide() throws {
        let root = controller("root")
        var top = root
        for _ in 0 ..< hostDepth / 2 {
            let screen = controller("screen")
            try screen.addView(view("content"))
            let detail = controller("detail")
            try screen.addChild(detail)
            try top.addChild(screen)
            top = detail
        }
        #expect(top.restorationPath?.count == hostDepth + 1)
        // Cycles are still refused, at any depth, from either side.
        #expect(throws: AmberError.self) { try top.addChild(root) }
        let screen = try #require(top.parent)
        #expect(throws: AmberError.self) { try top.present(screen) }
        #expect(root.parent == nil && top.children.isEmpty && top.presented == nil)
    }

    // R1: dropping the last reference to the root of a deep tree frees the tree without a
    // recursion per level (each object's deinit would otherwise release the next).
    @Test func testR1ADeepTreeIsFreedWithoutRecursion() throws {
        weak var bottom: RestorableObject?
        do {
            let root = controller("root")
            bottom = try chain(under: root, depth: hostDepth)
            let view = RestorableObject(kind: .view, className: "V", restorationIdentifier: "v")
            try #require(bottom).addView(view)
            #expect(bottom != nil)
        }
        #expect(bottom == nil)
    }
}
