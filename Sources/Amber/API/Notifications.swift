// amber.h — Notifications (SPEC R24): user infos, observers, posts.

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

/// Backs `amber_user_info_set_bool`.
@c @implementation public func amber_user_info_set_bool(_ info: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: CInt) -> CInt {
    guarded { try userInfoBox(info).set(.bool(value != 0), try inputKey(key)) }
}

/// Backs `amber_user_info_set_int64`.
@c @implementation public func amber_user_info_set_int64(_ info: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int64) -> CInt {
    guarded { try userInfoBox(info).set(.int64(value), try inputKey(key)) }
}

/// Backs `amber_user_info_set_double`.
@c @implementation public func amber_user_info_set_double(_ info: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Double) -> CInt {
    guarded { try userInfoBox(info).set(.double(value), try inputKey(key)) }
}

/// Backs `amber_user_info_set_string`.
@c @implementation public func amber_user_info_set_string(_ info: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let box = try userInfoBox(info)
        let k = try inputKey(key)
        try box.set(.string(try inputString(value, "value")), k)
    }
}

/// Backs `amber_user_info_set_bytes`.
@c @implementation public func amber_user_info_set_bytes(_ info: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?, _ size: Int) -> CInt {
    guarded {
        let box = try userInfoBox(info)
        let k = try inputKey(key)
        try box.set(.bytes(try inputBytes(bytes, size)), k)
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

/// Backs `amber_user_info_type`.
@c @implementation public func amber_user_info_type(_ out: UnsafeMutablePointer<CInt>?, _ info: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let t: amber_value_type
        switch try userInfoBox(info).info.value(forKey: try inputKey(key)) {
        case .bool: t = AMBER_VALUE_BOOL
        case .int64: t = AMBER_VALUE_INT64
        case .double: t = AMBER_VALUE_DOUBLE
        case .string: t = AMBER_VALUE_STRING
        case .bytes: t = AMBER_VALUE_BYTES
        }
        o.pointee = CInt(t.rawValue)
    }
}

/// Backs `amber_user_info_get_bool`.
@c @implementation public func amber_user_info_get_bool(_ out: UnsafeMutablePointer<CInt>?, _ info: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try userInfoBox(info).info.bool(forKey: try inputKey(key)) ? 1 : 0
    }
}

/// Backs `amber_user_info_get_int64`.
@c @implementation public func amber_user_info_get_int64(_ out: UnsafeMutablePointer<Int64>?, _ info: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try userInfoBox(info).info.int64(forKey: try inputKey(key))
    }
}

/// Backs `amber_user_info_get_double`.
@c @implementation public func amber_user_info_get_double(_ out: UnsafeMutablePointer<Double>?, _ info: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try userInfoBox(info).info.double(forKey: try inputKey(key))
    }
}

/// Backs `amber_user_info_get_string`.
@c @implementation public func amber_user_info_get_string(_ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ info: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try userInfoBox(info).string(try inputKey(key))
    }
}

/// Backs `amber_user_info_get_bytes`.
@c @implementation public func amber_user_info_get_bytes(
    _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int>?,
    _ info: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> CInt {
    guarded {
        let o = try outPointer(out)
        let s = try outPointer(out_size)
        let (p, n) = try userInfoBox(info).bytes(try inputKey(key))
        o.pointee = p
        s.pointee = n
    }
}

// MARK: Notifications

/// Backs `amber_notification_name`.
@c @implementation public func amber_notification_name(_ note: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(staticEmpty) { try notificationBox(note).name }
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
        guard !n.isEmpty else { throw invalid("the notification name is empty") }
        let info = try user_info.map { h throws(AmberError) in try userInfoBox(h).info } ?? UserInfo()
        let note = AppNotification(name: n, sender: NotificationBox.sender(of: sender, engine: box), userInfo: info)
        try box.operation { try box.engine.notificationCenter.post(note) }
    }
}
