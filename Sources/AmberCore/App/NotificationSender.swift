/// Who posted a notification, for observers that listen to one sender only (SPEC R24).
public enum NotificationSender: Hashable, Sendable {
    /// The engine itself: the lifecycle and memory-warning notifications.
    case engine
    /// A Swift object of the host, by identity.
    case object(ObjectIdentifier)
    /// A C host's object, by its address (the C layer passes `const void *` senders this way).
    case address(UInt)
}
