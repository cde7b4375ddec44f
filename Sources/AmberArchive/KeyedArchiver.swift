/// Writes a keyed archive in the NSKeyedArchiver layout (SPEC R25, R26).
///
/// The archiver is always positioned on one object, starting with the archive's top level
/// (`$top`). Values are encoded by key into that object; encoding a nested object moves the
/// archiver onto it for the length of its encoding. Strings, numbers and class descriptions are
/// stored once however often they occur; an object encoded twice (by identity) is stored once and
/// referenced twice, and cycles are referenced back, so object graphs round-trip.
///
/// ```swift
/// let archiver = KeyedArchiver()
/// archiver.encode("Homepwner", forKey: "name")
/// try archiver.encodeObject(store, forKey: "root")
/// let bytes = try archiver.finishEncoding()
/// ```
///
/// Keys beginning with `$` are escaped with another `$`, as Foundation does, so they never
/// collide with the layout's own keys. An archiver is used by one thread at a time.
public final class KeyedArchiver {
    /// The coding classes for `encodeObject(_:forKey:)`.
    public let registry: ArchiveClassRegistry?

    var table: ObjectTable
    /// `$objects`: the object table reference of each UID (-1 while an object is being encoded).
    var objects: [Int32]
    /// The key/value reference pairs of every open object, innermost last.
    var pairs: [Int32] = []
    /// Where each open object's pairs begin in `pairs`, and its UID (-1 for `$top`).
    var open: [(start: Int, uid: Int)] = [(0, -1)]
    var classUIDs: [String: Int] = [:]
    /// The `$objects` UID of each string value, by the string's object table reference.
    var stringUIDs = ScalarMap()
    var objectUIDs = ScalarMap()
    /// Keeps encoded objects alive so that their identities are not reused during encoding.
    var retained: [AnyObject] = []
    var finished = false
    let classKey: Int32

    /// Creates an archiver. `capacity` is a hint: the number of objects expected.
    public init(registry: ArchiveClassRegistry? = nil, capacity: Int = 0) {
        self.registry = registry
        table = ObjectTable(capacity: capacity * 8)
        objects = [0]
        objects.reserveCapacity(capacity * 2 + 8)
        objects[0] = table.string("$null")
        classKey = table.string("$class")
    }

    // MARK: Scalars

    @inline(__always)
    private func put(_ key: String, _ value: Int32) {
        pairs.append(key.utf8.first == 0x24 ? table.string("$" + key) : table.string(key))
        pairs.append(value)
    }

    /// Encodes a boolean (NSNumber).
    public func encode(_ value: Bool, forKey key: String) { put(key, table.bool(value)) }
    /// Encodes a 64-bit integer (NSNumber).
    public func encode(_ value: Int64, forKey key: String) { put(key, table.int(value)) }
    /// Encodes an integer (NSNumber).
    public func encode(_ value: Int, forKey key: String) { put(key, table.int(Int64(value))) }
    /// Encodes a double (NSNumber).
    public func encode(_ value: Double, forKey key: String) { put(key, table.double(value)) }
    /// Encodes a string (NSString): stored once in `$objects`, referenced by UID.
    public func encode(_ value: String, forKey key: String) { put(key, table.uid(UInt64(stringUID(value)))) }
    /// Encodes bytes (NSData).
    public func encode(bytes: [UInt8], forKey key: String) { put(key, table.uid(UInt64(dataUID(bytes)))) }
    /// Encodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    public func encode(date: Double, forKey key: String) { encode(.date(date), forKey: key) }
    /// Encodes an index path (NSIndexPath) of any length.
    public func encode(indexPath: [Int], forKey key: String) { encode(.indexPath(indexPath), forKey: key) }
    /// Encodes nil (the `$null` UID).
    public func encodeNull(forKey key: String) { put(key, table.uid(0)) }

    /// Encodes a value of Foundation's standard classes, arrays and dictionaries included.
    public func encode(_ value: ArchiveValue, forKey key: String) {
        switch value {
        case .bool(let b): encode(b, forKey: key)
        case .int(let i): encode(i, forKey: key)
        case .uint(let u): put(key, table.uint(u))
        case .double(let d): encode(d, forKey: key)
        default: put(key, table.uid(UInt64(uid(of: value))))
        }
    }

    // MARK: Objects

    /// Encodes an object of a registered coding class; the same object encoded twice is stored
    /// once, and an object that refers back to one being encoded (a cycle) is referenced.
    /// - Throws: `.invalidValue` if no registered class encodes the object; whatever the class's
    ///   `encode` throws.
    public func encodeObject(_ object: AnyObject?, forKey key: String) throws {
        put(key, table.uid(UInt64(try uid(of: object))))
    }

    /// Encodes an array of objects of registered coding classes (an NSArray).
    public func encodeObjects(_ objects: [AnyObject], forKey key: String) throws {
        var uids: [Int32] = []
        uids.reserveCapacity(objects.count)
        for object in objects { uids.append(table.uid(UInt64(try uid(of: object)))) }
        let arrayUID = beginObject(className: "NSArray", classes: ["NSArray", "NSObject"])
        pairs.append(table.string("NS.objects"))
        pairs.append(table.array(uids))
        endObject()
        put(key, table.uid(UInt64(arrayUID)))
    }

    /// Encodes a nested object of class `className` whose contents `body` writes; the archiver
    /// is positioned on the nested object while `body` runs. `classes` is its `$classes` chain
    /// (default: the class, then NSObject).
    /// - Throws: whatever `body` throws; the archive is then unusable.
    public func encodeObject(
        forKey key: String, className: String, classes: [String]? = nil,
        _ body: (KeyedArchiver) throws -> Void
    ) rethrows {
        let objectUID = beginObject(className: className, classes: classes ?? [className, "NSObject"])
        try body(self)
        endObject()
        put(key, table.uid(UInt64(objectUID)))
    }

    /// The UID of an object, encoding it first if it has not been.
    func uid(of object: AnyObject?) throws -> Int {
        guard let object else { return 0 }
        let identity = UInt64(UInt(bitPattern: ObjectIdentifier(object)))
        let (found, slot) = objectUIDs.find(identity)
        if found >= 0 { return Int(found) }
        guard let cls = registry?.lookup(for: object) else {
            throw ArchiveError(.invalidValue, "no coding class is registered for an object of type \(type(of: object))")
        }
        let classes = registry?.chain(of: cls.name) ?? [cls.name, "NSObject"]
        let objectUID = beginObject(className: cls.name, classes: classes)
        objectUIDs.insert(identity, Int32(objectUID), at: slot)
        retained.append(object)
        try cls.encode(object, self)
        endObject()
        return objectUID
    }

    /// Opens an object: reserves its UID and starts collecting its pairs with its `$class`.
    func beginObject(className: String, classes: [String]) -> Int {
        let objectUID = objects.count
        objects.append(-1)
        open.append((pairs.count, objectUID))
        pairs.append(classKey)
        pairs.append(table.uid(UInt64(classUID(className, classes))))
        return objectUID
    }

    /// Closes the innermost object: its pairs become a dictionary in `$objects`.
    func endObject() {
        let (start, objectUID) = open.removeLast()
        objects[objectUID] = table.dictionary(interleaved: pairs[start...])
        pairs.removeSubrange(start...)
    }

    func classUID(_ name: String, _ classes: [String]) -> Int {
        if let existing = classUIDs[name] { return existing }
        let names = classes.map { table.string($0) }
        let classesRef = table.array(names)
        let description = table.dictionary(interleaved: [
            table.string("$classname"), table.string(name), table.string("$classes"), classesRef,
        ][...])
        objects.append(description)
        classUIDs[name] = objects.count - 1
        return objects.count - 1
    }

    func stringUID(_ value: String) -> Int {
        let ref = table.string(value)
        let (found, slot) = stringUIDs.find(UInt64(ref))
        if found >= 0 { return Int(found) }
        objects.append(ref)
        stringUIDs.insert(UInt64(ref), Int32(objects.count - 1), at: slot)
        return objects.count - 1
    }

    func dataUID(_ bytes: [UInt8]) -> Int {
        objects.append(table.data(bytes))
        return objects.count - 1
    }

    /// The UID of a non-inline Foundation value, written in Foundation's encoding.
    func uid(of value: ArchiveValue) -> Int {
        switch value {
        case .null: return 0
        case .bool(let b): return number(table.bool(b))
        case .int(let i): return number(table.int(i))
        case .uint(let u): return number(table.uint(u))
        case .double(let d): return number(table.double(d))
        case .string(let s): return stringUID(s)
        case .data(let bytes): return dataUID(bytes)
        case .date(let t):
            let u = beginObject(className: "NSDate", classes: ["NSDate", "NSObject"])
            pairs.append(table.string("NS.time"))
            pairs.append(table.double(t))
            endObject()
            return u
        case .uuid(let bytes):
            let u = beginObject(className: "NSUUID", classes: ["NSUUID", "NSObject"])
            pairs.append(table.string("NS.uuidbytes"))
            pairs.append(table.data(bytes))
            endObject()
            return u
        case .indexPath(let indexes):
            let u = beginObject(className: "NSIndexPath", classes: ["NSIndexPath", "NSObject"])
            IndexPathCoding.encode(indexes, archiver: self)
            endObject()
            return u
        case .array(let items), .set(let items):
            let itemUIDs = items.map { table.uid(UInt64(uid(of: $0))) }
            let isSet: Bool
            if case .set = value { isSet = true } else { isSet = false }
            let u = isSet
                ? beginObject(className: "NSSet", classes: ["NSSet", "NSObject"])
                : beginObject(className: "NSArray", classes: ["NSArray", "NSObject"])
            pairs.append(table.string("NS.objects"))
            pairs.append(table.array(itemUIDs))
            endObject()
            return u
        case .dictionary(let entries):
            let keyUIDs = entries.map { table.uid(UInt64(uid(of: $0.key))) }
            let valueUIDs = entries.map { table.uid(UInt64(uid(of: $0.value))) }
            let u = beginObject(className: "NSDictionary", classes: ["NSDictionary", "NSObject"])
            pairs.append(table.string("NS.keys"))
            pairs.append(table.array(keyUIDs))
            pairs.append(table.string("NS.objects"))
            pairs.append(table.array(valueUIDs))
            endObject()
            return u
        }
    }

    /// A number standing alone in `$objects` (an NSNumber inside a collection).
    private func number(_ ref: Int32) -> Int {
        objects.append(ref)
        return objects.count - 1
    }

    // MARK: Finishing

    /// Finishes the archive and returns its bytes (a binary property list).
    /// - Throws: `.invalidValue` if an object is still open or the archive was finished already.
    public func finishEncoding() throws(ArchiveError) -> [UInt8] {
        guard !finished else { throw ArchiveError(.invalidValue, "the archive was finished already") }
        guard open.count == 1 else {
            throw ArchiveError(.invalidValue, "an object is still being encoded")
        }
        finished = true
        let topDict = table.dictionary(interleaved: pairs[...])
        let objectsRef = table.array(objects)
        let root = table.dictionary(interleaved: [
            table.string("$version"), table.int(100000),
            table.string("$archiver"), table.string("NSKeyedArchiver"),
            table.string("$top"), topDict,
            table.string("$objects"), objectsRef,
        ][...])
        retained = []
        return table.serialize(top: root)
    }

    /// Archives one value of Foundation's standard classes under the key `root`.
    public static func archive(_ value: ArchiveValue) -> [UInt8] {
        let archiver = KeyedArchiver()
        archiver.encode(value, forKey: "root")
        // Cannot fail: nothing is open and it was not finished.
        return (try? archiver.finishEncoding()) ?? []
    }
}
