/// The standard state of one view (SPEC R17): what a view of its kind keeps, beside what the
/// view's own encode callback writes. Properties the host did not set are nil.
///
/// At preservation the view's `ViewAccessors.read` fills one; the engine checks it (`validate`),
/// turns selected items into model identifiers where the view has a `ModelAssociation`
/// (SPEC R18), and archives it under reserved keys (`amber.view.*`). At restoration the engine
/// rebuilds it, turns model identifiers back into index paths (dropping those that no longer
/// resolve), drops a selected range that no longer fits the text, and hands it to
/// `ViewAccessors.apply`.
public struct ViewState: Equatable, Sendable {
    /// The longest index path accepted (an index path has at least one index).
    public static let maxIndexPathLength = 1024
    /// The most selected items accepted.
    public static let maxSelectedItems = 1 << 20
    /// The most pages of a web view's back/forward list accepted.
    public static let maxPages = 1 << 16
    /// The longest URL accepted, in UTF-8 bytes.
    public static let maxURLLength = 1 << 16

    /// The kind of view: it decides which properties may be set.
    public let kind: ViewKind

    /// Scroll views, tables and collections: the content offset.
    public var contentOffset: ViewPoint?
    /// Scroll views, tables and collections: the content inset.
    public var contentInset: EdgeInsets?
    /// Scroll views, tables and collections: the zoom scale (finite, greater than 0).
    public var zoomScale: Double?
    /// Tables and collections: the selected items' index paths, in order.
    public var selectedItems: [[Int]]?
    /// Tables and collections: the index path of the first visible item.
    public var firstVisibleItem: [Int]?
    /// Tables and collections: whether the view is in editing mode.
    public var isEditing: Bool?
    /// Text fields and text views: the selected range (nil: no selection).
    public var selectedRange: TextRange?
    /// Text views: whether the text is editable.
    public var isEditable: Bool?
    /// Image views: the bounds.
    public var bounds: ViewRect?
    /// Image views: the center, in the superview's coordinates.
    public var center: ViewPoint?
    /// Image views: the transform.
    public var transform: AffineTransform?
    /// Image views: the anchor point (in unit coordinates, 0.5/0.5 being the middle).
    public var anchorPoint: ViewPoint?
    /// Web views: the back/forward list, oldest first.
    public var pages: [WebPage]?
    /// Web views: the index in `pages` of the page shown (pages before it are "back", after it
    /// "forward").
    public var currentPage: Int?

    /// An empty state of a kind.
    public init(kind: ViewKind) {
        self.kind = kind
    }

    /// The properties that are set.
    public var setProperties: [ViewProperty] {
        var p: [ViewProperty] = []
        if contentOffset != nil { p.append(.contentOffset) }
        if contentInset != nil { p.append(.contentInset) }
        if zoomScale != nil { p.append(.zoomScale) }
        if selectedItems != nil { p.append(.selectedItems) }
        if firstVisibleItem != nil { p.append(.firstVisibleItem) }
        if isEditing != nil { p.append(.editing) }
        if selectedRange != nil { p.append(.selectedRange) }
        if isEditable != nil { p.append(.editable) }
        if bounds != nil { p.append(.bounds) }
        if center != nil { p.append(.center) }
        if transform != nil { p.append(.transform) }
        if anchorPoint != nil { p.append(.anchorPoint) }
        if pages != nil { p.append(.pages) }
        if currentPage != nil { p.append(.currentPage) }
        return p
    }

    /// Throws unless a view of this state's kind keeps `property`.
    public func require(_ property: ViewProperty) throws(AmberError) {
        guard kind.keeps(property) else {
            throw AmberError(.invalidArgument, "a \(kind) does not keep \(property.rawValue) (it keeps \(kind.properties.map(\.rawValue).sorted().joined(separator: ", ")))")
        }
    }

    /// Checks the whole state: only properties its kind keeps, finite geometry, a zoom scale
    /// greater than 0, index paths of 1 to `maxIndexPathLength` indexes ≥ 0, a range of
    /// non-negative location and length, pages with URLs, a current page within the pages.
    /// - Throws: `.invalidArgument` naming the first problem; `.limitExceeded` beyond the limits.
    public func validate() throws(AmberError) {
        for p in setProperties { try require(p) }
        if let v = contentOffset { try Self.checkPoint(v, "contentOffset") }
        if let v = contentInset, !v.isFinite { throw AmberError(.invalidArgument, "contentInset is not finite") }
        if let v = zoomScale { try Self.checkZoomScale(v) }
        if let items = selectedItems {
            try Self.checkSelectedItemCount(items.count)
            for item in items { try Self.checkIndexPath(item, "a selected item") }
        }
        if let v = firstVisibleItem { try Self.checkIndexPath(v, "firstVisibleItem") }
        if let r = selectedRange { try Self.checkRange(r) }
        if let v = bounds, !v.isFinite { throw AmberError(.invalidArgument, "bounds is not finite") }
        if let v = center { try Self.checkPoint(v, "center") }
        if let v = transform, !v.isFinite { throw AmberError(.invalidArgument, "transform is not finite") }
        if let v = anchorPoint { try Self.checkPoint(v, "anchorPoint") }
        if let pages {
            try Self.checkPageCount(pages.count)
            for page in pages { try Self.checkPage(page) }
        }
        if let c = currentPage {
            let n = pages?.count ?? 0
            guard c >= 0, c < n else {
                throw AmberError(.invalidArgument, "currentPage \(c) is not the index of one of the \(n) pages")
            }
        }
    }

    static func checkPoint(_ p: ViewPoint, _ what: String) throws(AmberError) {
        guard p.isFinite else { throw AmberError(.invalidArgument, "\(what) is not finite") }
    }

    static func checkZoomScale(_ v: Double) throws(AmberError) {
        guard v.isFinite, v > 0 else { throw AmberError(.invalidArgument, "zoomScale \(v) is not a finite number greater than 0") }
    }

    /// Checks an index path: 1 to `maxIndexPathLength` indexes, each ≥ 0.
    public static func checkIndexPath(_ path: [Int], _ what: String) throws(AmberError) {
        try checkIndexCount(path.count, what)
        for i in path where i < 0 {
            throw AmberError(.invalidArgument, "\(what) has a negative index (\(i))")
        }
    }

    // The sizes, checked by themselves too, so that a host handing arrays and strings by pointer
    // (the C ABI) is refused by these same rules before anything is copied.

    /// Checks the number of indexes of an index path: 1 to `maxIndexPathLength`.
    public static func checkIndexCount(_ n: Int, _ what: String) throws(AmberError) {
        guard n > 0 else { throw AmberError(.invalidArgument, "\(what) is an empty index path") }
        guard n <= maxIndexPathLength else {
            throw AmberError(.limitExceeded, "\(what) has \(n) indexes; at most \(maxIndexPathLength) are kept")
        }
    }

    /// Checks the number of selected items: at most `maxSelectedItems`.
    public static func checkSelectedItemCount(_ n: Int) throws(AmberError) {
        guard n <= maxSelectedItems else {
            throw AmberError(.limitExceeded, "\(n) selected items; at most \(maxSelectedItems) are kept")
        }
    }

    /// Checks the number of pages: at most `maxPages`.
    public static func checkPageCount(_ n: Int) throws(AmberError) {
        guard n <= maxPages else { throw AmberError(.limitExceeded, "\(n) pages; at most \(maxPages) are kept") }
    }

    /// Checks the bytes of a URL: at most `maxURLLength` (a C host's URL is measured up to one
    /// byte past it, so the message says "more than").
    public static func checkURLLength(_ n: Int, _ what: String) throws(AmberError) {
        guard n <= maxURLLength else { throw AmberError(.limitExceeded, "\(what) has more than \(maxURLLength) bytes") }
    }

    static func checkRange(_ r: TextRange) throws(AmberError) {
        guard r.location >= 0, r.length >= 0, r.location <= Int.max - r.length else {
            throw AmberError(.invalidArgument, "the selected range \(r.location)+\(r.length) is not a range")
        }
    }

    static func checkPage(_ page: WebPage) throws(AmberError) {
        guard !page.url.isEmpty else { throw AmberError(.invalidArgument, "a page has an empty URL") }
        try checkURLLength(page.url.utf8.count, "a page's URL")
        try checkPoint(page.scrollPosition, "a page's scroll position")
    }
}
