// The box behind an amber_notification handle, lent for one observer callback (SPEC R24).

import AmberCore
import CAmber

/// The box behind an amber_notification handle, lent for one observer callback.
final class NotificationBox {
    let name: UnsafePointer<CChar>
    let sender: UnsafeRawPointer?
    /// The read-only user info's handle, live as long as this box's.
    let userInfo: OpaquePointer
    private let arena = ScratchArena()

    private init(_ n: AppNotification, engine: EngineBox) throws(AmberError) {
        name = UnsafePointer(try arena.string(n.name))
        sender = NotificationBox.pointer(of: n.sender, engine: engine)
        userInfo = try HandleRegistry.shared.register(UserInfoBox(n.userInfo, readOnly: true), .userInfo)
    }

    /// The C sender of an engine's sender: the engine's handle, or the address given.
    static func pointer(of sender: NotificationSender?, engine: EngineBox) -> UnsafeRawPointer? {
        switch sender {
        case .engine: UnsafeRawPointer(engine.handle)
        case .address(let a): UnsafeRawPointer(bitPattern: a)
        case .object, nil: nil
        }
    }

    /// The engine's sender of a C sender: the engine itself for its own handle.
    static func sender(of pointer: UnsafeRawPointer?, engine: EngineBox) -> NotificationSender? {
        guard let pointer else { return nil }
        if pointer == UnsafeRawPointer(engine.handle) { return .engine }
        return .address(UInt(bitPattern: pointer))
    }

    /// Lends a notification handle to `body`; it (and its user info) is dead once it returns.
    static func with<T>(_ n: AppNotification, engine: EngineBox, _ body: (OpaquePointer) throws -> T) throws -> T {
        let box = try NotificationBox(n, engine: engine)
        let handle = try HandleRegistry.shared.register(box, .notification)
        defer {
            HandleRegistry.shared.unregister(handle)
            HandleRegistry.shared.unregister(box.userInfo)
        }
        return try body(handle)
    }
}
