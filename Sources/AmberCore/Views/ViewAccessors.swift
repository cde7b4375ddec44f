/// How the engine reads and applies the standard state of one view (SPEC R17): the view's kind
/// and the host's accessors. Set on a view with `RestorableObject.setViewAccessors(_:)`.
public struct ViewAccessors {
    /// The kind of view.
    public var kind: ViewKind
    /// Fills the view's standard state at preservation (the state comes in empty, of `kind`).
    /// An error thrown stops the preservation and is thrown, unchanged, by `Engine.preserve()`.
    public var read: (RestorableObject, inout ViewState) throws -> Void
    /// Applies the restored standard state, once the view's own decode callback has run. An
    /// error thrown makes the view's outcome a `decodeError`.
    public var apply: (RestorableObject, ViewState) throws -> Void
    /// Text fields and text views: the length of the text the view shows now, in the unit of
    /// its selected ranges; asked at restoration, before `apply`, so that a range that no longer
    /// fits restores as no selection. Required for a text field and a text view
    /// (`RestorableObject.setViewAccessors` refuses them without it); other kinds ignore it.
    public var textLength: ((RestorableObject) throws -> Int)?

    /// Creates accessors.
    public init(
        kind: ViewKind,
        read: @escaping (RestorableObject, inout ViewState) throws -> Void,
        apply: @escaping (RestorableObject, ViewState) throws -> Void,
        textLength: ((RestorableObject) throws -> Int)? = nil
    ) {
        self.kind = kind
        self.read = read
        self.apply = apply
        self.textLength = textLength
    }
}
