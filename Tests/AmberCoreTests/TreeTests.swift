@testable import AmberCore
import Testing

@Suite struct TreeTests {
    // R1
    @Test func kindsAndRelations() throws {
        let nav = controller("nav")
        let list = controller("list")
        let table = view("table")
        let source = plain("source")
        try nav.addChild(list)
        try list.addView(table)
        try source.setRestorationParent(list)
        #expect(list.parent === nav && list.relation == .child)
        #expect(table.parent === list && table.relation == .view)
        #expect(source.restorationParent === list)
        #expect(list.restorationChildren.count == 1)
        // UIKit does not join these kinds.
        #expect(throws: AmberError.self) { try nav.addChild(table) }
        #expect(throws: AmberError.self) { try table.addView(view("x")) }
        #expect(throws: AmberError.self) { try list.setRestorationParent(nav) }
        #expect((try? nav.present(table)) == nil)
    }

    // R1
    @Test func addingMovesAndCyclesAreRefused() throws {
        let a = controller("a"), b = controller("b"), c = controller("c")
        try a.addChild(c)
        try b.addChild(c)
        #expect(a.children.isEmpty)
        #expect(b.children.count == 1 && c.parent === b)
        try c.addChild(a)
        let error = #expect(throws: AmberError.self) { try a.addChild(b) }  // b → c → a → b
        #expect(error?.code == .invalidArgument)
        #expect(a.children.isEmpty)
        #expect(throws: AmberError.self) { try a.addChild(a) }
        let p1 = plain("p1"), p2 = plain("p2")
        try p1.setRestorationParent(p2)
        #expect(throws: AmberError.self) { try p2.setRestorationParent(p1) }
    }

    // R1
    @Test func presentingAndDismissing() throws {
        let a = controller("a"), m = controller("m"), n = controller("n")
        try a.present(m)
        #expect(a.presented === m && m.presentingObject === a)
        let error = #expect(throws: AmberError.self) { try a.present(n) }
        #expect(error?.code == .misuse)
        a.dismissPresented()
        #expect(a.presented == nil && m.parent == nil && m.relation == .none)
    }

    // R1
    @Test func parentsAndPlainObjectsAreHeldWeakly() throws {
        let child = controller("child")
        do {
            let parent = controller("parent")
            try parent.addChild(child)
            #expect(child.parent != nil)
        }
        #expect(child.parent == nil)
        let owner = controller("owner")
        do {
            let p = plain("p")
            try p.setRestorationParent(owner)
            #expect(owner.restorationChildren.count == 1)
        }
        #expect(owner.restorationChildren.isEmpty)
    }

    // R1: every pointer up reads nil once its parent is gone, whatever the relation, and the
    // object can be placed again (the pointer up does not keep the parent alive).
    @Test func pointersUpReadNilOnceTheParentIsGone() throws {
        let child = controller("child"), modal = controller("modal"), table = view("table")
        let source = plain("source")
        weak var gone: RestorableObject?
        do {
            let parent = controller("parent")
            gone = parent
            try parent.addChild(child)
            try parent.present(modal)
            try parent.addView(table)
            try source.setRestorationParent(parent)
            #expect(child.parent === parent && modal.presentingObject === parent)
            #expect(table.parent === parent && source.restorationParent === parent)
        }
        #expect(gone == nil)
        #expect(child.parent == nil && modal.parent == nil && table.parent == nil && source.parent == nil)
        #expect(modal.presentingObject == nil && source.restorationParent == nil)
        #expect(child.restorationPath == ["child"] && source.restorationPath == ["source"])
        child.removeFromParent()
        #expect(child.relation == .none)
        let other = controller("other")
        try other.addChild(child)
        try other.present(modal)
        try other.addView(table)
        try source.setRestorationParent(other)
        #expect(child.parent === other && modal.parent === other && table.parent === other && source.parent === other)
        #expect(other.restorationChildren.count == 1)
    }

    // R3
    @Test func pathsFollowTheTree() throws {
        // The seeds' Homepwner: a navigation controller, the items list, and a modal navigation
        // controller for a new item presented from the list: three identifiers.
        let nav = controller("ItemsNav", stack: true)
        let items = controller("ItemsViewController")
        let modal = controller("NewItemNav", stack: true)
        let detail = controller("DetailViewController")
        try nav.addChild(items)
        try items.present(modal)
        try modal.addChild(detail)
        #expect(modal.restorationPath == ["ItemsNav", "ItemsViewController", "NewItemNav"])
        #expect(detail.restorationPath == ["ItemsNav", "ItemsViewController", "NewItemNav", "DetailViewController"])
        let image = view("imageView")
        try detail.addView(image)
        #expect(image.restorationPath?.count == 5)
        // R2: without an identifier, no path for it or anything under it.
        items.restorationIdentifier = nil
        #expect(items.restorationPath == nil && detail.restorationPath == nil)
        items.restorationIdentifier = ""
        #expect(detail.restorationPath == nil)
    }

    // R3
    @Test func stackPositionsTellSameIdentifiersApart() throws {
        let nav = controller("nav", stack: true)
        let a = controller("item"), b = controller("other"), c = controller("item"), d = controller("item")
        for x in [a, b, c, d] { try nav.addChild(x) }
        #expect(a.restorationPath == ["nav", "item"])
        #expect(b.restorationPath == ["nav", "other"])
        // The identifier is never rewritten: the position stands beside it.
        #expect(c.restorationPath == ["nav", "item"])
        #expect(d.restorationPath == ["nav", "item"])
        #expect(c.restorationComponents?.last == PathComponent("item", position: 1))
        #expect(d.restorationComponents?.last == PathComponent("item", position: 2))
        #expect(b.restorationComponents?.last == PathComponent("other", position: 0))
        // Outside a stack, the same identifiers are the same paths.
        let plainContainer = controller("split")
        let x = controller("item"), y = controller("item")
        try plainContainer.addChild(x)
        try plainContainer.addChild(y)
        #expect(x.restorationPath == y.restorationPath)
    }
}
