// Reading the current object's values without making a string per key: a fixed set of keys
// found in one pass over the object's entries (`KeySet`, for readers that know their keys, like
// the restoration engine's records), and typed decoding under a key given as UTF-8 bytes (for
// callers whose keys are bytes, like the C ABI). Both decode exactly as the `forKey:` functions
// do, with the same errors and messages.

extension KeyedUnarchiver {
    /// A value of the current object, found once (`KeySet`), decoded with the typed functions
    /// below. Valid while the unarchiver stays on that object.
    public struct Field: Sendable {
        let ref: Int
    }

    /// A fixed list of keys, found in an object in one pass (`readFields(_:)`): each of the
    /// object's keys is matched by its string object, as the last objects' keys were, so an
    /// archive that stores each key string once (Amber's, Foundation's) costs a comparison of
    /// references per entry, not of characters. Used by one unarchiver at a time.
    public final class KeySet {
        /// The keys, by index.
        public let names: [String]
        /// Each name as stored (`$` escaped as `$$`).
        let stored: [String]
        /// What the last objects read matched, and the values of the last one.
        @exclusivity(unchecked) var matches: Matches
        static let hints = 32

        /// A key set's memory of what it matched.
        struct Matches {
            /// The key string object each name matched last (-1: none yet).
            var keyRefs: [Int]
            /// By entry position, the key string object seen there last and the name it is (-1:
            /// none): objects of one kind list their keys in the same order.
            var hintRefs: [Int]
            var hintNames: [Int]
            /// The value found for each name by the last `readFields` (-1: absent).
            var values: [Int]
        }

        public init(_ names: [String]) {
            self.names = names
            stored = names.map { $0.utf8.first == 0x24 ? "$" + $0 : $0 }
            matches = Matches(
                keyRefs: [Int](repeating: -1, count: names.count),
                hintRefs: [Int](repeating: -1, count: Self.hints),
                hintNames: [Int](repeating: -1, count: Self.hints),
                values: [Int](repeating: -1, count: names.count))
        }

        /// The value of key `k` found by the last `readFields`, or nil if the object has none.
        @inline(__always)
        public subscript(_ k: Int) -> Field? {
            let r = matches.values[k]
            return r >= 0 ? Field(ref: r) : nil
        }

        /// The name index of the key whose string object is `keyRef`, or -1.
        func match(_ keyRef: Int, _ plist: BinaryPropertyList) -> Int {
            for k in matches.keyRefs.indices where matches.keyRefs[k] == keyRef { return k }
            for k in stored.indices where plist.stringEquals(keyRef, stored[k]) {
                matches.keyRefs[k] = keyRef
                return k
            }
            return -1
        }
    }

    /// Finds the values of `keys` in the current object, in one pass over its entries
    /// (`keys[k]` afterwards). A key stored twice yields its first value.
    public func readFields(_ keys: KeySet) {
        let dict = cursor.dict
        let refSize = plist.refSize
        for k in keys.matches.values.indices { keys.matches.values[k] = -1 }
        let valuesStart = dict.start + dict.count * refSize
        var j = 0
        while j < dict.count {
            let keyRef = plist.ref(at: dict.start + j * refSize)
            let k: Int
            if j < KeySet.hints {
                if keys.matches.hintRefs[j] == keyRef {
                    k = keys.matches.hintNames[j]
                } else {
                    k = keys.match(keyRef, plist)
                    keys.matches.hintRefs[j] = keyRef
                    keys.matches.hintNames[j] = k
                }
            } else {
                k = keys.match(keyRef, plist)
            }
            if k >= 0, keys.matches.values[k] < 0 { keys.matches.values[k] = plist.ref(at: valuesStart + j * refSize) }
            j += 1
        }
    }

    // MARK: Typed values of fields

    /// Decodes a boolean (as `decodeBool(forKey:)`).
    public func decodeBool(_ field: Field, forKey key: @autoclosure () -> String) throws(ArchiveError) -> Bool {
        let ref = field.ref
        let marker = plist.bytes[plist.offsets[ref]]
        guard marker == 0x08 || marker == 0x09 else { throw mismatch(key(), "boolean", ref) }
        return marker == 0x09
    }

    /// Decodes a 64-bit signed integer (as `decodeInt64(forKey:)`).
    public func decodeInt64(_ field: Field, forKey key: @autoclosure () -> String) throws(ArchiveError) -> Int64 {
        let ref = field.ref
        let h = plist.header(ref)
        guard h.marker >> 4 == 0x1 else { throw mismatch(key(), "integer", ref) }
        if h.count <= 2 { return Int64(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: 1 << h.count)) }
        guard let v = Int64(exactly: try plist.integer(h, ref: ref)) else {
            throw ArchiveError(.typeMismatch, "the integer for key '\(key())'\(where_) does not fit in Int64")
        }
        return v
    }

    /// Decodes a double; integers are accepted and converted (as `decodeDouble(forKey:)`).
    public func decodeDouble(_ field: Field, forKey key: @autoclosure () -> String) throws(ArchiveError) -> Double {
        let ref = field.ref
        let h = plist.header(ref)
        switch h.marker {
        case 0x23: return Double(bitPattern: BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: 8))
        case 0x22: return Double(Float(bitPattern: UInt32(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: 4))))
        case 0x10 ... 0x14: return Double(try plist.integer(h, ref: ref))
        default: throw mismatch(key(), "real", ref)
        }
    }

    /// Decodes a string (as `decodeString(forKey:)`).
    public func decodeString(_ field: Field, forKey key: @autoclosure () -> String) throws(ArchiveError) -> String {
        let ref = field.ref
        let h = plist.header(ref)
        guard h.marker >> 4 == 0x8 else { throw mismatch(key(), "string", ref) }
        let u = try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
        guard u != 0 else { throw mismatch(key(), "string", ref) }
        let target = archive.objectRefs[u]
        let slot = target & 1023
        if caches.recentStringRefs[slot] == target { return caches.recentStrings[slot] }
        let t = plist.header(target)
        if t.marker >> 4 == 0x5 || t.marker >> 4 == 0x6 {
            let s = try plist.string(t, ref: target)
            caches.recentStringRefs[slot] = target
            caches.recentStrings[slot] = s
            return s
        }
        valueBudget = plist.valueBudget
        guard case .string(let s) = try value(uid: u, depth: 0) else { throw mismatch(key(), "string", ref) }
        return s
    }

    /// Decodes any value of Foundation's standard classes (as `decodeValue(forKey:)`).
    public func decodeValue(_ field: Field, forKey key: @autoclosure () -> String) throws(ArchiveError) -> ArchiveValue {
        let ref = field.ref
        let h = plist.header(ref)
        switch h.marker >> 4 {
        case 0x8:
            valueBudget = plist.valueBudget
            return try value(uid: try uid(ref, key(), "value"), depth: 0)
        default:
            return try ArchiveValue(inPlace: try plist.value(at: ref), what: "the value for key '\(key())'\(where_)")
        }
    }

    /// The UID the value refers to, without decoding it; nil for `$null` (as
    /// `objectUID(forKey:)`).
    public func objectUID(_ field: Field, forKey key: @autoclosure () -> String) throws(ArchiveError) -> Int? {
        let h = plist.header(field.ref)
        guard h.marker >> 4 == 0x8 else {
            throw ArchiveError(.typeMismatch, "the value for key '\(key())' is \(a: KeyedArchive.typeName(h.marker)), not a reference to an object")
        }
        let u = try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
        return u == 0 ? nil : u
    }

    // MARK: Keys as UTF-8 bytes

    /// The value under a key given as UTF-8 bytes, or nil. Keys are compared as
    /// `decodeInt64(forKey:)` compares them: byte for byte with keys stored as ASCII, as
    /// strings with keys stored as UTF-16.
    public func field(forKeyUTF8 key: Span<UInt8>) -> Field? {
        let dict = cursor.dict
        let refSize = plist.refSize
        let escaped = key.count > 0 && key[0] == 0x24
        // First the key string object these bytes matched last (archives store each key once):
        // found among the object's keys by reference, then checked byte for byte.
        // The slot: length, first and last bytes (collisions are caught by the byte check).
        let n = key.count
        let slot = n == 0 ? 0 : (n &* 29 &+ Int(key[0]) &* 7 &+ Int(key[n - 1]) &* 3) & (caches.utf8KeyRefs.count - 1)
        let cached = caches.utf8KeyRefs[slot]
        var j = 0
        if cached >= 0 {
            // Objects of one kind list their keys in the same order: first where it was last.
            let at = caches.utf8KeyPositions[slot]
            if at < dict.count, plist.ref(at: dict.start + at * refSize) == cached, keyEquals(cached, key, escaped: escaped) {
                return Field(ref: plist.ref(at: dict.start + (dict.count + at) * refSize))
            }
            while j < dict.count {
                if plist.ref(at: dict.start + j * refSize) == cached {
                    if keyEquals(cached, key, escaped: escaped) {
                        caches.utf8KeyPositions[slot] = j
                        return Field(ref: plist.ref(at: dict.start + (dict.count + j) * refSize))
                    }
                    break
                }
                j += 1
            }
            j = 0
        }
        while j < dict.count {
            let keyRef = plist.ref(at: dict.start + j * refSize)
            if keyEquals(keyRef, key, escaped: escaped) {
                caches.utf8KeyRefs[slot] = keyRef
                caches.utf8KeyPositions[slot] = j
                return Field(ref: plist.ref(at: dict.start + (dict.count + j) * refSize))
            }
            j += 1
        }
        return nil
    }

    @inline(__always)
    private func keyEquals(_ ref: Int, _ key: Span<UInt8>, escaped: Bool) -> Bool {
        let h = plist.header(ref)
        switch h.marker >> 4 {
        case 0x5:
            var at = h.start
            if escaped {
                guard h.count == key.count + 1, plist.bytes[at] == 0x24 else { return false }
                at += 1
            } else {
                guard h.count == key.count else { return false }
            }
            return plist.bytes.withSpan(at, key)
        case 0x6:
            guard let s = try? plist.string(h, ref: ref) else { return false }
            let k = Self.string(key)
            return s == (escaped ? "$" + k : k)
        default:
            return false
        }
    }

    /// A key's bytes as a string (for messages; invalid UTF-8 is repaired).
    public static func string(_ key: Span<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.count)
        for i in key.indices { bytes.append(key[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func field(_ key: Span<UInt8>) throws(ArchiveError) -> Field {
        guard let f = field(forKeyUTF8: key) else { throw keyNotFound(Self.string(key)) }
        return f
    }

    /// Whether the current object has a value under the key.
    public func containsValue(forKeyUTF8 key: Span<UInt8>) -> Bool { field(forKeyUTF8: key) != nil }

    /// Decodes a boolean under a key given as UTF-8 bytes (as `decodeBool(forKey:)`).
    public func decodeBool(forKeyUTF8 key: Span<UInt8>) throws(ArchiveError) -> Bool {
        try decodeBool(try field(key), forKey: Self.string(key))
    }

    /// Decodes a 64-bit signed integer under a key given as UTF-8 bytes.
    public func decodeInt64(forKeyUTF8 key: Span<UInt8>) throws(ArchiveError) -> Int64 {
        try decodeInt64(try field(key), forKey: Self.string(key))
    }

    /// Decodes a double under a key given as UTF-8 bytes.
    public func decodeDouble(forKeyUTF8 key: Span<UInt8>) throws(ArchiveError) -> Double {
        try decodeDouble(try field(key), forKey: Self.string(key))
    }

    /// Decodes a string under a key given as UTF-8 bytes and calls `body` with its UTF-8 bytes
    /// (those of the archive itself for a string stored as ASCII: no string is made). Same
    /// errors as `decodeString(forKey:)`.
    public func withDecodedString<T>(forKeyUTF8 key: Span<UInt8>, _ body: (Span<UInt8>) -> T) throws(ArchiveError) -> T {
        let f = try field(key)
        let h = plist.header(f.ref)
        if h.marker >> 4 == 0x8 {
            let u = try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
            if u != 0 {
                let target = archive.objectRefs[u]
                let t = plist.header(target)
                if t.marker >> 4 == 0x5 {
                    return try plist.bytes.withASCII(t.start, t.count, ref: target, body)
                }
            }
        }
        let s = try decodeString(f, forKey: Self.string(key))
        return body(s.utf8.span)
    }

    /// Decodes a string under a key given as UTF-8 bytes.
    public func decodeString(forKeyUTF8 key: Span<UInt8>) throws(ArchiveError) -> String {
        try decodeString(try field(key), forKey: Self.string(key))
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the `count` bytes at `start`, the contents of ASCII string object
    /// `ref`, checked to be ASCII (as `BinaryPropertyList.string` checks them).
    @inline(__always)
    fileprivate func withASCII<T>(_ start: Int, _ count: Int, ref: Int, _ body: (Span<UInt8>) -> T) throws(ArchiveError) -> T {
        let all = span
        let bytes = all.extracting(start ..< start + count)
        for i in bytes.indices where bytes[i] >= 0x80 {
            throw .corrupt("ASCII string object \(ref) holds the non-ASCII byte 0x\(hex(bytes[i]))")
        }
        return body(bytes)
    }

    /// Whether `key` is found at `at` (which must leave room for it).
    @inline(__always)
    fileprivate func withSpan(_ at: Int, _ key: Span<UInt8>) -> Bool {
        let bytes = span
        for i in key.indices where bytes[at + i] != key[i] { return false }
        return true
    }
}
