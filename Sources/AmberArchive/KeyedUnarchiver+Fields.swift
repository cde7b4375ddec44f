// Reading the current object's values without making a string per key: a fixed set of keys
// found in one pass over the object's entries (`KeySet`, for readers that know their keys, like
// the restoration engine's records), and typed decoding under an interned key (`ArchiveKey`, for
// callers that read the same keys for many objects, like the engine's coders and the C ABI). Both decode exactly as the `forKey:` functions
// do, with the same errors and messages.

extension KeyedUnarchiver {
    /// A value of the current object, found once (`KeySet`), decoded with the typed functions
    /// below. Valid while the unarchiver stays on that object.
    public struct Field: Sendable {
        @usableFromInline let ref: Int

        @usableFromInline init(ref: Int) { self.ref = ref }
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
        @usableFromInline let memory: Memory
        static let hints = 32

        /// A key set's memory of what it matched, as one stored property with Swift's run-time
        /// exclusivity checks off, as the unarchiver's own state (`UnarchiverState`): a key set
        /// is used by one unarchiver, on one thread, at a time, and no access to its memory
        /// outlives the call that makes it.
        @usableFromInline final class Memory {
            @usableFromInline @exclusivity(unchecked) var matches: Matches
            init(_ matches: Matches) { self.matches = matches }
        }

        /// What a key set matched.
        @usableFromInline struct Matches {
            /// The key string object each name matched last (-1: none yet).
            var keyRefs: [Int]
            /// By entry position, the key string object seen there last and the name it is (-1:
            /// none): objects of one kind list their keys in the same order.
            var hintRefs: [Int]
            var hintNames: [Int]
            /// The value found for each name by the last `readFields` (-1: absent).
            @usableFromInline var values: [Int]
        }

        public init(_ names: [String]) {
            self.names = names
            stored = names.map { $0.utf8.first == 0x24 ? "$" + $0 : $0 }
            memory = Memory(Matches(
                keyRefs: [Int](repeating: -1, count: names.count),
                hintRefs: [Int](repeating: -1, count: Self.hints),
                hintNames: [Int](repeating: -1, count: Self.hints),
                values: [Int](repeating: -1, count: names.count)))
        }

        /// The value of key `k` found by the last `readFields`, or nil if the object has none.
        /// Inlinable: the engine reads some ten a record.
        @inlinable
        public subscript(_ k: Int) -> Field? {
            let r = memory.matches.values[k]
            return r >= 0 ? Field(ref: r) : nil
        }

        /// The name index of the key whose string object is `keyRef`, or -1.
        func match(_ keyRef: Int, _ plist: BinaryPropertyList) -> Int {
            for k in memory.matches.keyRefs.indices where memory.matches.keyRefs[k] == keyRef { return k }
            for k in stored.indices where plist.stringEquals(keyRef, stored[k]) {
                memory.matches.keyRefs[k] = keyRef
                return k
            }
            return -1
        }
    }

    /// Finds the values of `keys` in the current object, in one pass over its entries
    /// (`keys[k]` afterwards). A key stored twice yields its first value.
    public func readFields(_ keys: KeySet) {
        let dict = state.cursor.dict
        let refSize = plist.refSize
        for k in keys.memory.matches.values.indices { keys.memory.matches.values[k] = -1 }
        let valuesStart = dict.start + dict.count * refSize
        var j = 0
        while j < dict.count {
            let keyRef = plist.ref(at: dict.start + j * refSize)
            let k: Int
            if j < KeySet.hints {
                if keys.memory.matches.hintRefs[j] == keyRef {
                    k = keys.memory.matches.hintNames[j]
                } else {
                    k = keys.match(keyRef, plist)
                    keys.memory.matches.hintRefs[j] = keyRef
                    keys.memory.matches.hintNames[j] = k
                }
            } else {
                k = keys.match(keyRef, plist)
            }
            if k >= 0, keys.memory.matches.values[k] < 0 { keys.memory.matches.values[k] = plist.ref(at: valuesStart + j * refSize) }
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
        if let s = state.caches.strings.find(target) { return s }
        let t = plist.header(target)
        if t.marker >> 4 == 0x5 || t.marker >> 4 == 0x6 {
            let s = try plist.string(t, ref: target)
            state.caches.strings.store(s, for: target)
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

    // MARK: Interned keys

    /// The value under an interned key, or nil. Keys are compared as `decodeInt64(forKey:)`
    /// compares them: byte for byte with keys stored as ASCII, as strings with keys stored as
    /// UTF-16.
    public func field(forKey key: ArchiveKey) -> Field? {
        let dict = state.cursor.dict
        let refSize = plist.refSize
        // First the key's string object as last found, at its last position, then anywhere in
        // the object (objects of one kind list their keys in one order).
        if let last = key.lastFound(in: self) {
            let at = last.position
            if at < dict.count, plist.ref(at: dict.start + at * refSize) == last.ref {
                return Field(ref: plist.ref(at: dict.start + (dict.count + at) * refSize))
            }
            for j in 0 ..< dict.count where plist.ref(at: dict.start + j * refSize) == last.ref {
                key.found(in: self, ref: last.ref, position: j)
                return Field(ref: plist.ref(at: dict.start + (dict.count + j) * refSize))
            }
        }
        // Then by the key's bytes (an archive may store a key's string more than once).
        var string = key.string
        let escaped = string.utf8.first == 0x24
        return string.withUTF8 { bytes -> Field? in
            let span = bytes.span
            for j in 0 ..< dict.count {
                let keyRef = plist.ref(at: dict.start + j * refSize)
                if keyEquals(keyRef, span, key.string, escaped: escaped) {
                    key.found(in: self, ref: keyRef, position: j)
                    return Field(ref: plist.ref(at: dict.start + (dict.count + j) * refSize))
                }
            }
            return nil
        }
    }

    @inline(__always)
    private func keyEquals(_ ref: Int, _ key: Span<UInt8>, _ string: String, escaped: Bool) -> Bool {
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
            return s == (escaped ? "$" + string : string)
        default:
            return false
        }
    }

    private func field(_ key: ArchiveKey) throws(ArchiveError) -> Field {
        guard let f = field(forKey: key) else { throw keyNotFound(key.string) }
        return f
    }

    /// Whether the current object has a value under the key.
    public func containsValue(forKey key: ArchiveKey) -> Bool { field(forKey: key) != nil }

    /// Decodes a boolean under an interned key (as `decodeBool(forKey:)`).
    public func decodeBool(forKey key: ArchiveKey) throws(ArchiveError) -> Bool {
        try decodeBool(try field(key), forKey: key.string)
    }

    /// Decodes a 64-bit signed integer under an interned key.
    public func decodeInt64(forKey key: ArchiveKey) throws(ArchiveError) -> Int64 {
        try decodeInt64(try field(key), forKey: key.string)
    }

    /// Decodes a double under an interned key.
    public func decodeDouble(forKey key: ArchiveKey) throws(ArchiveError) -> Double {
        try decodeDouble(try field(key), forKey: key.string)
    }

    /// Decodes a string under an interned key and calls `body` with its UTF-8 bytes (those of
    /// the archive itself for a string stored as ASCII: no string is made). Same errors as
    /// `decodeString(forKey:)`.
    public func withDecodedString<T>(forKey key: ArchiveKey, _ body: (Span<UInt8>) -> T) throws(ArchiveError) -> T {
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
        let s = try decodeString(f, forKey: key.string)
        return body(s.utf8.span)
    }

    /// Decodes a string under an interned key.
    public func decodeString(forKey key: ArchiveKey) throws(ArchiveError) -> String {
        try decodeString(try field(key), forKey: key.string)
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
