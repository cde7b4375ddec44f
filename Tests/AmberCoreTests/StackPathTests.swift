@testable import AmberCore
import Testing

/// Every component of a path carries its own stack position (SPEC R3): the child `X` of the
/// first `A` of a navigation stack and the child `X` of the second `A` are told apart in the
/// preservation report, the restoration report, the text of a path, and what the restoration
/// class and the delegate are given (SPEC R10, R16, R28). UIKit's container "adds information
/// based on each child's position in the stack".
@Suite struct StackPathTests {
    /// nav (a stack) → A → X, A → X: the two X save which they are.
    private func twoScreens(_ engine: Engine) throws -> (nav: RestorableObject, xs: [RestorableObject]) {
        let nav = controller("nav", stack: true)
        try engine.addRoot(nav)
        var xs: [RestorableObject] = []
        for which in ["first", "second"] {
            let a = controller("A", "Screen"), x = controller("X", "Panel")
            x.restorationClassName = "Panels"
            try nav.addChild(a)
            try a.addChild(x)
            saving(x, which)
            xs.append(x)
        }
        return (nav, xs)
    }

    private func positions(_ path: [PathComponent]) -> [Int] { path.map(\.position) }

    // R3, R28: the live objects' paths and the preservation report's entries differ in the
    // position of their middle component; the text of a path shows every position.
    @Test func thePreservationReportTellsTheTwoApart() throws {
        let engine = makeEngine()
        let (_, xs) = try twoScreens(engine)
        #expect(xs.map { PathComponent.joined($0.restorationComponents!) } == ["nav/A/X", "nav/A[1]/X"])
        let report = try engine.preserve()
        let panels = report.entries.filter { $0.className == "Panel" }
        #expect(panels.map { positions($0.path) } == [[0, 0, 0], [0, 1, 0]])
        #expect(panels.map(\.pathDescription) == ["/nav/A/X", "/nav/A[1]/X"])
    }

    // R10, R16: the restoration class and the delegate read each component's position from
    // the decoder, and the report's records carry them.
    @Test func lookupCallbacksAndTheReportTellTheTwoApart() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        _ = try twoScreens(engine)
        try engine.preserve()

        let next = makeEngine(store)
        let log = Log()
        let nav = controller("nav", stack: true)
        try next.addRoot(nav)
        var askedForScreens: [[Int]] = []
        var askedForPanels: [[Int]] = []
        next.delegate.objectForPath = { path, coder in
            guard path.count > 1 else { return nil }  // the stack is found where it is
            askedForScreens.append(positions(coder.restorationComponents))
            #expect(coder.restorationComponents.map(\.identifier) == path)
            return controller(path.last, "Screen")
        }
        try next.registerRestorationClass(name: "Panels") { path, coder in
            askedForPanels.append(positions(coder.restorationComponents))
            #expect(coder.restorationComponents.map(\.identifier) == path)
            let x = controller(path.last, "Panel")
            saving(x, "", log: log)
            return x
        }
        let report = next.restore()
        #expect(askedForScreens == [[0, 0], [0, 1]])
        #expect(askedForPanels == [[0, 0, 0], [0, 1, 0]])
        #expect(report.count(of: .restored) == 5, "\(report)")
        #expect(log.entries.filter { $0.hasPrefix("decode") } == ["decode X=first", "decode X=second"])
        let panels = report.records.filter { $0.className == "Panel" }
        #expect(panels.map { positions($0.components) } == [[0, 0, 0], [0, 1, 0]])
        #expect(report.description.contains("/nav/A[1]/X"))
        // The objects restored stand where their records were.
        #expect(nav.children.map { PathComponent.joined($0.children[0].restorationComponents!) } == ["nav/A/X", "nav/A[1]/X"])
    }
}
