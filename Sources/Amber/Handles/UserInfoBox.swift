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
    private let arena = CArena()
    private var keyPointers: [Int: UnsafePointer<CChar>] = [:]
    private var stringPointers: [String: UnsafePointer<CChar>] = [:]
    private var bytePointers: [String: UnsafePointer<UInt8>] = [:]

    init(_ info: UserInfo, readOnly: Bool) {
        self.info = info
        self.isReadOnly = readOnly
    }

    /// Sets a value; refused on a notification's user info.
    func set(_ value: NotificationValue, _ key: String) throws(AmberError) {
        guard !isReadOnly else { throw misuse("a notification's user info is read-only") }
        let isNew = info[key] == nil
        info[key] = value
        stringPointers[key] = nil
        bytePointers[key] = nil
        if isNew { keyPointers = [:] }
    }

    func key(at index: Int) throws(AmberError) -> UnsafePointer<CChar> {
        guard index >= 0, index < info.count else {
            throw AmberError(.notFound, "key \(UInt(bitPattern: index)) is past the end (the user info has \(info.count))")
        }
        if let p = keyPointers[index] { return p }
        let p = UnsafePointer(try arena.string(info.keys[index]))
        keyPointers[index] = p
        return p
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
