/// The kinds of view whose standard state the engine keeps (SPEC R17), after UIKit's views that
/// preserve state of their own. The raw values are those of `amber_view_kind` and of the archive.
public enum ViewKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// A scroll view (UIScrollView): content offset, content inset, zoom scale.
    case scroll = 1
    /// A table (UITableView): a scroll view's state, selected items, first visible item, editing.
    case table = 2
    /// A collection (UICollectionView): as a table.
    case collection = 3
    /// A text field (UITextField): the selected range.
    case textField = 4
    /// A text view (UITextView): the selected range and whether it is editable.
    case textView = 5
    /// An image view (UIImageView): bounds, center, transform, anchor point.
    case image = 6
    /// A web view (UIWebView): the back/forward list, each page's URL and scroll position, and
    /// the current page.
    case web = 7

    /// The properties a view of this kind keeps.
    public var properties: Set<ViewProperty> {
        switch self {
        case .scroll: return [.contentOffset, .contentInset, .zoomScale]
        case .table, .collection:
            return [.contentOffset, .contentInset, .zoomScale, .selectedItems, .firstVisibleItem, .editing]
        case .textField: return [.selectedRange]
        case .textView: return [.selectedRange, .editable]
        case .image: return [.bounds, .center, .transform, .anchorPoint]
        case .web: return [.pages, .currentPage]
        }
    }

    /// Whether a view of this kind keeps a property.
    public func keeps(_ property: ViewProperty) -> Bool { properties.contains(property) }

    /// Whether the kind has a text whose length bounds its selected range.
    public var hasText: Bool { self == .textField || self == .textView }

    /// `scroll view`, `table`, `collection`, `text field`, `text view`, `image view`, `web view`.
    public var description: String {
        switch self {
        case .scroll: return "scroll view"
        case .table: return "table"
        case .collection: return "collection"
        case .textField: return "text field"
        case .textView: return "text view"
        case .image: return "image view"
        case .web: return "web view"
        }
    }
}
