/// How a restorable object hangs from its parent. The raw values are those the archive records.
public enum ObjectRelation: UInt8, Sendable, CaseIterable {
    /// It has no parent (a root, or an object not yet placed).
    case none = 0
    /// A child of a controller (containment), see `RestorableObject.addChild(_:)`.
    case child = 1
    /// The controller presented by its parent (modal), see `RestorableObject.present(_:)`.
    case presented = 2
    /// A view of a controller, see `RestorableObject.addView(_:)`.
    case view = 3
    /// A plain object whose restoration parent it is, see `RestorableObject.setRestorationParent(_:)`.
    case restorationChild = 4
}
