/// One property of a view's standard state (SPEC R17); `ViewKind.properties` says which a kind
/// keeps. The raw values name the properties in messages and, prefixed with `amber.view.`, key
/// them in the view's archived state.
public enum ViewProperty: String, Sendable, CaseIterable {
    case contentOffset
    case contentInset
    case zoomScale
    case selectedItems
    case firstVisibleItem
    case editing
    case selectedRange
    case editable
    case bounds
    case center
    case transform
    case anchorPoint
    case pages
    case currentPage

    /// The reserved key the property is archived under, in the view's own state.
    var archiveKey: String { "amber.view." + rawValue }
}
