import AmberArchive

/// The standard state of a view in the archive (SPEC R17, R18): keys of the view's own state
/// object, all reserved (`amber.view.*`), so they never meet the keys the host's encode callback
/// writes there.
///
/// ```text
/// amber.view.kind              int       ViewKind
/// amber.view.contentOffset     [x, y]                      (NSArray of NSNumber)
/// amber.view.contentInset      [top, left, bottom, right]
/// amber.view.zoomScale         real
/// amber.view.selectedItems     NSArray of NSString (a model identifier) or NSIndexPath
/// amber.view.firstVisibleItem  NSString (a model identifier) or NSIndexPath
/// amber.view.editing           bool
/// amber.view.selectedRange     [location, length]
/// amber.view.editable          bool
/// amber.view.bounds            [x, y, width, height]
/// amber.view.center            [x, y]
/// amber.view.transform         [a, b, c, d, tx, ty]
/// amber.view.anchorPoint       [x, y]
/// amber.view.pages             NSArray of NSDictionary { url: NSString, x: real, y: real }
/// amber.view.currentPage       int
/// ```
///
/// Only the properties the host set are written.
enum ViewStateArchive {
    static let kindKey = "amber.view.kind"

    /// What a view's record holds: the state, with its items as archived.
    struct Archived {
        var state: ViewState
        var selectedItems: [ArchivedItem]?
        var firstVisibleItem: ArchivedItem?
    }

    // MARK: Writing

    /// Reads a view's standard state through its accessors, maps its items through its model
    /// association, and writes it into the view's state object. Nothing for a view without
    /// accessors.
    /// - Throws: what the accessors and the association throw, unchanged; `.invalidArgument` or
    ///   `.limitExceeded` for a state that does not validate.
    static func encode(_ object: RestorableObject, into a: KeyedArchiver) throws {
        guard object.kind == .view, let accessors = object.viewAccessors else { return }
        var state = ViewState(kind: accessors.kind)
        try accessors.read(object, &state)
        guard state.kind == accessors.kind else {
            throw AmberError(.invalidArgument, "the read accessor of '\(object.describe)' changed the view's kind")
        }
        do { try state.validate() } catch {
            throw AmberError(error.code, "the standard state of '\(object.describe)': \(error.message)")
        }
        let association = object.modelAssociation
        func item(_ path: [Int]) throws -> ArchiveValue {
            guard let association, let id = try association.identifierForIndexPath(object, path) else {
                return .indexPath(path)
            }
            // An empty identifier names no model object (nil says "none"); a restoration could
            // not find its item by it.
            guard !id.isEmpty else {
                throw AmberError(.callbackFailed, "the model association of '\(object.describe)' gave an empty identifier for \(path) (nil means none)")
            }
            return .string(id)
        }
        typealias P = ViewProperty
        a.encode(Int64(state.kind.rawValue), forKey: kindKey)
        if let v = state.contentOffset { a.encode(doubles([v.x, v.y]), forKey: P.contentOffset.archiveKey) }
        if let v = state.contentInset {
            a.encode(doubles([v.top, v.left, v.bottom, v.right]), forKey: P.contentInset.archiveKey)
        }
        if let v = state.zoomScale { a.encode(v, forKey: P.zoomScale.archiveKey) }
        if let items = state.selectedItems {
            // A selection is a set: each item once, as restoration reads it back. Identifiers
            // are told apart as the archiver stores them (its string's UID), exactly, not by
            // Swift's `==`, which takes canonically equivalent strings for one.
            var values: [ArchiveValue] = []
            var seenPaths = Set<[Int]>(), seenStrings = Set<Int>()
            values.reserveCapacity(items.count)
            for path in items where seenPaths.insert(path).inserted {
                let value = try item(path)
                if case .string(let id) = value, !seenStrings.insert(a.stringUID(id)).inserted { continue }
                values.append(value)
            }
            a.encode(.array(values), forKey: P.selectedItems.archiveKey)
        }
        if let v = state.firstVisibleItem { a.encode(try item(v), forKey: P.firstVisibleItem.archiveKey) }
        if let v = state.isEditing { a.encode(v, forKey: P.editing.archiveKey) }
        if let r = state.selectedRange {
            a.encode(.array([.int(Int64(r.location)), .int(Int64(r.length))]), forKey: P.selectedRange.archiveKey)
        }
        if let v = state.isEditable { a.encode(v, forKey: P.editable.archiveKey) }
        if let v = state.bounds {
            a.encode(doubles([v.origin.x, v.origin.y, v.size.width, v.size.height]), forKey: P.bounds.archiveKey)
        }
        if let v = state.center { a.encode(doubles([v.x, v.y]), forKey: P.center.archiveKey) }
        if let v = state.transform { a.encode(doubles([v.a, v.b, v.c, v.d, v.tx, v.ty]), forKey: P.transform.archiveKey) }
        if let v = state.anchorPoint { a.encode(doubles([v.x, v.y]), forKey: P.anchorPoint.archiveKey) }
        if let pages = state.pages {
            a.encode(.array(pages.map { p in
                .dictionary(["url": .string(p.url), "x": .double(p.scrollPosition.x), "y": .double(p.scrollPosition.y)])
            }), forKey: P.pages.archiveKey)
        }
        if let v = state.currentPage { a.encode(Int64(v), forKey: P.currentPage.archiveKey) }
    }

    private static func doubles(_ values: [Double]) -> ArchiveValue { .array(values.map { .double($0) }) }

    // MARK: Reading

    /// The standard state in the current object of `u` (a view's state), or nil if it has none.
    /// - Throws: `.corrupt` naming the property that is malformed.
    static func decode(from u: KeyedUnarchiver) throws(AmberError) -> Archived? {
        guard u.containsValue(forKey: kindKey) else { return nil }
        func bad(_ what: String) -> AmberError { AmberError(.corrupt, "the archived standard view state has \(what)") }
        let kindRaw: Int64
        do { kindRaw = try u.decodeInt64(forKey: kindKey) } catch { throw bad("a kind that is not an integer") }
        guard let raw = UInt8(exactly: kindRaw), let kind = ViewKind(rawValue: raw) else { throw bad("an unknown kind (\(kindRaw))") }
        var archived = Archived(state: ViewState(kind: kind))
        for property in ViewProperty.allCases where u.containsValue(forKey: property.archiveKey) {
            guard kind.keeps(property) else { throw bad("\(property.rawValue), which a \(kind) does not keep") }
            let value: ArchiveValue
            do {
                // The selection is a set: read as one, each archived item once (see
                // `decodeDistinctValues`), so that its memory follows the archive's objects,
                // not the references to them.
                value = property == .selectedItems
                    ? .array(try u.decodeDistinctValues(forKey: property.archiveKey, maxCount: ViewState.maxSelectedItems))
                    : try u.decodeValue(forKey: property.archiveKey)
            } catch { throw bad("an unreadable \(property.rawValue): \(error.message)") }
            try read(property, value, into: &archived, bad)
        }
        do { try archived.state.validate() } catch { throw bad("an invalid value: \(error.message)") }
        if let items = archived.selectedItems, items.count > ViewState.maxSelectedItems { throw bad("too many selected items") }
        return archived
    }

    private static func read(
        _ property: ViewProperty, _ value: ArchiveValue, into archived: inout Archived, _ bad: (String) -> AmberError
    ) throws(AmberError) {
        func numbers(_ count: Int) throws(AmberError) -> [Double] {
            guard case .array(let items) = value, items.count == count else {
                throw bad("a \(property.rawValue) that is not an array of \(count) numbers")
            }
            var out: [Double] = []
            for item in items {
                switch item {
                case .double(let d): out.append(d)
                case .int(let i): out.append(Double(i))
                default: throw bad("a \(property.rawValue) that is not an array of \(count) numbers")
                }
            }
            return out
        }
        func item(_ v: ArchiveValue) throws(AmberError) -> ArchivedItem {
            switch v {
            case .string(let s): return .modelIdentifier(s)
            case .indexPath(let p):
                do { try ViewState.checkIndexPath(p, "an archived item") } catch { throw bad(error.message) }
                return .indexPath(p)
            default: throw bad("an item (in \(property.rawValue)) that is neither a model identifier nor an index path")
            }
        }
        func bool() throws(AmberError) -> Bool {
            guard case .bool(let b) = value else { throw bad("a \(property.rawValue) that is not a boolean") }
            return b
        }
        switch property {
        case .contentOffset:
            let n = try numbers(2)
            archived.state.contentOffset = ViewPoint(x: n[0], y: n[1])
        case .contentInset:
            let n = try numbers(4)
            archived.state.contentInset = EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
        case .zoomScale:
            switch value {
            case .double(let d): archived.state.zoomScale = d
            case .int(let i): archived.state.zoomScale = Double(i)
            default: throw bad("a zoomScale that is not a number")
            }
        case .selectedItems:
            guard case .array(let items) = value else { throw bad("selectedItems that are not an array") }
            guard items.count <= ViewState.maxSelectedItems else { throw bad("\(items.count) selected items") }
            var out: [ArchivedItem] = []
            out.reserveCapacity(items.count)
            for v in items { out.append(try item(v)) }
            archived.selectedItems = out
        case .firstVisibleItem:
            archived.firstVisibleItem = try item(value)
        case .editing: archived.state.isEditing = try bool()
        case .selectedRange:
            guard case .array(let items) = value, items.count == 2, case .int(let loc) = items[0], case .int(let len) = items[1],
                  let l = Int(exactly: loc), let n = Int(exactly: len)
            else { throw bad("a selectedRange that is not two integers") }
            archived.state.selectedRange = TextRange(location: l, length: n)
        case .editable: archived.state.isEditable = try bool()
        case .bounds:
            let n = try numbers(4)
            archived.state.bounds = ViewRect(x: n[0], y: n[1], width: n[2], height: n[3])
        case .center:
            let n = try numbers(2)
            archived.state.center = ViewPoint(x: n[0], y: n[1])
        case .transform:
            let n = try numbers(6)
            archived.state.transform = AffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
        case .anchorPoint:
            let n = try numbers(2)
            archived.state.anchorPoint = ViewPoint(x: n[0], y: n[1])
        case .pages:
            guard case .array(let items) = value, items.count <= ViewState.maxPages else { throw bad("pages that are not an array") }
            var pages: [WebPage] = []
            for p in items {
                guard case .string(let url)? = p["url"], let x = number(p["x"]), let y = number(p["y"]) else {
                    throw bad("a page that is not { url, x, y }")
                }
                pages.append(WebPage(url: url, scrollPosition: ViewPoint(x: x, y: y)))
            }
            archived.state.pages = pages
        case .currentPage:
            guard case .int(let i) = value, let c = Int(exactly: i) else { throw bad("a currentPage that is not an integer") }
            archived.state.currentPage = c
        }
    }

    private static func number(_ v: ArchiveValue?) -> Double? {
        switch v {
        case .double(let d)?: return d
        case .int(let i)?: return Double(i)
        default: return nil
        }
    }
}
