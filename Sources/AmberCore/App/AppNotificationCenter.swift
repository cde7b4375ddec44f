/// The notification center of an engine (SPEC R24): observers register for a name (or every
/// name) and, optionally, one sender; a post calls the matching observers at once, on the
/// poster's thread, in the order they registered.
///
/// - Delivery works on the observers registered when the post begins: an observer added during
///   a delivery is not called in that delivery (it is in the next post). An observer removed
///   during a delivery is not called afterwards in it, if it had not been called yet.
/// - A notification posted from inside a delivery is delivered at once, before the outer
///   delivery goes on; posts may nest `maxNesting` deep.
/// - An observer that throws does not stop the delivery: the others are still called, and the
///   post throws the first error once every observer has run.
/// - Each observer may carry an `onRemove` closure (the C layer's context destructor): it runs
///   exactly once, when the observer is removed or the center removes all observers (the
///   engine closing) — but never in the middle of a delivery: if a delivery is under way it
///   runs when the outermost delivery ends, so an observer may remove itself and keep using its
///   context until it returns.
///
/// Used by one thread at a time, like its engine.
public final class AppNotificationCenter {
    private struct Observer {
        let id: UInt64
        let name: String?
        let sender: NotificationSender?
        let callback: (AppNotification) throws -> Void
        let onRemove: (() -> Void)?

        func matches(_ n: AppNotification) -> Bool {
            (name == nil || name == n.name) && (sender == nil || sender == n.sender)
        }
    }

    /// How deep posts may nest (an observer posting, whose observer posts…).
    public static let maxNesting = 64

    /// In registration order.
    private var observers: [Observer] = []
    /// The ids of `observers`, for the check made before each call of a delivery.
    private var liveIDs: Set<UInt64> = []
    private var nextID: UInt64 = 1
    private var depth = 0
    private var pendingRemovals: [() -> Void] = []

    /// Creates a center without observers.
    public init() {}

    /// The number of observers registered.
    public var observerCount: Int { observers.count }

    /// Whether a delivery is under way.
    public var isDelivering: Bool { depth > 0 }

    /// Registers an observer.
    /// - Parameters:
    ///   - name: the notification's name, or nil for every notification.
    ///   - sender: only notifications of this sender, or nil for any sender.
    ///   - onRemove: run once when the observer is removed (see the type's notes).
    ///   - callback: called with each matching notification.
    /// - Returns: the token that removes it.
    ///
    /// Backs `amber_engine_add_observer`.
    @discardableResult
    public func addObserver(
        name: String?, sender: NotificationSender? = nil, onRemove: (() -> Void)? = nil,
        _ callback: @escaping (AppNotification) throws -> Void
    ) -> ObserverToken {
        let id = nextID
        nextID += 1
        liveIDs.insert(id)
        observers.append(Observer(id: id, name: name, sender: sender, callback: callback, onRemove: onRemove))
        return ObserverToken(id: id)
    }

    /// Removes an observer; it is not called again, also not later in a delivery under way.
    /// - Throws: `.notFound` for a token not given out or already removed.
    ///
    /// Backs `amber_engine_remove_observer`.
    public func removeObserver(_ token: ObserverToken) throws(AmberError) {
        guard let i = observers.firstIndex(where: { $0.id == token.id }) else {
            throw AmberError(.notFound, "observer \(token.id) is not registered (removed already, or never added)")
        }
        let removed = observers.remove(at: i)
        liveIDs.remove(removed.id)
        if let onRemove = removed.onRemove { schedule(onRemove) }
    }

    /// Removes every observer (each one's `onRemove` runs, in registration order).
    public func removeAllObservers() {
        let all = observers
        observers = []
        liveIDs = []
        for o in all { if let onRemove = o.onRemove { schedule(onRemove) } }
    }

    /// Whether an observer is registered.
    public func contains(_ token: ObserverToken) -> Bool { liveIDs.contains(token.id) }

    /// Posts a notification: calls each matching observer registered now, in registration order.
    /// - Throws: `.invalidArgument` (and calls no one) for an empty name, which no observer can
    ///   ask for by name, or a user info with an empty key; `.limitExceeded` (and calls no one) when posts nest deeper than
    ///   `maxNesting`; otherwise the first error an observer threw, after every observer ran.
    ///
    /// Backs `amber_engine_post_notification`.
    public func post(_ notification: AppNotification) throws {
        guard !notification.name.isEmpty else {
            throw AmberError(.invalidArgument, "the notification name is empty")
        }
        guard !notification.userInfo.hasEmptyKey else {
            throw AmberError(.invalidArgument, "the user info of '\(notification.name)' has an empty key")
        }
        guard depth < Self.maxNesting else {
            throw AmberError(.limitExceeded, "'\(notification.name)' was posted from inside \(depth) nested deliveries, the limit")
        }
        let recipients = observers.filter { $0.matches(notification) }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { runPendingRemovals() }
        }
        var firstError: (any Error)?
        for o in recipients {
            // Removed by an observer called before it in this delivery (or a nested one).
            guard liveIDs.contains(o.id) else { continue }
            do {
                try o.callback(notification)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// Posts a notification by name.
    public func post(name: String, sender: NotificationSender? = nil, userInfo: UserInfo = UserInfo()) throws {
        try post(AppNotification(name: name, sender: sender, userInfo: userInfo))
    }

    private func schedule(_ onRemove: @escaping () -> Void) {
        if depth > 0 { pendingRemovals.append(onRemove) } else { onRemove() }
    }

    private func runPendingRemovals() {
        while !pendingRemovals.isEmpty {
            pendingRemovals.removeFirst()()
        }
    }
}
