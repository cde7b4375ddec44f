import Testing
@testable import AmberCore

/// `SiblingNames`, the components taken among one parent's preserved objects (SPEC R3), and the
/// duplicates the walk finds with it: each named with the object it kept, a view or a child of
/// the parent, or an object recorded by reference that holds the path.
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

    // R3, R4: two siblings whose path an object recorded by reference already holds: both are
    // duplicates of that object, the second too (the first sibling, left out, kept nothing).
    @Test func siblingsOfAPathTakenByAReferenceBothNameIt() throws {
        let engine = makeEngine()
        let window = controller("window")
        try engine.addRoot(window)
        // /window/tab/item, reached through a controller without an identifier.
        let hidden = controller(nil), otherTab = controller("tab"), item = controller("item", "ReferencedItem")
        try window.addChild(hidden)
        try hidden.addChild(otherTab)
        try otherTab.addChild(item)
        // /window/tab, another way, with two children that would be /window/tab/item.
        let unnamed = controller(nil), tab = controller("tab", "Tab")
        try window.addChild(unnamed)
        try unnamed.addChild(tab)
        try tab.addChild(controller("item", "FirstItem"))
        try tab.addChild(controller("item", "SecondItem"))
        window.callbacks.encode = { _, coder in
            try coder.encodeReference(to: item, forKey: "item")
            try coder.encodeReference(to: tab, forKey: "tab")
        }
        let report = try engine.preserve()
        let duplicates = report.entries.filter { if case .duplicatePath? = $0.leftOut { true } else { false } }
        #expect(duplicates.map(\.className) == ["FirstItem", "SecondItem"])
        for d in duplicates { #expect(d.leftOut == .duplicatePath(kept: "/window/tab/item (ReferencedItem)")) }
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
