// The box behind an amber_user_info handle: a user info of the host's, or a notification's
// (read-only, lent for one observer callback), with the C strings and bytes it lends.

import AmberCore
import CAmber

/// A user info (SPEC R24) and what it lent.
final class UserInfoBox {
    var info: UserInfo
    /// A notification's: the setters and amber_user_info_free() refuse it.
    let isReadOnly: Bool
    /// What the getters lent, kept until the box is freed; the caches give the same pointer to
    /// repeated reads, so that reading in a loop does not grow the arena.
    private let arena = ScratchArena()
    private var keyPointers: [Int: UnsafePointer<CChar>] = [:]
    private var stringPointers: [String: UnsafePointer<CChar>] = [:]
    private var bytePointers: [String: UnsafePointer<UInt8>] = [:]

    init(_ info: UserInfo, readOnly: Bool) {
        self.info = info
        self.isReadOnly = readOnly
    }

    /// Sets the values, all or nothing (`UserInfo.setValues` checks the keys); refused on a
    /// notification's user info.
    func set(_ pairs: [(key: String, value: NotificationValue)]) throws(AmberError) {
        guard !isReadOnly else { throw misuse("a notification's user info is read-only") }
        let countBefore = info.count
        try info.setValues(pairs)
        for (key, _) in pairs {
            stringPointers[key] = nil
            bytePointers[key] = nil
        }
        if info.count != countBefore { keyPointers = [:] }
    }

    func key(at index: Int) throws(AmberError) -> UnsafePointer<CChar> {
        try checkIndex(index, info.count, "key", of: "the user info")
        if let p = keyPointers[index] { return p }
        let p = UnsafePointer(try arena.string(info.keys[index]))
        keyPointers[index] = p
        return p
    }

    /// Fills one element of amber_user_info_values(): its value under its key, of its type
    /// (AMBER_VALUE_ANY: of the value's own type, written back into `type`).
    func read(_ v: inout amber_keyed_value) throws(AmberError) {
        let key = try engineKey(v.key)
        guard let value = try info.valueIfPresent(forKey: key) else {
            guard v.type.rawValue <= AMBER_VALUE_BYTES.rawValue else {
                throw notAUserInfoType(v.type)
            }
            v.found = 0
            return
        }
        var type = v.type
        if type == AMBER_VALUE_ANY {
            switch value {
            case .bool: type = AMBER_VALUE_BOOL
            case .int64: type = AMBER_VALUE_INT64
            case .double: type = AMBER_VALUE_DOUBLE
            case .string: type = AMBER_VALUE_STRING
            case .bytes: type = AMBER_VALUE_BYTES
            }
        }
        switch type {
        case AMBER_VALUE_BOOL: v.int64_value = try info.bool(forKey: key) ? 1 : 0
        case AMBER_VALUE_INT64: v.int64_value = try info.int64(forKey: key)
        case AMBER_VALUE_DOUBLE: v.double_value = try info.double(forKey: key)
        case AMBER_VALUE_STRING: v.string_value = try string(key)
        case AMBER_VALUE_BYTES:
            let (p, n) = try bytes(key)
            v.bytes_value = UnsafeRawPointer(p)
            v.bytes_size = n
        default:
            throw notAUserInfoType(v.type)
        }
        v.type = type
        v.found = 1
    }

    func string(_ key: String) throws(AmberError) -> UnsafePointer<CChar> {
        let s = try info.string(forKey: key)
        if let p = stringPointers[key] { return p }
        let p = UnsafePointer(try arena.string(s))
        stringPointers[key] = p
        return p
    }

    func bytes(_ key: String) throws(AmberError) -> (UnsafePointer<UInt8>, Int) {
        let b = try info.bytes(forKey: key)
        if let p = bytePointers[key] { return (p, b.count) }
        let p = UnsafePointer(try arena.bytes(b))
        bytePointers[key] = p
        return (p, b.count)
    }
}

/// The refusal of a value type a user info does not hold (reading or writing one).
func notAUserInfoType(_ type: amber_value_type) -> AmberError {
    invalid("a user info holds bool, int64, double, string and bytes values, not type \(type.rawValue)")
}
