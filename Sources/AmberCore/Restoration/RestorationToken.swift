/// An extension of restoration (SPEC R15), from `Engine.extendRestoration()`; pass it to
/// `Engine.completeRestoration(_:)` once the data the host waited for is loaded.
public struct RestorationToken: Hashable, Sendable {
    /// The token's number, unique in its engine.
    public let id: UInt64

    /// A token with a number (for the C layer, which hands numbers to the host).
    public init(id: UInt64) { self.id = id }
}
