// amber/app.h — Notifications (SPEC R24): user infos, observers, posts.

import AmberCore
import CAmber

/// The user info box of a live handle.
func userInfoBox(_ handle: OpaquePointer?) throws(AmberError) -> UserInfoBox {
    try HandleRegistry.shared.resolve(handle, .userInfo, as: UserInfoBox.self)
}

/// The notification box of a live handle.
func notificationBox(_ handle: OpaquePointer?) throws(AmberError) -> NotificationBox {
    try HandleRegistry.shared.resolve(handle, .notification, as: NotificationBox.self)
}

// MARK: User infos

/// Backs `amber_user_info_new`.
@c @implementation public func amber_user_info_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = try HandleRegistry.shared.register(UserInfoBox(UserInfo(), readOnly: false), .userInfo)
    }
}

/// Backs `amber_user_info_free`.
@c @implementation public func amber_user_info_free(_ info: OpaquePointer?) {
    guard let info else { return }
    _ = guarded {
        let box = try userInfoBox(info)
        guard !box.isReadOnly else { throw misuse("a notification's user info is not the caller's to free") }
        HandleRegistry.shared.unregister(info)
    }
}

/// Backs `amber_user_info_count`.
@c @implementation public func amber_user_info_count(_ info: OpaquePointer?) -> Int {
    guarded(0) { try userInfoBox(info).info.count }
}

/// Backs `amber_user_info_key_at`.
@c @implementation public func amber_user_info_key_at(_ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ info: OpaquePointer?, _ index: Int) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try userInfoBox(info).key(at: index)
    }
}

/// Backs `amber_user_info_set_values`: every value is checked before any is set.
@c @implementation public func amber_user_info_set_values(
    _ info: OpaquePointer?, _ values: UnsafePointer<amber_keyed_value>?, _ count: Int
) -> CInt {
    guarded {
        let box = try userInfoBox(info)
        let n = try inputCount(count, "count")
        guard n > 0 else { return }
        guard let values else { throw invalid("values is NULL and count is \(n)") }
        guard !box.isReadOnly else { throw misuse("a notification's user info is read-only") }
        var checked: [(key: String, value: NotificationValue)] = []
        checked.reserveCapacity(n)
        for i in 0 ..< n {
            do throws(AmberError) {
                let v = values[i]
                let key = try engineKey(v.key)
                let value: NotificationValue
                switch v.type {
                case AMBER_VALUE_BOOL: value = .bool(v.int64_value != 0)
                case AMBER_VALUE_INT64: value = .int64(v.int64_value)
                case AMBER_VALUE_DOUBLE: value = .double(v.double_value)
                case AMBER_VALUE_STRING: value = .string(try inputString(v.string_value, "the string value"))
                case AMBER_VALUE_BYTES: value = .bytes(try inputBytes(v.bytes_value, v.bytes_size))
                default:
                    throw notAUserInfoType(v.type)
                }
                checked.append((key, value))
            } catch {
                throw AmberError(error.code, "\(keyedValueLabel(values, i)): \(error.message)")
            }
        }
        try box.set(checked)
    }
}

/// Backs `amber_user_info_values`: each element's value, `found` 0 for a missing key.
@c @implementation public func amber_user_info_values(
    _ values: UnsafeMutablePointer<amber_keyed_value>?, _ count: Int, _ info: OpaquePointer?
) -> CInt {
    guarded {
        let box = try userInfoBox(info)
        let n = try inputCount(count, "count")
        guard n > 0 else { return }
        guard let values else { throw invalid("values is NULL and count is \(n)") }
        for i in 0 ..< n {
            do throws(AmberError) {
                try box.read(&values[i])
            } catch {
                throw AmberError(error.code, "\(keyedValueLabel(UnsafePointer(values), i)): \(error.message)")
            }
        }
    }
}

// MARK: Notifications

/// Backs `amber_notification_name`.
@c @implementation public func amber_notification_name(_ note: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(nil) { try notificationBox(note).name }
}

/// Backs `amber_notification_sender`.
@c @implementation public func amber_notification_sender(_ note: OpaquePointer?) -> UnsafeRawPointer? {
    guarded(nil) { try notificationBox(note).sender }
}

/// Backs `amber_notification_user_info`.
@c @implementation public func amber_notification_user_info(_ note: OpaquePointer?) -> OpaquePointer? {
    guarded(nil) { try notificationBox(note).userInfo }
}

// MARK: Observers and posts

/// Registers an observer. Backs `amber_engine_add_observer`.
@c @implementation public func amber_engine_add_observer(
    _ out: UnsafeMutablePointer<UInt64>?, _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ sender: UnsafeRawPointer?, _ callback: amber_observer_fn?, _ ctx: UnsafeMutableRawPointer?,
    _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let box = try engineBox(engine)
        let observed = try optionalString(name, "name")
        guard let callback else { throw invalid("callback is NULL") }
        let context = HostContext(ctx, ctx_free)
        let what = observed.map { "an observer of '\($0)'" } ?? "an observer of every notification"
        let token = box.engine.notificationCenter.addObserver(
            name: observed, sender: NotificationBox.sender(of: sender, engine: box),
            onRemove: { context.release() }
        ) { [weak box] note in
            guard let box else { return }
            try NotificationBox.with(note, engine: box) { h in
                try callHost("\(what), called with '\(note.name)',") { callback(h, context.ctx) }
            }
        }
        out.pointee = token.id
    }
}

/// Removes an observer. Backs `amber_engine_remove_observer`.
@c @implementation public func amber_engine_remove_observer(_ engine: OpaquePointer?, _ token: UInt64) -> CInt {
    guarded {
        let box = try engineBox(engine)
        try box.operation {
            do { try box.engine.notificationCenter.removeObserver(ObserverToken(id: token)) } catch { throw error as any Error }
        }
    }
}

/// Posts a notification. Backs `amber_engine_post_notification`.
@c @implementation public func amber_engine_post_notification(
    _ engine: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ sender: UnsafeRawPointer?, _ user_info: OpaquePointer?
) -> CInt {
    guarded {
        let box = try engineBox(engine)
        let n = try inputString(name, "name")
        let info = try user_info.map { h throws(AmberError) in try userInfoBox(h).info } ?? UserInfo()
        let note = AppNotification(name: n, sender: NotificationBox.sender(of: sender, engine: box), userInfo: info)
        try box.operation { try box.engine.notificationCenter.post(note) }
    }
}
