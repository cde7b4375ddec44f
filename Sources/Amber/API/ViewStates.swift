// amber/view.h — a view's standard state (SPEC R17) as the versioned struct amber_view_state:
// read back from what a read accessor filled, and filled for an apply accessor.

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The property of each AMBER_VIEW_FIELD_* bit, in bit order.
private let fieldProperties: [ViewProperty] = [
    .contentOffset, .contentInset, .zoomScale, .selectedItems, .firstVisibleItem, .editing, .selectedRange,
    .editable, .bounds, .center, .transform, .anchorPoint, .pages, .currentPage,
]

/// The bit of a property.
private func bit(_ p: ViewProperty) -> UInt32 { 1 << UInt32(fieldProperties.firstIndex(of: p)!) }

/// The header's kind of a view kind.
func cViewKind(_ kind: ViewKind) -> amber_view_kind { amber_view_kind(rawValue: Int32(kind.rawValue)) }

/// An index path the host gave: its indexes, checked for their count by the engine's rule
/// before they are copied (`ViewState.validate` checks the rest).
private func indexPath(_ p: amber_index_path, _ what: String) throws(AmberError) -> [Int] {
    let n = try inputCount(p.length, "the length of \(what)")
    try ViewState.checkIndexCount(n, what)
    guard let indexes = p.indexes else { throw invalid("\(what) has NULL indexes and length \(n)") }
    return UnsafeBufferPointer(start: indexes, count: n).map { Int($0) }
}

/// The view state a read accessor filled, as the engine keeps it, checked as a whole
/// (`ViewState.validate`: the properties the kind keeps, finite values, ...).
func viewState(from c: amber_view_state, kind: ViewKind) throws(AmberError) -> ViewState {
    try checkVersion(c.version, AMBER_VIEW_STATE_VERSION, "amber_view_state")
    let all = (UInt32(1) << UInt32(fieldProperties.count)) - 1
    guard c.fields & ~all == 0 else { throw invalid("fields has bits that name no member (0x\(String(c.fields & ~all, radix: 16)))") }
    var s = ViewState(kind: kind)
    func has(_ p: ViewProperty) -> Bool { c.fields & bit(p) != 0 }
    if has(.contentOffset) { s.contentOffset = ViewPoint(x: c.content_offset.x, y: c.content_offset.y) }
    if has(.contentInset) {
        let i = c.content_inset
        s.contentInset = EdgeInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
    }
    if has(.zoomScale) { s.zoomScale = c.zoom_scale }
    if has(.selectedItems) {
        let n = try inputCount(c.selected_count, "selected_count")
        try ViewState.checkSelectedItemCount(n)
        guard c.selected_items != nil || n == 0 else { throw invalid("selected_items is NULL and selected_count is \(n)") }
        var items: [[Int]] = []
        items.reserveCapacity(n)
        for i in 0 ..< n { items.append(try indexPath(c.selected_items![i], "selected item \(i)")) }
        s.selectedItems = items
    }
    if has(.firstVisibleItem) { s.firstVisibleItem = try indexPath(c.first_visible_item, "the first visible item") }
    if has(.editing) { s.isEditing = c.editing != 0 }
    if has(.selectedRange) {
        let r = c.selected_range
        guard r.location <= UInt64(Int64.max), r.length <= UInt64(Int64.max) - r.location else {
            throw invalid("the selected range \(r.location)+\(r.length) goes past INT64_MAX")
        }
        s.selectedRange = TextRange(location: Int(r.location), length: Int(r.length))
    }
    if has(.editable) { s.isEditable = c.editable != 0 }
    if has(.bounds) {
        let b = c.bounds
        s.bounds = ViewRect(x: b.origin.x, y: b.origin.y, width: b.size.width, height: b.size.height)
    }
    if has(.center) { s.center = ViewPoint(x: c.center.x, y: c.center.y) }
    if has(.transform) {
        let t = c.transform
        s.transform = AffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
    }
    if has(.anchorPoint) { s.anchorPoint = ViewPoint(x: c.anchor_point.x, y: c.anchor_point.y) }
    if has(.pages) {
        let n = try inputCount(c.page_count, "page_count")
        try ViewState.checkPageCount(n)
        guard c.pages != nil || n == 0 else { throw invalid("pages is NULL and page_count is \(n)") }
        var pages: [WebPage] = []
        pages.reserveCapacity(n)
        for i in 0 ..< n {
            let page = c.pages![i]
            guard let url = page.url else { throw invalid("the URL of page \(i) is NULL") }
            try ViewState.checkURLLength(strnlen(url, ViewState.maxURLLength + 1), "the URL of page \(i)")
            let u = try inputString(url, "the URL of page \(i)")
            pages.append(WebPage(url: u, scrollPosition: ViewPoint(x: page.scroll.x, y: page.scroll.y)))
        }
        s.pages = pages
    }
    if has(.currentPage) {
        guard c.current_page <= Int(Int32.max) else { throw invalid("current_page \(UInt(bitPattern: c.current_page)) is out of range") }
        s.currentPage = c.current_page
    }
    try s.validate()  // as the engine will: here, so that the error names the code and the member
    return s
}

/// Calls `body` with `state` as the header's struct: its members and bits set, its arrays and
/// strings in an arena that lives until `body` returns.
func withCViewState(_ state: ViewState, _ body: (UnsafePointer<amber_view_state>) throws -> Void) throws {
    let arena = ScratchArena()
    var c = amber_view_state()
    c.version = CUnsignedInt(AMBER_VIEW_STATE_VERSION)
    c.kind = cViewKind(state.kind)
    func cPath(_ path: [Int]) throws(AmberError) -> amber_index_path {
        let raw = try arena.bytes([UInt8](repeating: 0, count: max(path.count, 1) * MemoryLayout<Int64>.stride))
        let p = UnsafeMutableRawPointer(raw).bindMemory(to: Int64.self, capacity: max(path.count, 1))
        for (i, v) in path.enumerated() { p[i] = Int64(v) }
        return amber_index_path(indexes: UnsafePointer(p), length: path.count)
    }
    if let v = state.contentOffset {
        c.content_offset = amber_point(x: v.x, y: v.y)
        c.fields |= bit(.contentOffset)
    }
    if let v = state.contentInset {
        c.content_inset = amber_insets(top: v.top, left: v.left, bottom: v.bottom, right: v.right)
        c.fields |= bit(.contentInset)
    }
    if let v = state.zoomScale {
        c.zoom_scale = v
        c.fields |= bit(.zoomScale)
    }
    var items: [amber_index_path] = []
    if let v = state.selectedItems {
        for path in v { items.append(try cPath(path)) }
        c.selected_count = items.count
        c.fields |= bit(.selectedItems)
    }
    if let v = state.firstVisibleItem {
        c.first_visible_item = try cPath(v)
        c.fields |= bit(.firstVisibleItem)
    }
    if let v = state.isEditing {
        c.editing = v ? 1 : 0
        c.fields |= bit(.editing)
    }
    if let v = state.selectedRange {
        c.selected_range = amber_range(location: UInt64(v.location), length: UInt64(v.length))
        c.fields |= bit(.selectedRange)
    }
    if let v = state.isEditable {
        c.editable = v ? 1 : 0
        c.fields |= bit(.editable)
    }
    if let v = state.bounds {
        c.bounds = amber_rect(origin: amber_point(x: v.origin.x, y: v.origin.y), size: amber_size(width: v.size.width, height: v.size.height))
        c.fields |= bit(.bounds)
    }
    if let v = state.center {
        c.center = amber_point(x: v.x, y: v.y)
        c.fields |= bit(.center)
    }
    if let t = state.transform {
        c.transform = amber_transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
        c.fields |= bit(.transform)
    }
    if let v = state.anchorPoint {
        c.anchor_point = amber_point(x: v.x, y: v.y)
        c.fields |= bit(.anchorPoint)
    }
    var pages: [amber_web_page] = []
    if let v = state.pages {
        var urls = SharedCStrings()
        for page in v {
            pages.append(amber_web_page(url: try urls.copy(page.url, into: arena),
                                        scroll: amber_point(x: page.scrollPosition.x, y: page.scrollPosition.y)))
        }
        c.page_count = pages.count
        c.fields |= bit(.pages)
    }
    if let v = state.currentPage {
        c.current_page = v
        c.fields |= bit(.currentPage)
    }
    try items.withUnsafeBufferPointer { i in
        try pages.withUnsafeBufferPointer { p in
            c.selected_items = c.fields & bit(.selectedItems) != 0 ? i.baseAddress : nil
            c.pages = c.fields & bit(.pages) != 0 ? p.baseAddress : nil
            try withUnsafePointer(to: &c) { p in try withExtendedLifetime(arena) { try body(p) } }
        }
    }
}

/// C copies of strings, one per string storage: a back/forward list that visits one page again
/// and again holds its URL many times, one storage shared when it was read from an archive
/// (the unarchiver shares a string it meets again), and copied once here, not once per page.
private struct SharedCStrings {
    private var copies: [UnsafeRawPointer: UnsafePointer<CChar>] = [:]

    mutating func copy(_ text: String, into arena: ScratchArena) throws(AmberError) -> UnsafePointer<CChar> {
        // A string of more than 15 UTF-8 bytes lives in a buffer its copies share, alive as long
        // as `text` is: its address names its bytes. A shorter one is held in place (its
        // "storage" would be a temporary), and costs as little to copy as to look up.
        guard text.utf8.count > 15,
              let storage = text.utf8.withContiguousStorageIfAvailable({ UnsafeRawPointer($0.baseAddress) }) ?? nil
        else { return UnsafePointer(try arena.string(text)) }
        if let copy = copies[storage] { return copy }
        let copy = UnsafePointer(try arena.string(text))
        copies[storage] = copy
        return copy
    }
}
