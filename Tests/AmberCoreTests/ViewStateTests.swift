import AmberArchive
@testable import AmberCore
import Testing

/// A view with accessors that write `written` and record what apply receives.
final class ViewProbe {
    var written: ViewState
    var applied: [ViewState] = []
    var reads = 0
    var textLength = 0
    init(_ state: ViewState) { written = state }

    func accessors(textLength: Bool = true) -> ViewAccessors {
        ViewAccessors(
            kind: written.kind,
            read: { [unowned self] _, state in
                reads += 1
                state = written
            },
            apply: { [unowned self] _, state in applied.append(state) },
            textLength: textLength ? { [unowned self] _ in self.textLength } : nil)
    }
}

/// Saves root → items → [views], restores into the same tree built afresh, and gives the report.
func viewRoundTrip(
    _ make: () -> [(String, ViewProbe)], configure: (RestorableObject, Int) throws -> Void = { _, _ in },
    between: () -> Void = {}, configureRestored: (RestorableObject, Int) throws -> Void = { _, _ in }
) throws -> (before: [ViewProbe], after: [ViewProbe], report: RestorationReport) {
    let store = MemoryStore()
    func build(_ engine: Engine, _ probes: [(String, ViewProbe)], _ configure: (RestorableObject, Int) throws -> Void) throws {
        let root = controller("root"), items = controller("items")
        try engine.addRoot(root)
        try root.addChild(items)
        for (i, (id, probe)) in probes.enumerated() {
            let v = view(id)
            try v.setViewAccessors(probe.accessors())
            try configure(v, i)
            try items.addView(v)
        }
    }
    let first = make()
    let engine = makeEngine(store)
    try build(engine, first, configure)
    try engine.preserve()
    between()
    let second = make()
    let next = makeEngine(store)
    try build(next, second, configureRestored)
    let report = next.restore()
    return (first.map(\.1), second.map(\.1), report)
}

@Suite struct ViewStateTests {
    // R17
    @Test func eachKindKeepsItsProperties() {
        #expect(ViewKind.scroll.properties == [.contentOffset, .contentInset, .zoomScale])
        #expect(ViewKind.table.properties == ViewKind.collection.properties)
        #expect(ViewKind.table.keeps(.selectedItems) && ViewKind.table.keeps(.firstVisibleItem) && ViewKind.table.keeps(.editing))
        #expect(ViewKind.table.keeps(.contentOffset) && !ViewKind.table.keeps(.selectedRange))
        #expect(ViewKind.textField.properties == [.selectedRange])
        #expect(ViewKind.textView.properties == [.selectedRange, .editable])
        #expect(ViewKind.image.properties == [.bounds, .center, .transform, .anchorPoint])
        #expect(ViewKind.web.properties == [.pages, .currentPage])
        // Every property is kept by some kind, and archived under a reserved key.
        for p in ViewProperty.allCases {
            #expect(ViewKind.allCases.contains { $0.keeps(p) })
            #expect(ReservedKeys.contains(p.archiveKey))
        }
    }

    // R17
    @Test func validationRefusesWhatAKindDoesNotKeepAndBadValues() {
        var s = ViewState(kind: .scroll)
        s.selectedRange = TextRange(location: 0, length: 1)
        #expect(throws: AmberError.self) { try s.validate() }
        s = ViewState(kind: .scroll)
        s.zoomScale = 0
        #expect((try? s.validate()) == nil)
        s.zoomScale = .nan
        #expect((try? s.validate()) == nil)
        s.zoomScale = 2
        s.contentOffset = ViewPoint(x: .infinity, y: 0)
        #expect((try? s.validate()) == nil)
        s.contentOffset = ViewPoint(x: 1, y: 2)
        #expect((try? s.validate()) != nil)

        var t = ViewState(kind: .table)
        t.selectedItems = [[0, 1], []]
        #expect((try? t.validate()) == nil)
        t.selectedItems = [[0, -1]]
        #expect((try? t.validate()) == nil)
        t.selectedItems = [[Int](repeating: 0, count: ViewState.maxIndexPathLength + 1)]
        do { try t.validate(); Issue.record("a too-long index path validated") } catch { #expect(error.code == .limitExceeded) }
        t.selectedItems = [[3], [0, 1], [1, 2, 3], [Int](repeating: 1, count: ViewState.maxIndexPathLength)]
        #expect((try? t.validate()) != nil)

        var w = ViewState(kind: .web)
        w.pages = [WebPage(url: "https://a", scrollPosition: ViewPoint(x: 0, y: 0))]
        w.currentPage = 1
        #expect((try? w.validate()) == nil)
        w.currentPage = 0
        #expect((try? w.validate()) != nil)
        w.pages = [WebPage(url: "", scrollPosition: ViewPoint(x: 0, y: 0))]
        #expect((try? w.validate()) == nil)
    }

    // R17: the limits of the C struct are the engine's, met by a state a Swift host fills
    @Test func aSwiftStateMeetsTheLimitsOfTheCStruct() {
        func code(_ s: ViewState) -> AmberError.Code? {
            do { try s.validate() } catch { return error.code }
            return nil
        }
        var t = ViewState(kind: .table)
        t.firstVisibleItem = []
        #expect(code(t) == .invalidArgument)
        t.firstVisibleItem = [Int](repeating: 0, count: ViewState.maxIndexPathLength + 1)
        #expect(code(t) == .limitExceeded)
        t.firstVisibleItem = [0]
        t.selectedItems = Array(repeating: [0], count: ViewState.maxSelectedItems + 1)
        #expect(code(t) == .limitExceeded)
        t.selectedItems = Array(repeating: [0], count: ViewState.maxSelectedItems)
        #expect(code(t) == nil)

        let page = WebPage(url: "https://a", scrollPosition: ViewPoint(x: 0, y: 0))
        var w = ViewState(kind: .web)
        w.pages = Array(repeating: page, count: ViewState.maxPages + 1)
        #expect(code(w) == .limitExceeded)
        w.pages = [WebPage(url: String(repeating: "a", count: ViewState.maxURLLength + 1), scrollPosition: page.scrollPosition)]
        #expect(code(w) == .limitExceeded)
        w.pages = [WebPage(url: String(repeating: "a", count: ViewState.maxURLLength), scrollPosition: page.scrollPosition)]
        #expect(code(w) == nil)
    }

    // R17
    @Test func textRangeFits() {
        #expect(TextRange(location: 10, length: 6).fits(textLength: 16))
        #expect(!TextRange(location: 10, length: 6).fits(textLength: 15))
        #expect(TextRange(location: 5, length: 0).fits(textLength: 5))
        #expect(!TextRange(location: 6, length: 0).fits(textLength: 5))
        #expect(!TextRange(location: Int.max, length: Int.max).fits(textLength: 10))
        #expect(!TextRange(location: -1, length: 1).fits(textLength: 10))
    }

    // R17
    @Test func everyKindRoundTrips() throws {
        func probes() -> [(String, ViewProbe)] {
            var scroll = ViewState(kind: .scroll)
            scroll.contentOffset = ViewPoint(x: 3, y: 450.5)
            scroll.contentInset = EdgeInsets(top: 64, left: 0, bottom: 49, right: 0)
            scroll.zoomScale = 2.5
            var table = ViewState(kind: .table)
            table.contentOffset = ViewPoint(x: 0, y: 88)
            table.selectedItems = [[4], [0, 2], [1, 0, 7]]
            table.firstVisibleItem = [0, 1]
            table.isEditing = true
            var field = ViewState(kind: .textField)
            field.selectedRange = TextRange(location: 2, length: 3)
            var text = ViewState(kind: .textView)
            text.selectedRange = TextRange(location: 0, length: 0)
            text.isEditable = false
            var image = ViewState(kind: .image)
            image.bounds = ViewRect(x: 0, y: 0, width: 320, height: 200)
            image.center = ViewPoint(x: 160, y: 100)
            image.transform = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: -5)
            image.anchorPoint = ViewPoint(x: 0.5, y: 0.5)
            var web = ViewState(kind: .web)
            web.pages = [WebPage(url: "https://a/", scrollPosition: ViewPoint(x: 0, y: 10)),
                         WebPage(url: "https://a/b", scrollPosition: ViewPoint(x: 0, y: 900))]
            web.currentPage = 0
            let all = [("scroll", ViewProbe(scroll)), ("table", ViewProbe(table)), ("field", ViewProbe(field)),
                       ("text", ViewProbe(text)), ("image", ViewProbe(image)), ("web", ViewProbe(web)),
                       ("grid", ViewProbe(ViewState(kind: .collection)))]
            for (_, p) in all { p.textLength = 100 }
            return all
        }
        let (before, after, report) = try viewRoundTrip(probes)
        #expect(report.freshLaunchReason == nil)
        #expect(report.count(of: .restored) == report.count)
        for (b, a) in zip(before, after) {
            #expect(b.reads == 1)
            #expect(a.applied == [b.written])
        }
    }

    // R17
    @Test func aRangeThatNoLongerFitsRestoresAsNoSelection() throws {
        var state = ViewState(kind: .textField)
        state.selectedRange = TextRange(location: 10, length: 6)
        var lengths = [16, 15]
        let (_, after, report) = try viewRoundTrip({
            let p = ViewProbe(state)
            p.textLength = lengths.removeFirst()
            return [("fits", p)]
        })
        #expect(after[0].applied.count == 1 && after[0].applied[0].selectedRange == nil)
        let record = try #require(report.record(forPath: ["root", "items", "fits"]))
        #expect(record.outcome == .restored)
        #expect(record.note?.contains("no longer fits") == true)

        lengths = [16, 16]
        let (_, fitting, _) = try viewRoundTrip({
            let p = ViewProbe(state)
            p.textLength = lengths.removeFirst()
            return [("fits", p)]
        })
        #expect(fitting[0].applied[0].selectedRange == TextRange(location: 10, length: 6))
    }

    // R17 (issue 41, item 1): a text field or text view without a text-length accessor is
    // refused, from Swift as from C; the accessors the view had stay.
    @Test func textKindsWithoutATextLengthAreRefused() throws {
        for kind in [ViewKind.textField, .textView] {
            let v = view("t")
            let probe = ViewProbe(ViewState(kind: kind))
            try v.setViewAccessors(probe.accessors())
            var withoutLength = probe.accessors()
            withoutLength.textLength = nil
            #expect(throws: AmberError.self) { try v.setViewAccessors(withoutLength) }
            #expect(v.viewAccessors?.textLength != nil)
        }
    }

    // R17 R18 (issue 41, item 1): only a view takes accessors or a model association.
    @Test func onlyAViewTakesAccessorsOrAModelAssociation() throws {
        let association = ModelAssociation(identifierForIndexPath: { _, _ in nil }, indexPathForIdentifier: { _, _ in nil })
        for o in [controller("c"), plain("p")] {
            #expect(throws: AmberError.self) { try o.setViewAccessors(ViewProbe(ViewState(kind: .scroll)).accessors()) }
            #expect(throws: AmberError.self) { try o.setModelAssociation(association) }
            #expect(o.viewAccessors == nil && o.modelAssociation == nil)
        }
    }

    // R2 R17
    @Test func onlyViewsWithIdentifiersUnderIdentifiedControllersAreRead() throws {
        let engine = makeEngine()
        let root = controller("root"), hidden = controller(nil)
        try engine.addRoot(root)
        try root.addChild(hidden)
        let named = ViewProbe(ViewState(kind: .scroll)), unnamed = ViewProbe(ViewState(kind: .scroll)),
            orphan = ViewProbe(ViewState(kind: .scroll))
        let v1 = view("v"), v2 = view(nil), v3 = view("o")
        try v1.setViewAccessors(named.accessors())
        try v2.setViewAccessors(unnamed.accessors())
        try v3.setViewAccessors(orphan.accessors())
        try root.addView(v1)
        try root.addView(v2)
        try hidden.addView(v3)
        try engine.preserve()
        #expect(named.reads == 1 && unnamed.reads == 0 && orphan.reads == 0)
    }

    // R17 R7
    @Test func standardStateSitsBesideTheHostsKeys() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root")
        try engine.addRoot(root)
        var s = ViewState(kind: .scroll)
        s.zoomScale = 3
        let probe = ViewProbe(s)
        let v = view("v")
        try v.setViewAccessors(probe.accessors())
        var refused: AmberError.Code?
        v.callbacks.encode = { _, coder in
            try coder.encode(Double(7), forKey: "zoomScale")
            do { try coder.encode(Double(1), forKey: "amber.view.zoomScale") } catch { refused = code(error) }
        }
        try root.addView(v)
        try engine.preserve()
        #expect(refused == .reservedKey)

        let next = makeEngine(store)
        let root2 = controller("root"), v2 = view("v")
        try next.addRoot(root2)
        try root2.addView(v2)
        let probe2 = ViewProbe(ViewState(kind: .scroll))
        try v2.setViewAccessors(probe2.accessors())
        var hostValue: Double?
        v2.callbacks.decode = { _, decoder in hostValue = try decoder.decodeDouble(forKey: "zoomScale") }
        _ = next.restore()
        #expect(hostValue == 7)
        #expect(probe2.applied.first?.zoomScale == 3)
    }

    // R17
    @Test func aViewOfAnotherKindNowIsNotApplied() throws {
        var s = ViewState(kind: .scroll)
        s.zoomScale = 2
        let (_, after, report) = try viewRoundTrip(
            { [("v", ViewProbe(s))] },
            configureRestored: { v, _ in
                try v.setViewAccessors(ViewAccessors(kind: .image, read: { _, _ in }, apply: { _, _ in Issue.record("applied") }))
            })
        #expect(after[0].applied.isEmpty)
        #expect(report.record(forPath: ["root", "items", "v"])?.note?.contains("the view is now of kind image view") == true)
    }

    // R17 R12
    @Test func failingAccessorsStopPreservationAndMarkRestoration() throws {
        struct Boom: Error {}
        let engine = makeEngine()
        let root = controller("root"), v = view("v")
        try engine.addRoot(root)
        try root.addView(v)
        // R28: a failing read accessor leaves the view out (reported); the rest is saved.
        try v.setViewAccessors(ViewAccessors(kind: .scroll, read: { _, _ in throw Boom() }, apply: { _, _ in }))
        var saved = try engine.preserve()
        #expect(saved.preservedCount == 1)
        guard case .encodeFailed = saved.leftOut.first?.leftOut else { Issue.record("not reported: \(saved)"); return }
        // A read accessor that sets what its kind does not keep is refused: the view is left out.
        try v.setViewAccessors(ViewAccessors(kind: .scroll, read: { _, s in s.isEditable = true }, apply: { _, _ in }))
        saved = try engine.preserve()
        guard case .encodeFailed(let message) = saved.leftOut.first?.leftOut else { Issue.record("not reported: \(saved)"); return }
        #expect(message.contains("'root/v'"))

        let (_, _, report) = try viewRoundTrip(
            { [("v", ViewProbe(ViewState(kind: .scroll)))] },
            configureRestored: { v, _ in
                var failing = try #require(v.viewAccessors)
                failing.apply = { _, _ in throw Boom() }
                try v.setViewAccessors(failing)
            })
        guard case .decodeError = try #require(report.record(forPath: ["root", "items", "v"])).outcome else {
            Issue.record("expected a decode error")
            return
        }
    }

    // R17 R22: a selection is a set. An item selected twice is saved once, and an archived
    // selection that refers to one item many times (a byte each) restores it once: what
    // restoring it takes follows the archive's objects, not its references.
    @Test func aSelectedItemIsKeptOnce() throws {
        var table = ViewState(kind: .table)
        table.selectedItems = [[2], [0, 1], [2], [0, 1], [5]]
        let (_, paths, _) = try viewRoundTrip({ [("t", ViewProbe(table))] })
        #expect(paths[0].applied.first?.selectedItems == [[2], [0, 1], [5]])

        // Every row shows one model object: one identifier is saved, found at row 0.
        table.selectedItems = (0 ..< 1000).map { [$0] }
        let oneModel = ModelAssociation(identifierForIndexPath: { _, _ in "item" }, indexPathForIdentifier: { _, _ in [0] })
        let (_, models, _) = try viewRoundTrip(
            { [("t", ViewProbe(table))] }, configure: { v, _ in try v.setModelAssociation(oneModel) },
            configureRestored: { v, _ in try v.setModelAssociation(oneModel) })
        #expect(models[0].applied.first?.selectedItems == [[0]])

        // Identifiers are one when they are the same characters, not when Swift's `==` holds:
        // "é" and "e\u{301}" are two model objects.
        table.selectedItems = [[0], [1], [2]]
        let composed = "\u{e9}", decomposed = "e\u{301}"
        let twoModels = ModelAssociation(
            identifierForIndexPath: { _, path in path == [1] ? decomposed : composed },
            indexPathForIdentifier: { _, id in Array(id.unicodeScalars) == Array(composed.unicodeScalars) ? [0] : [1] })
        let (_, equivalent, _) = try viewRoundTrip(
            { [("t", ViewProbe(table))] }, configure: { v, _ in try v.setModelAssociation(twoModels) },
            configureRestored: { v, _ in try v.setModelAssociation(twoModels) })
        #expect(equivalent[0].applied.first?.selectedItems == [[0], [1]])

        // An archive written by another program: 100,000 references to one string.
        let a = KeyedArchiver()
        a.encode(Int64(ViewKind.table.rawValue), forKey: ViewStateArchive.kindKey)
        a.encode(.array([ArchiveValue](repeating: .string("item"), count: 100_000)), forKey: ViewProperty.selectedItems.archiveKey)
        let archived = try #require(try ViewStateArchive.decode(from: try KeyedUnarchiver(bytes: try a.finishEncoding())))
        #expect(archived.selectedItems == [.modelIdentifier("item")])
    }

    // R17 R22
    @Test func malformedArchivedStateIsCorrupt() throws {
        func decode(_ fill: (KeyedArchiver) -> Void) throws -> ViewStateArchive.Archived? {
            let a = KeyedArchiver()
            fill(a)
            let u = try KeyedUnarchiver(bytes: try a.finishEncoding())
            return try ViewStateArchive.decode(from: u)
        }
        #expect(try decode { _ in } == nil)
        for fill: (KeyedArchiver) -> Void in [
            { $0.encode(Int64(99), forKey: "amber.view.kind") },
            { $0.encode("table", forKey: "amber.view.kind") },
            { a in a.encode(Int64(1), forKey: "amber.view.kind"); a.encode(.array([.double(1)]), forKey: "amber.view.contentOffset") },
            { a in a.encode(Int64(1), forKey: "amber.view.kind"); a.encode(true, forKey: "amber.view.editing") },
            { a in a.encode(Int64(1), forKey: "amber.view.kind"); a.encode(Double(-1), forKey: "amber.view.zoomScale") },
            { a in a.encode(Int64(2), forKey: "amber.view.kind"); a.encode(.array([.int(3)]), forKey: "amber.view.selectedItems") },
            { a in a.encode(Int64(2), forKey: "amber.view.kind"); a.encode(.array([.indexPath([])]), forKey: "amber.view.selectedItems") },
            { a in a.encode(Int64(4), forKey: "amber.view.kind"); a.encode(.array([.int(-1), .int(2)]), forKey: "amber.view.selectedRange") },
            { a in a.encode(Int64(7), forKey: "amber.view.kind"); a.encode(.array([.string("x")]), forKey: "amber.view.pages") },
            { a in a.encode(Int64(7), forKey: "amber.view.kind"); a.encode(Int64(0), forKey: "amber.view.currentPage") },
        ] {
            do {
                _ = try decode(fill)
                Issue.record("a malformed state was read")
            } catch {
                #expect(code(error) == .corrupt)
            }
        }
    }

    // R10 R17
    @Test func aViewItsRestoredControllerMadeIsFound() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root"), detail = controller("detail", "Detail")
        detail.restorationClassName = "DetailClass"
        try engine.addRoot(root)
        try root.addChild(detail)
        var s = ViewState(kind: .scroll)
        s.contentOffset = ViewPoint(x: 0, y: 99)
        let v = view("scroll")
        let first = ViewProbe(s)
        try v.setViewAccessors(first.accessors())
        try detail.addView(v)
        try withExtendedLifetime(first) { _ = try engine.preserve() }

        let next = makeEngine(store)
        try next.addRoot(controller("root"))
        let probe = ViewProbe(ViewState(kind: .scroll))
        try next.registerRestorationClass(name: "DetailClass") { _, _ in
            let c = controller(nil, "Detail")
            let made = view("scroll")
            try made.setViewAccessors(probe.accessors())
            try c.addView(made)
            return c
        }
        let report = next.restore()
        let record = try #require(report.record(forPath: ["root", "detail", "scroll"]))
        #expect(record.outcome == .restored)
        #expect(record.note?.contains("a view of its restored controller") == true)
        #expect(probe.applied.first?.contentOffset == ViewPoint(x: 0, y: 99))
    }
}
