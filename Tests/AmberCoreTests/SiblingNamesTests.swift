import Testing
@testable import AmberCore

/// `SiblingNames`, the components taken among one parent's preserved objects (SPEC R3), and the
/// duplicates the walk finds with it: each named with the object it kept, whichever of the
/// parent's views, children or presented controller that is.
@Suite struct SiblingNamesTests {
    // R3
    @Test func takesEachComponentOnceInTheListAndInTheSet() {
        var names = SiblingNames()
        func take(_ identifier: String, position: Int = 0) -> Bool { names.insert(PathComponent(identifier, position: position)) }
        let count = SiblingNames.listLimit * 3
        for i in 0 ..< count {
            #expect(take("c\(i)"), "first time \(i)")
            #expect(!take("c\(i)"), "second time \(i)")
            // The same identifier at another position of a stack is another component.
            #expect(take("c\(i)", position: 1), "position 1, \(i)")
        }
        for i in 0 ..< count { #expect(!take("c\(i)"), "after all, \(i)") }
        names.removeAll()
        #expect(take("c0"))
        #expect(take("c\(count - 1)"))
    }

    // R3: a view, a child and a presented controller with one identifier: the first in the
    // walk's order (views, children, presented) is kept, and the others name it.
    @Test func aDuplicateNamesTheObjectKeptAmongViewsChildrenAndPresented() throws {
        let engine = makeEngine()
        let root = controller("root")
        try engine.addRoot(root)
        try root.addView(view("same", "FirstView"))
        try root.addChild(controller("same", "SecondController"))
        try root.present(controller("same", "ThirdController"))
        let report = try engine.preserve()
        let duplicates = report.entries.filter { if case .duplicatePath? = $0.leftOut { true } else { false } }
        #expect(duplicates.map(\.className) == ["SecondController", "ThirdController"])
        for d in duplicates { #expect(d.leftOut == .duplicatePath(kept: "/root/same (FirstView)")) }
    }

    // R3: past the list's limit, in the set, a duplicate still names the object kept.
    @Test func aDuplicateAmongManySiblingsNamesTheObjectKept() throws {
        let engine = makeEngine()
        let root = controller("root")
        try engine.addRoot(root)
        for i in 0 ..< SiblingNames.listLimit * 2 { try root.addChild(controller("child\(i)", "Child\(i)")) }
        try root.addChild(controller("child20", "Late"))
        let report = try engine.preserve()
        let duplicate = try #require(report.entries.first { $0.leftOut != nil })
        #expect(duplicate.className == "Late")
        #expect(duplicate.leftOut == .duplicatePath(kept: "/root/child20 (Child20)"))
    }

    // R3: two roots with one identifier: the second names the first.
    @Test func aDuplicateRootNamesTheRootKept() throws {
        let engine = makeEngine()
        try engine.addRoot(controller("window", "FirstWindow"))
        try engine.addRoot(controller("window", "SecondWindow"))
        let report = try engine.preserve()
        let duplicate = try #require(report.entries.first { $0.leftOut != nil })
        #expect(duplicate.className == "SecondWindow")
        #expect(duplicate.leftOut == .duplicatePath(kept: "/window (FirstWindow)"))
    }
}
