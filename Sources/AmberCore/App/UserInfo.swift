/// The user info of a notification: typed values by key, kept in the order their keys were first
/// set (SPEC R24). Setting a key again replaces its value in place.
public struct UserInfo: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// The keys, in the order first set.
    public private(set) var keys: [String] = []
    private var values: [String: NotificationValue] = [:]

    /// An empty user info.
    public init() {}

    /// A user info of the pairs, in their order (a key given twice keeps its last value).
    public init(dictionaryLiteral elements: (String, NotificationValue)...) {
        for (k, v) in elements { self[k] = v }
    }

    /// The number of keys.
    public var count: Int { keys.count }
    /// Whether there are no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value of a key; setting nil removes the key.
    public subscript(key: String) -> NotificationValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// Sets the values under their keys, all or nothing (a key given twice keeps its last value).
    /// The subscript cannot refuse a key; this is how a host's user info is filled by checked
    /// calls (and `AppNotificationCenter.post` refuses what the subscript let in).
    /// - Throws: `.invalidArgument` for an empty key, setting none.
    public mutating func setValues(_ pairs: [(key: String, value: NotificationValue)]) throws(AmberError) {
        for pair in pairs { try Self.checkKey(pair.key) }
        for pair in pairs { self[pair.key] = pair.value }
    }

    /// The value of a key, nil if it has none.
    /// - Throws: `.invalidArgument` for an empty key, which no user info may hold.
    public func valueIfPresent(forKey key: String) throws(AmberError) -> NotificationValue? {
        try Self.checkKey(key)
        return values[key]
    }

    /// The value of a key.
    /// - Throws: `.notFound` for a key that has no value; `.invalidArgument` for an empty key.
    public func value(forKey key: String) throws(AmberError) -> NotificationValue {
        guard let v = try valueIfPresent(forKey: key) else { throw AmberError(.notFound, "the user info has no value for key '\(key)'") }
        return v
    }

    /// The key a user info refuses (SPEC R24): the empty one, as the engine's coder does.
    /// - Throws: `.invalidArgument` for "".
    static func checkKey(_ key: String) throws(AmberError) {
        guard !key.isEmpty else { throw AmberError(.invalidArgument, "the user info's key is empty") }
    }

    /// Whether a key is empty (only the subscript can set one; a post refuses it).
    var hasEmptyKey: Bool { values[""] != nil }

    private func mismatch(_ key: String, _ found: NotificationValue, _ wanted: String) -> AmberError {
        AmberError(.typeMismatch, "the user info's value for key '\(key)' is \(a: found.typeName), not \(a: wanted)")
    }

    /// The boolean under a key. - Throws: `.notFound`, `.typeMismatch`.
    public func bool(forKey key: String) throws(AmberError) -> Bool {
        let v = try value(forKey: key)
        guard case .bool(let b) = v else { throw mismatch(key, v, "bool") }
        return b
    }

    /// The integer under a key. - Throws: `.notFound`, `.typeMismatch`.
    public func int64(forKey key: String) throws(AmberError) -> Int64 {
        let v = try value(forKey: key)
        guard case .int64(let i) = v else { throw mismatch(key, v, "int64") }
        return i
    }

    /// The double under a key; an integer is converted. - Throws: `.notFound`, `.typeMismatch`.
    public func double(forKey key: String) throws(AmberError) -> Double {
        let v = try value(forKey: key)
        switch v {
        case .double(let d): return d
        case .int64(let i): return Double(i)
        default: throw mismatch(key, v, "double")
        }
    }

    /// The string under a key. - Throws: `.notFound`, `.typeMismatch`.
    public func string(forKey key: String) throws(AmberError) -> String {
        let v = try value(forKey: key)
        guard case .string(let s) = v else { throw mismatch(key, v, "string") }
        return s
    }

    /// The bytes under a key. - Throws: `.notFound`, `.typeMismatch`.
    public func bytes(forKey key: String) throws(AmberError) -> [UInt8] {
        let v = try value(forKey: key)
        guard case .bytes(let b) = v else { throw mismatch(key, v, "bytes") }
        return b
    }
}

extension String.StringInterpolation {
    /// "a bool", "an int64": a type name with its article.
    mutating func appendInterpolation(a name: String) {
        let vowel = name.first.map { "aeiou".contains($0) } ?? false
        appendLiteral((vowel ? "an " : "a ") + name)
    }
}
