/// What a restorable object is (SPEC R1). The raw values are those the archive records.
public enum ObjectKind: UInt8, Sendable, CaseIterable {
    /// A controller (a UIViewController): it has children, may present another controller, and
    /// owns views.
    case controller = 0
    /// A view (a UIView): it belongs to a controller.
    case view = 1
    /// A plain object (a UIStateRestoring object: a data source, a model cursor): it names a
    /// restoration parent and is preserved only when something references it (SPEC R4).
    case object = 2
}
