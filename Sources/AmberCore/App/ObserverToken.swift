/// An observer's registration, for `AppNotificationCenter.removeObserver(_:)`.
public struct ObserverToken: Hashable, Sendable {
    /// The token's number (never 0).
    public let id: UInt64
    /// Wraps a number given out earlier.
    public init(id: UInt64) { self.id = id }
}
