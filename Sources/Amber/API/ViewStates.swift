// amber.h — a view's standard state (SPEC R17): the setters a read accessor fills it with and
// the getters an apply accessor reads it with.

import AmberCore
import CAmber

/// The view state box of a live handle.
private func stateBox(_ handle: OpaquePointer?) throws(AmberError) -> ViewStateBox {
    try HandleRegistry.shared.resolve(handle, .viewState, as: ViewStateBox.self)
}

/// A finite value, or `.invalidArgument` naming it.
private func finite(_ values: Double..., what: String) throws(AmberError) {
    for v in values where !v.isFinite { throw invalid("\(what) is not finite (\(v))") }
}

/// An input index path: 1 to `ViewState.maxIndexPathLength` indexes, each ≥ 0.
private func inputIndexPath(_ indexes: UnsafePointer<Int64>?, _ length: Int, _ what: String) throws(AmberError) -> [Int] {
    guard length >= 0 else { throw invalid("the length of \(what) is out of range") }
    guard length <= ViewState.maxIndexPathLength else {
        throw AmberError(.limitExceeded, "\(what) has \(length) indexes; at most \(ViewState.maxIndexPathLength) are kept")
    }
    guard let indexes, length > 0 else { throw invalid("\(what) is an empty index path (indexes NULL or length 0)") }
    let path = UnsafeBufferPointer(start: indexes, count: length).map { Int($0) }
    try ViewState.checkIndexPath(path, what)
    return path
}

/// Backs `amber_view_state_kind`.
@c @implementation public func amber_view_state_kind(_ state: OpaquePointer?) -> CInt {
    guarded(-1) { CInt(try stateBox(state).state.kind.rawValue) }
}

// MARK: Setters

/// Backs `amber_view_state_set_content_offset`.
@c @implementation public func amber_view_state_set_content_offset(_ state: OpaquePointer?, _ offset: amber_point) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.contentOffset)
        try finite(offset.x, offset.y, what: "the content offset")
        b.state.contentOffset = ViewPoint(x: offset.x, y: offset.y)
    }
}

/// Backs `amber_view_state_set_content_inset`.
@c @implementation public func amber_view_state_set_content_inset(_ state: OpaquePointer?, _ inset: amber_insets) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.contentInset)
        try finite(inset.top, inset.left, inset.bottom, inset.right, what: "the content inset")
        b.state.contentInset = EdgeInsets(top: inset.top, left: inset.left, bottom: inset.bottom, right: inset.right)
    }
}

/// Backs `amber_view_state_set_zoom_scale`.
@c @implementation public func amber_view_state_set_zoom_scale(_ state: OpaquePointer?, _ scale: Double) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.zoomScale)
        guard scale.isFinite, scale > 0 else { throw invalid("the zoom scale \(scale) is not a finite number greater than 0") }
        b.state.zoomScale = scale
    }
}

/// Backs `amber_view_state_add_selected_item`.
@c @implementation public func amber_view_state_add_selected_item(_ state: OpaquePointer?, _ indexes: UnsafePointer<Int64>?, _ length: Int) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.selectedItems)
        let path = try inputIndexPath(indexes, length, "the selected item")
        var items = b.state.selectedItems ?? []
        guard items.count < ViewState.maxSelectedItems else {
            throw AmberError(.limitExceeded, "at most \(ViewState.maxSelectedItems) selected items are kept")
        }
        items.append(path)
        b.state.selectedItems = items
    }
}

/// Backs `amber_view_state_set_first_visible_item`.
@c @implementation public func amber_view_state_set_first_visible_item(_ state: OpaquePointer?, _ indexes: UnsafePointer<Int64>?, _ length: Int) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.firstVisibleItem)
        b.state.firstVisibleItem = try inputIndexPath(indexes, length, "the first visible item")
    }
}

/// Backs `amber_view_state_set_editing`.
@c @implementation public func amber_view_state_set_editing(_ state: OpaquePointer?, _ editing: CInt) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.editing)
        b.state.isEditing = editing != 0
    }
}

/// Backs `amber_view_state_set_selected_range`.
@c @implementation public func amber_view_state_set_selected_range(_ state: OpaquePointer?, _ range: amber_range) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.selectedRange)
        guard range.location <= UInt64(Int64.max), range.length <= UInt64(Int64.max) - range.location else {
            throw invalid("the selected range \(range.location)+\(range.length) goes past INT64_MAX")
        }
        b.state.selectedRange = TextRange(location: Int(range.location), length: Int(range.length))
    }
}

/// Backs `amber_view_state_set_editable`.
@c @implementation public func amber_view_state_set_editable(_ state: OpaquePointer?, _ editable: CInt) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.editable)
        b.state.isEditable = editable != 0
    }
}

/// Backs `amber_view_state_set_bounds`.
@c @implementation public func amber_view_state_set_bounds(_ state: OpaquePointer?, _ bounds: amber_rect) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.bounds)
        try finite(bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height, what: "the bounds")
        b.state.bounds = ViewRect(x: bounds.origin.x, y: bounds.origin.y, width: bounds.size.width, height: bounds.size.height)
    }
}

/// Backs `amber_view_state_set_center`.
@c @implementation public func amber_view_state_set_center(_ state: OpaquePointer?, _ center: amber_point) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.center)
        try finite(center.x, center.y, what: "the center")
        b.state.center = ViewPoint(x: center.x, y: center.y)
    }
}

/// Backs `amber_view_state_set_transform`.
@c @implementation public func amber_view_state_set_transform(_ state: OpaquePointer?, _ transform: amber_transform) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.transform)
        let t = transform
        try finite(t.a, t.b, t.c, t.d, t.tx, t.ty, what: "the transform")
        b.state.transform = AffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
    }
}

/// Backs `amber_view_state_set_anchor_point`.
@c @implementation public func amber_view_state_set_anchor_point(_ state: OpaquePointer?, _ anchor_point: amber_point) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.anchorPoint)
        try finite(anchor_point.x, anchor_point.y, what: "the anchor point")
        b.state.anchorPoint = ViewPoint(x: anchor_point.x, y: anchor_point.y)
    }
}

/// Backs `amber_view_state_add_page`.
@c @implementation public func amber_view_state_add_page(_ state: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ scroll: amber_point) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.pages)
        let u = try inputString(url, "url")
        let page = WebPage(url: u, scrollPosition: ViewPoint(x: scroll.x, y: scroll.y))
        guard !u.isEmpty else { throw invalid("url is empty") }
        guard u.utf8.count <= ViewState.maxURLLength else {
            throw AmberError(.limitExceeded, "the URL has \(u.utf8.count) bytes; at most \(ViewState.maxURLLength) are kept")
        }
        try finite(scroll.x, scroll.y, what: "the page's scroll position")
        var pages = b.state.pages ?? []
        guard pages.count < ViewState.maxPages else { throw AmberError(.limitExceeded, "at most \(ViewState.maxPages) pages are kept") }
        pages.append(page)
        b.state.pages = pages
    }
}

/// Backs `amber_view_state_set_current_page`.
@c @implementation public func amber_view_state_set_current_page(_ state: OpaquePointer?, _ index: Int) -> CInt {
    guarded {
        let b = try stateBox(state)
        try b.settable(.currentPage)
        let n = b.state.pages?.count ?? 0
        guard index >= 0, index < n else {
            throw invalid("page \(UInt(bitPattern: index)) is not one of the \(n) pages added")
        }
        b.state.currentPage = index
    }
}

// MARK: Getters

/// Backs `amber_view_state_get_content_offset`.
@c @implementation public func amber_view_state_get_content_offset(_ out: UnsafeMutablePointer<amber_point>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let v = try b.get(.contentOffset, b.state.contentOffset)
        o.pointee = amber_point(x: v.x, y: v.y)
    }
}

/// Backs `amber_view_state_get_content_inset`.
@c @implementation public func amber_view_state_get_content_inset(_ out: UnsafeMutablePointer<amber_insets>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let v = try b.get(.contentInset, b.state.contentInset)
        o.pointee = amber_insets(top: v.top, left: v.left, bottom: v.bottom, right: v.right)
    }
}

/// Backs `amber_view_state_get_zoom_scale`.
@c @implementation public func amber_view_state_get_zoom_scale(_ out: UnsafeMutablePointer<Double>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        o.pointee = try b.get(.zoomScale, b.state.zoomScale)
    }
}

/// Backs `amber_view_state_get_first_visible_item`.
@c @implementation public func amber_view_state_get_first_visible_item(_ out: UnsafeMutablePointer<amber_index_path>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        o.pointee = try b.cIndexPath(try b.get(.firstVisibleItem, b.state.firstVisibleItem))
    }
}

/// Backs `amber_view_state_get_editing`.
@c @implementation public func amber_view_state_get_editing(_ out: UnsafeMutablePointer<CInt>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        o.pointee = try b.get(.editing, b.state.isEditing) ? 1 : 0
    }
}

/// Backs `amber_view_state_get_selected_range`.
@c @implementation public func amber_view_state_get_selected_range(_ out: UnsafeMutablePointer<amber_range>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let r = try b.get(.selectedRange, b.state.selectedRange)
        o.pointee = amber_range(location: UInt64(r.location), length: UInt64(r.length))
    }
}

/// Backs `amber_view_state_get_editable`.
@c @implementation public func amber_view_state_get_editable(_ out: UnsafeMutablePointer<CInt>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        o.pointee = try b.get(.editable, b.state.isEditable) ? 1 : 0
    }
}

/// Backs `amber_view_state_get_bounds`.
@c @implementation public func amber_view_state_get_bounds(_ out: UnsafeMutablePointer<amber_rect>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let v = try b.get(.bounds, b.state.bounds)
        o.pointee = amber_rect(origin: amber_point(x: v.origin.x, y: v.origin.y), size: amber_size(width: v.size.width, height: v.size.height))
    }
}

/// Backs `amber_view_state_get_center`.
@c @implementation public func amber_view_state_get_center(_ out: UnsafeMutablePointer<amber_point>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let v = try b.get(.center, b.state.center)
        o.pointee = amber_point(x: v.x, y: v.y)
    }
}

/// Backs `amber_view_state_get_transform`.
@c @implementation public func amber_view_state_get_transform(_ out: UnsafeMutablePointer<amber_transform>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let t = try b.get(.transform, b.state.transform)
        o.pointee = amber_transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
    }
}

/// Backs `amber_view_state_get_anchor_point`.
@c @implementation public func amber_view_state_get_anchor_point(_ out: UnsafeMutablePointer<amber_point>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let v = try b.get(.anchorPoint, b.state.anchorPoint)
        o.pointee = amber_point(x: v.x, y: v.y)
    }
}

/// Backs `amber_view_state_get_current_page`.
@c @implementation public func amber_view_state_get_current_page(_ out: UnsafeMutablePointer<Int>?, _ state: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        o.pointee = try b.get(.currentPage, b.state.currentPage)
    }
}

/// Backs `amber_view_state_get_selected_item`.
@c @implementation public func amber_view_state_get_selected_item(_ out: UnsafeMutablePointer<amber_index_path>?, _ state: OpaquePointer?, _ index: Int) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let items = try b.get(.selectedItems, b.state.selectedItems)
        guard index >= 0, index < items.count else {
            throw AmberError(.notFound, "selected item \(UInt(bitPattern: index)) is past the end (there are \(items.count))")
        }
        o.pointee = try b.cIndexPath(items[index])
    }
}

/// Backs `amber_view_state_get_page`.
@c @implementation public func amber_view_state_get_page(_ out: UnsafeMutablePointer<amber_web_page>?, _ state: OpaquePointer?, _ index: Int) -> CInt {
    guarded {
        let o = try outPointer(out)
        let b = try stateBox(state)
        let pages = try b.get(.pages, b.state.pages)
        guard index >= 0, index < pages.count else {
            throw AmberError(.notFound, "page \(UInt(bitPattern: index)) is past the end (there are \(pages.count))")
        }
        let p = pages[index]
        o.pointee = amber_web_page(url: UnsafePointer(try b.arena.string(p.url)), scroll: amber_point(x: p.scrollPosition.x, y: p.scrollPosition.y))
    }
}

/// Backs `amber_view_state_selected_count`.
@c @implementation public func amber_view_state_selected_count(_ state: OpaquePointer?) -> Int {
    guarded(0) { try stateBox(state).state.selectedItems?.count ?? 0 }
}

/// Backs `amber_view_state_page_count`.
@c @implementation public func amber_view_state_page_count(_ state: OpaquePointer?) -> Int {
    guarded(0) { try stateBox(state).state.pages?.count ?? 0 }
}
