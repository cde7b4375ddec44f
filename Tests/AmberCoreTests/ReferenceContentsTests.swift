@testable import AmberCore
import Testing

/// A controller preserved only because something referenced it keeps its contents: its
/// identified views and child controllers are preserved and restored as if it stood in the
/// tree, and what is left out under it is reported (SPEC R2, R3, R4, R28). The seeds: UIKit
/// "tries to preserve the child view controllers and their contents. This process continues
/// recursively", and restoring a controller "also restores the state of any views that have
/// restoration identifiers".
@Suite struct ReferenceContentsTests {
    /// window → a stack without an identifier → `detail`, whose contents are a view `scroll`,
    /// a view without an identifier, a child `pane` with a view `notes`, two children `twin`
    /// (a duplicate path) and a presented `sheet`. Each identified object saves its identifier.
    private struct Screen {
        let window: RestorableObject
        let detail: RestorableObject
        let twins: [RestorableObject]
    }

    private func screen(_ engine: Engine) throws -> Screen {
        let window = controller("window")
        let nav = controller(nil, "UINavigationController", stack: true)
        let detail = controller("detail", "DetailController")
        try engine.addRoot(window)
        try window.addChild(nav)
        try nav.addChild(detail)
        let scroll = view("scroll"), unnamed = view(nil, "Label")
        let pane = controller("pane", "PaneController"), notes = view("notes", "TextView")
        let twins = [controller("twin", "FirstTwin"), controller("twin", "SecondTwin")]
        let sheet = controller("sheet", "SheetController")
        try detail.addView(scroll)
        try detail.addView(unnamed)
        try detail.addChild(pane)
        try pane.addView(notes)
        for t in twins { try detail.addChild(t) }
        try detail.present(sheet)
        for o in [window, detail, scroll, pane, notes, twins[0], sheet] { saving(o, "saved \(o.restorationIdentifier!)") }
        return Screen(window: window, detail: detail, twins: twins)
    }

    // R4, R2: the referenced controller's identified views and children are preserved under
    // it, in the walk's order; R28: the view without an identifier and the duplicate are
    // reported, each once, with why.
    @Test func aReferencedControllerIsPreservedWithItsContents() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let s = try screen(engine)
        engine.delegate.willEncode = { coder in try coder.encodeReference(to: s.detail, forKey: "top") }
        let report = try engine.preserve()
        #expect(archivedPaths(store) == [
            ["window"], ["window", "detail"], ["window", "detail", "scroll"], ["window", "detail", "pane"],
            ["window", "detail", "pane", "notes"], ["window", "detail", "twin"], ["window", "detail", "sheet"],
        ])
        #expect(report.preservedCount == 7)
        let label = report.leftOut.filter { $0.className == "Label" }
        #expect(label.map(\.pathDescription) == ["/window/detail/(Label)"])
        #expect(label.map(\.leftOut) == [.noIdentifier])
        let twin = report.leftOut.filter { $0.className == "SecondTwin" }
        #expect(twin.map(\.leftOut) == [.duplicatePath(kept: "/window/detail/twin (FirstTwin)")])
        #expect(report.leftOut.count == 3, "\(report)")  // and the stack without an identifier
    }

    // R4, R10: at restore, the contents of the referenced controller are found and decoded as
    // the walk's would be: the views among the controller restored for their parent record.
    @Test func theContentsOfAReferencedControllerAreRestored() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let s = try screen(engine)
        engine.delegate.willEncode = { coder in try coder.encodeReference(to: s.detail, forKey: "top") }
        try engine.preserve()

        let next = makeEngine(store)
        let log = Log()
        let window = controller("window")
        try next.addRoot(window)
        saving(window, "", log: log)
        // The host rebuilds the screen with its contents, as its storyboard would, and gives
        // each controller when asked for it (R10 step 2); the views are found among their
        // restored controller's views (R10 step 3).
        var rebuilt: [String: RestorableObject] = [:]
        next.delegate.objectForPath = { path, coder in
            guard path.count > 1 else { return nil }  // the window is found where it is
            if path == ["window", "detail"] {
                let detail = controller("detail", coder.recordClassName)
                let scroll = view("scroll"), pane = controller("pane", "PaneController"), notes = view("notes", "TextView")
                let sheet = controller("sheet", "SheetController")
                try detail.addView(scroll)
                try detail.addChild(pane)
                try pane.addView(notes)
                try detail.present(sheet)
                for o in [detail, scroll, pane, notes, sheet] { saving(o, "", log: log) }
                rebuilt = ["detail": detail, "pane": pane, "sheet": sheet]
            }
            return rebuilt[path.last!]
        }
        let report = next.restore()
        #expect(report.count(of: .restored) == 7 - 1, "\(report)")  // the twin is not rebuilt
        #expect(Set(log.entries.filter { $0.hasPrefix("decode") }) == [
            "decode window=saved window", "decode detail=saved detail", "decode scroll=saved scroll",
            "decode pane=saved pane", "decode notes=saved notes", "decode sheet=saved sheet",
        ])
    }
}
