// Conveniences for containers of many nested objects (the restoration engine's records): encode
// objects that no key refers to yet and list them in an NSArray afterwards, and come back to an
// object by its UID later, without decoding it through a coding class.

extension KeyedArchiver {
    /// Encodes a nested object of class `className` that no key refers to yet, and returns its
    /// UID; the archiver is positioned on the object while `body` runs. List such objects with
    /// `encode(objectUIDs:forKey:)`, or the object is unreachable from `$top`. `classes` is its
    /// `$classes` chain (default: the class, then NSObject).
    /// - Throws: whatever `body` throws; the archive is then unusable.
    public func encodeDetachedObject(
        className: String, classes: [String]? = nil, _ body: (KeyedArchiver) throws -> Void
    ) rethrows -> Int {
        let objectUID = state.w.beginObject(className: className, classes: classes ?? [className, "NSObject"])
        try body(self)
        state.w.endObject()
        return objectUID
    }

    /// Encodes an NSArray of objects this archiver has already encoded, given by the UIDs
    /// `encodeDetachedObject` returned.
    /// - Throws: `.invalidValue` for a UID this archiver has not given out (nothing is written).
    public func encode(objectUIDs: [Int], forKey key: String) throws(ArchiveError) {
        let count = state.w.table.objects.count
        for u in objectUIDs where u <= 0 || u >= count {
            throw ArchiveError(.invalidValue, "UID \(u) is not an object of this archive")
        }
        let start = state.w.scratch.count
        state.w.scratch.reserveCapacity(start + objectUIDs.count)
        for u in objectUIDs { state.w.scratch.append(Int32(truncatingIfNeeded: u)) }
        state.w.putArray(key, scratchFrom: start)
    }
}

extension KeyedUnarchiver {
    /// The UID of the value under a key of the current object, without decoding it; nil for
    /// `$null`.
    /// - Throws: `.keyNotFound`; `.typeMismatch` if the value is not a reference (an inline
    ///   number or boolean); `.notKeyedArchive` for a UID out of range.
    public func objectUID(forKey key: String) throws(ArchiveError) -> Int? {
        let u = try referencedUID(forKey: key)
        return u == 0 ? nil : u
    }

    /// The UIDs of the items of the NSArray under a key of the current object, without decoding
    /// them (`$null` items are 0).
    /// - Throws: `.keyNotFound`; `.typeMismatch` if the value is not an NSArray;
    ///   `.notKeyedArchive` for a broken array or a UID out of range.
    public func decodeObjectUIDs(forKey key: String) throws(ArchiveError) -> [Int] {
        let list = try objectUIDList(forKey: key)
        var result: [Int] = []
        result.reserveCapacity(list.count)
        for i in 0 ..< list.count { result.append(try list.uid(at: i)) }
        return result
    }

    /// The NSArray under a key of the current object as `decodeObjectUIDs(forKey:)` reads it,
    /// each UID read when asked for: nothing is allocated per item, so that a caller refusing an
    /// item (one listed twice) refuses it before an array of a byte an item has cost eight bytes
    /// an item.
    /// - Throws: as `decodeObjectUIDs(forKey:)`, but for the items, which `uid(at:)` checks.
    public func objectUIDList(forKey key: String) throws(ArchiveError) -> ObjectUIDList {
        let u = try referencedUID(forKey: key)
        let h = plist.header(archive.objectRefs[u])
        guard u != 0, h.marker >> 4 == 0xD else {
            throw ArchiveError(.typeMismatch, "the value for key '\(key)' is not an array")
        }
        let name = try className(of: u, h)
        guard name == "NSArray" || name == "NSMutableArray" else {
            throw ArchiveError(.typeMismatch, "the value for key '\(key)' is \(a: name + " object"), not an array")
        }
        guard let itemsRef = plist.lookup("NS.objects", in: h) else {
            throw ArchiveError.notKeyed("the \(name) object \(u) has no NS.objects")
        }
        let items = plist.header(itemsRef)
        guard items.marker >> 4 == 0xA else {
            throw ArchiveError.notKeyed("the \(name) object \(u)'s NS.objects is not an array")
        }
        return ObjectUIDList(archive: archive, start: items.start, count: items.count, owner: "the \(name) object \(u)")
    }
}

/// The items of an NSArray of objects (`KeyedUnarchiver.objectUIDList(forKey:)`), read one at a
/// time.
public struct ObjectUIDList {
    let archive: KeyedArchive
    /// Where the array's references start in the property list.
    let start: Int
    /// How many items the array has.
    public let count: Int
    /// The array, for messages ("the NSArray object 12").
    let owner: String

    /// The UID of item `i` (0 ..< count); 0 for `$null`.
    /// - Throws: `.notKeyedArchive` for an item that is not a UID, or a UID out of range.
    public func uid(at i: Int) throws(ArchiveError) -> Int {
        let plist = archive.plist
        let item = plist.header(plist.ref(at: start + i * plist.refSize))
        guard item.marker >> 4 == 0x8 else {
            throw ArchiveError.notKeyed("\(owner)'s NS.objects holds \(a: KeyedArchive.typeName(item.marker)), not a UID")
        }
        return try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: item.start, width: item.count + 1))
    }
}

extension KeyedUnarchiver {
    /// Moves onto the object with UID `uid` while `body` runs, whatever its class; `body`
    /// receives the class name. The unarchiver returns to where it was afterwards.
    /// - Throws: `.notKeyedArchive` for a UID out of range; `.typeMismatch` if the object is not
    ///   an instance (a dictionary with `$class`); `.limitExceeded` past the nesting limit;
    ///   whatever `body` throws.
    public func withObject<T>(uid: Int, _ body: (KeyedUnarchiver, String) throws -> T) throws -> T {
        guard uid > 0 else { throw ArchiveError(.typeMismatch, "UID \(uid) is not an instance") }
        let u = try archive.checkedUID(UInt64(uid))
        let h = plist.header(archive.objectRefs[u])
        guard h.marker >> 4 == 0xD else {
            throw ArchiveError(.typeMismatch, "object \(u) is \(a: KeyedArchive.typeName(h.marker)), not an instance")
        }
        let name = try className(of: u, h)
        let saved = state.cursor
        guard saved.depth < plist.limits.maxDepth else {
            throw ArchiveError.limit("objects nest deeper than the limit of \(plist.limits.maxDepth)")
        }
        try checkStringKeysOnce(h, of: u)
        state.cursor = Cursor(dict: h, uid: u, depth: saved.depth + 1)
        defer { state.cursor = saved }
        return try body(self, name)
    }

    private func referencedUID(forKey key: String) throws(ArchiveError) -> Int {
        let ref = try valueRef(key)
        let h = plist.header(ref)
        guard h.marker >> 4 == 0x8 else {
            throw ArchiveError(.typeMismatch, "the value for key '\(key)' is \(a: KeyedArchive.typeName(h.marker)), not a reference to an object")
        }
        return try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
    }
}
