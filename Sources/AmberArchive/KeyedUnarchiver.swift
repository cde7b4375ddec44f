import Synchronization

/// Reads typed values from a keyed archive in the NSKeyedArchiver layout (SPEC R12, R25, R26).
///
/// Like the archiver, the unarchiver is positioned on one object at a time, starting with the
/// archive's top level (`$top`). Decoding is type-checked: a missing key throws `.keyNotFound`,
/// a value of another type `.typeMismatch`; neither ever traps. Objects of the host's coding
/// classes are made through the registry, once per archived object, so shared references and
/// cycles come back as shared references and cycles. Secure decoding: `decodeObject(forKey:
/// ofClasses:)` makes only registered classes that are, or descend from, one the caller allows.
///
/// An unarchiver is used by one thread at a time.
public final class KeyedUnarchiver {
    /// The archive being read.
    public let archive: KeyedArchive
    /// The coding classes for `decodeObject(forKey:)`.
    public let registry: ArchiveClassRegistry?
    /// When true, `decodeObject(forKey:)` without a set of allowed classes is refused.
    public var requiresSecureCoding = false

    let plist: BinaryPropertyList
    /// Values the current `decodeValue` may still produce (see `BinaryPropertyList.valueBudget`):
    /// an NSArray may be referenced from many places, and decoding copies it each time.
    var valueBudget = 0
    var valuesInProgress: Set<Int> = []
    /// Strings `value(uid:)` decoded that the archive refers to more than once.
    var sharedStrings = SharedStrings()
    /// Resolved class descriptions, by the UID of the description.
    var classIndex = ScalarMap()
    /// The `make` and `decode` closures of each class of `state.classes` (nil if it is not
    /// registered), apart: reading them from a `ClassInfo` copied it whole, counting references
    /// to its arrays, strings and closures, atomics that each wait for every read before them.
    var coders: [(make: @Sendable (KeyedUnarchiver) throws -> AnyObject,
                                          decode: (@Sendable (AnyObject, KeyedUnarchiver) throws -> Void)?)?] = []
    /// Where the unarchiver is, what it made and what it found (`UnarchiverState`).
    let state: UnarchiverState
    /// This unarchiver among all the process's unarchivers, never reused: what an `ArchiveKey`
    /// remembers of it is told apart from what it remembers of another.
    let serial = KeyedUnarchiver.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)


    struct Cursor {
        var dict: BinaryPropertyList.Header
        var uid: Int
        var depth: Int
    }

    /// The objects an unarchiver made, by UID, held until it ends: the same archived object
    /// decodes to the same instance however often it is referenced.
    struct MadeObjects {
        /// The object made for each UID, nil for one not made (allocated at the first object).
        var objects: [AnyObject?] = []
        /// Whether each UID's object is being made (its class's `make` runs): met again then,
        /// it refers to itself.
        var inProgress: [Bool] = []
    }

    /// The unarchiver's lookup caches: keys and strings met recently, and the objects whose keys
    /// it checked.
    struct LookupCaches {
        /// The object table reference of recently used keys (archives store each key string once).
        var keyRefs = RecentKeys(slots: 64)
        /// The string objects of the keys `$class` and `NS.objects` as last found (-1: not yet).
        var classKeyRef = -1
        var objectsKeyRef = -1
        /// Strings made recently, by the reference of their string object.
        var strings = RecentStrings()
        /// The objects whose keys were found to be strings (`checkStringKeysOnce`), allocated
        /// at the first object entered.
        var keysChecked = ObjectBits(count: 0)
    }

    /// A class description and what the registry makes of it.
    struct ClassInfo {
        var name: String
        var classes: [String]
        /// The registered class that decodes it: the first of name and `$classes` registered.
        var coding: ArchiveClass?
        /// The `$classes` chain of `coding` as the registry knows it (not as the archive claims).
        var chain: [String]
    }

    /// Reads an archive; the unarchiver starts on its top level.
    /// - Throws: `ArchiveError` (`.corrupt`, `.limitExceeded`, `.notKeyedArchive`).
    public convenience init(
        bytes: [UInt8], limits: ArchiveLimits = .default, registry: ArchiveClassRegistry? = nil
    ) throws(ArchiveError) {
        self.init(archive: try KeyedArchive(bytes: bytes, limits: limits), registry: registry)
    }

    /// Reads from an archive already checked.
    public init(archive: KeyedArchive, registry: ArchiveClassRegistry? = nil) {
        self.archive = archive
        self.registry = registry
        self.plist = archive.plist
        self.state = UnarchiverState(Cursor(dict: archive.plist.header(archive.topRef), uid: -1, depth: 0))
    }

    /// The UID of the object the unarchiver is on, or nil at the top level.
    public var currentObjectUID: Int? { state.cursor.uid < 0 ? nil : state.cursor.uid }

    // MARK: Keys

    /// The value reference under a key of the current object.
    @inline(__always)
    func valueRef(_ key: String) throws(ArchiveError) -> Int {
        guard let ref = findValueRef(key) else { throw keyNotFound(key) }
        return ref
    }

    /// The reference of the current object's value for `key`, or nil if it has none.
    private func findValueRef(_ key: String) -> Int? {
        let dict = state.cursor.dict
        // Fast path: the key's string object is known; compare references, not bytes.
        let (cached, slot) = state.caches.keyRefs.find(key)
        if cached >= 0, let ref = plist.lookup(keyRef: cached, in: dict) { return ref }
        let stored = key.utf8.first == 0x24 ? "$" + key : key  // Foundation's escape
        guard let (keyRef, ref) = plist.lookupPair(stored, in: dict) else { return nil }
        state.caches.keyRefs.store(key, keyRef, at: slot)
        return ref
    }

    func keyNotFound(_ key: String) -> ArchiveError {
        ArchiveError(.keyNotFound, "no value for key '\(key)'\(where_)")
    }

    var where_: String { state.cursor.uid < 0 ? " at the top level" : " in object \(state.cursor.uid)" }

    /// Whether the current object has a value for the key.
    public func containsValue(forKey key: String) -> Bool {
        findValueRef(key) != nil
    }

    /// The keys of the current object (unescaped, without `$class`), in stored order.
    public func allKeys() -> [String] {
        var keys: [String] = []
        let current = state.cursor.dict
        for i in 0 ..< current.count {
            let ref = plist.ref(at: current.start + i * plist.refSize)
            let h = plist.header(ref)
            guard h.marker >> 4 == 0x5 || h.marker >> 4 == 0x6, let k = try? plist.string(h, ref: ref) else { continue }
            if k != "$class" { keys.append(KeyedArchive.unescape(k)) }
        }
        return keys
    }

    func mismatch(_ key: String, _ expected: String, _ ref: Int) -> ArchiveError {
        ArchiveError(.typeMismatch, "the value for key '\(key)'\(where_) is \(a: describe(ref)), not \(a: expected)")
    }

    func describe(_ ref: Int) -> String {
        let h = plist.header(ref)
        if h.marker >> 4 == 0x8 {
            // Clamped: a UID of 2^63 or more is out of range, not a trap.
            let u = Int(clamping: BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
            if u == 0 { return "null" }
            if u < archive.objectRefs.count {
                let target = plist.header(archive.objectRefs[u])
                if target.marker >> 4 == 0xD, let c = plist.lookup("$class", in: target),
                   let (name, _) = try? archive.classDescription(uidRef: c, of: u)
                {
                    return "\(name) object"
                }
                return KeyedArchive.typeName(target.marker)
            }
            return "UID"
        }
        return KeyedArchive.typeName(h.marker)
    }

    /// The UID a value reference holds, checked to be in range.
    @inline(__always)
    func uid(_ ref: Int, _ key: String, _ expected: String) throws(ArchiveError) -> Int {
        let h = plist.header(ref)
        guard h.marker >> 4 == 0x8 else { throw mismatch(key, expected, ref) }
        return try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
    }

    // MARK: Scalars

    /// Decodes a boolean.
    public func decodeBool(forKey key: String) throws(ArchiveError) -> Bool {
        let ref = try valueRef(key)
        let marker = plist.bytes[plist.offsets[ref]]
        guard marker == 0x08 || marker == 0x09 else { throw mismatch(key, "boolean", ref) }
        return marker == 0x09
    }

    /// Decodes a 64-bit signed integer.
    public func decodeInt64(forKey key: String) throws(ArchiveError) -> Int64 {
        let ref = try valueRef(key)
        let h = plist.header(ref)
        guard h.marker >> 4 == 0x1 else { throw mismatch(key, "integer", ref) }
        guard let v = Int64(exactly: try plist.integer(h, ref: ref)) else {
            throw ArchiveError(.typeMismatch, "the integer for key '\(key)'\(where_) does not fit in Int64")
        }
        return v
    }

    /// Decodes a double; integers are accepted and converted.
    public func decodeDouble(forKey key: String) throws(ArchiveError) -> Double {
        let ref = try valueRef(key)
        let h = plist.header(ref)
        switch h.marker {
        case 0x23: return Double(bitPattern: BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: 8))
        case 0x22: return Double(Float(bitPattern: UInt32(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: 4))))
        case 0x10 ... 0x14: return Double(try plist.integer(h, ref: ref))
        default: throw mismatch(key, "real", ref)
        }
    }

    /// Decodes a string (NSString or NSMutableString).
    public func decodeString(forKey key: String) throws(ArchiveError) -> String {
        let ref = try valueRef(key)
        let u = try uid(ref, key, "string")
        // UID 0 is nil, not the string "$null" that stands for it.
        guard u != 0 else { throw mismatch(key, "string", ref) }
        let target = archive.objectRefs[u]
        if let s = state.caches.strings.find(target) { return s }
        let h = plist.header(target)
        if h.marker >> 4 == 0x5 || h.marker >> 4 == 0x6 {
            let s = try plist.string(h, ref: target)
            state.caches.strings.store(s, for: target)
            return s
        }
        valueBudget = plist.valueBudget
        guard case .string(let s) = try value(uid: u, depth: 0) else { throw mismatch(key, "string", ref) }
        return s
    }

    /// Decodes bytes (NSData or NSMutableData).
    public func decodeBytes(forKey key: String) throws(ArchiveError) -> [UInt8] {
        guard case .data(let d) = try decodeValue(forKey: key) else { throw mismatch(key, "data", try valueRef(key)) }
        return d
    }

    /// Decodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    public func decodeDate(forKey key: String) throws(ArchiveError) -> Double {
        guard case .date(let t) = try decodeValue(forKey: key) else { throw mismatch(key, "date", try valueRef(key)) }
        return t
    }

    /// Decodes an index path (NSIndexPath).
    public func decodeIndexPath(forKey key: String) throws(ArchiveError) -> [Int] {
        guard case .indexPath(let p) = try decodeValue(forKey: key) else {
            throw mismatch(key, "index path", try valueRef(key))
        }
        return p
    }

    /// Decodes a UUID (NSUUID): its 16 bytes.
    public func decodeUUID(forKey key: String) throws(ArchiveError) -> [UInt8] {
        guard case .uuid(let b) = try decodeValue(forKey: key) else { throw mismatch(key, "UUID", try valueRef(key)) }
        return b
    }

    /// Decodes any value of Foundation's standard classes (see `ArchiveValue`), containers
    /// included. An object of another class is a `.typeMismatch`; decode it with `decodeObject`.
    public func decodeValue(forKey key: String) throws(ArchiveError) -> ArchiveValue {
        let ref = try valueRef(key)
        let h = plist.header(ref)
        switch h.marker >> 4 {
        case 0x8:
            valueBudget = plist.valueBudget
            return try value(uid: try uid(ref, key, "value"), depth: 0)
        default:
            return try ArchiveValue(inPlace: try plist.value(at: ref), what: "the value for key '\(key)'\(where_)")
        }
    }

    /// Decodes an array (NSArray) of Foundation's standard values as a set of its items: each
    /// object of the archive it refers to once, in the order first referred to; a later item
    /// that refers to the same object is skipped. An array may refer to one object at every
    /// item, a byte each: decoded as `decodeValue` decodes it, a million such bytes would make a
    /// million values. Here what is made is bounded by the objects the archive holds, not by
    /// the references to them, and nothing is allocated per reference (the objects seen are
    /// one bit each).
    /// - Throws: `.typeMismatch` if the value is not an NSArray; `.limitExceeded` if it holds
    ///   more than `maxCount` items, before any is decoded; what `decodeValue` throws for an item.
    public func decodeDistinctValues(forKey key: String, maxCount: Int) throws(ArchiveError) -> [ArchiveValue] {
        let list = try objectList(forKey: key)
        guard list.count <= maxCount else {
            throw ArchiveError.limit("the array for key '\(key)'\(where_) holds \(list.count) items, more than the limit of \(maxCount)")
        }
        var seen = ObjectBits(count: archive.objectRefs.count)
        var values: [ArchiveValue] = []
        valueBudget = plist.valueBudget
        for i in 0 ..< list.count {
            let u = try uid(plist.ref(at: list.start + i * plist.refSize), key, "value")
            guard seen.insert(u) else { continue }
            values.append(try value(uid: u, depth: 1))
        }
        return values
    }

    /// Object `u` (at `ref`), not an instance, as a value. A string the archive refers to again
    /// is the one decoded before, sharing its storage: a list of a thousand web pages that all
    /// refer to one URL of 64 KiB holds the URL once, as the archive does, not a thousand times.
    private func plainValue(uid u: Int, _ ref: Int) throws(ArchiveError) -> ArchiveValue {
        if let s = sharedStrings.string(u) { return .string(s) }
        let v = try ArchiveValue(plain: try plist.value(at: ref), what: "object \(u)")
        if case .string(let s) = v { sharedStrings.met(u, s, objectCount: archive.objectRefs.count) }
        return v
    }

    /// The strings of `value(uid:)` that are met a second time, by UID, kept to be shared from
    /// then on. A string met once costs one bit; one of at most 15 UTF-8 bytes is held in place
    /// by `String` (no storage to share) and is never kept.
    struct SharedStrings {
        private var metOnce: ObjectBits?
        private var kept: [Int: String] = [:]

        func string(_ u: Int) -> String? { kept.isEmpty ? nil : kept[u] }

        mutating func met(_ u: Int, _ s: String, objectCount: Int) {
            guard s.utf8.count > 15 else { return }
            if metOnce == nil { metOnce = ObjectBits(count: objectCount) }
            if !metOnce!.insert(u) { kept[u] = s }
        }
    }

    /// A set of the archive's objects, by UID, one bit each.
    struct ObjectBits {
        private var words: [UInt64]

        init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

        /// Whether the set was made for no object (an `ObjectBits(count: 0)`, made before
        /// the archive's objects are counted).
        var isEmpty: Bool { words.isEmpty }

        /// Whether `u` (a checked UID) is in the set.
        func contains(_ u: Int) -> Bool { words[u >> 6] & (1 << UInt64(u & 63)) != 0 }

        /// Adds `u` (a checked UID); false if it was there.
        mutating func insert(_ u: Int) -> Bool {
            let bit: UInt64 = 1 << UInt64(u & 63)
            guard words[u >> 6] & bit == 0 else { return false }
            words[u >> 6] |= bit
            return true
        }
    }

    /// The value of `$objects` item `u` as one of Foundation's standard classes.
    func value(uid u: Int, depth: Int) throws(ArchiveError) -> ArchiveValue {
        valueBudget -= 1
        if valueBudget < 0 { throw plist.overBudget() }
        if u == 0 { return .null }
        guard depth < plist.limits.maxDepth else {
            throw ArchiveError.limit("values nest deeper than the limit of \(plist.limits.maxDepth)")
        }
        let ref = archive.objectRefs[u]
        let h = plist.header(ref)
        guard h.marker >> 4 == 0xD else { return try plainValue(uid: u, ref) }
        try checkStringKeysOnce(h, of: u)
        // Resolved once per class description, not once per value.
        let name = try className(of: u, h)
        func uids(_ key: String) throws(ArchiveError) -> [Int] {
            try StandardObjects.uids(key, of: name, object: u, archive: archive, h)
        }
        func children(_ list: [Int]) throws(ArchiveError) -> [ArchiveValue] {
            guard valuesInProgress.insert(u).inserted else {
                throw ArchiveError.notKeyed("the \(name) object \(u) contains itself")
            }
            defer { valuesInProgress.remove(u) }
            var items: [ArchiveValue] = []
            items.reserveCapacity(list.count)
            for c in list { items.append(try value(uid: c, depth: depth + 1)) }
            return items
        }
        switch name {
        case "NSArray", "NSMutableArray":
            return .array(try children(try uids("NS.objects")))
        case "NSSet", "NSMutableSet":
            return .set(try children(try uids("NS.objects")))
        case "NSDictionary", "NSMutableDictionary":
            let keyUIDs = try uids("NS.keys")
            let objectUIDs = try uids("NS.objects")
            // Before any key is decoded (each may expand to many values).
            try StandardObjects.checkPairs(keyUIDs.count, objectUIDs.count, of: name, object: u)
            let keys = try children(keyUIDs)
            let values = try children(objectUIDs)
            return .dictionary(zip(keys, values).map { ArchiveValuePair($0, $1) })
        case "NSCountedSet":
            guard case .instance(_, _, let fields) = try archive.object(u) else {
                throw ArchiveError.notKeyed("the \(name) object \(u) is not an instance")  // not reached: it is a dictionary
            }
            let items = try StandardObjects.countedSet(name, object: u, archive: archive, fields: fields)
            let values = try children(items.map(\.uid))
            return .countedSet(zip(values, items).map { (value: $0, count: $1.count) })
        default:
            if let leaf = try StandardObjects.leaf(name, object: u, archive: archive, StandardObjects.Fields(plist: plist, dict: h)) {
                return leaf
            }
            throw ArchiveError(.typeMismatch, "object \(u) is of class \(name), not one of Foundation's value classes; decode it with decodeObject")
        }
    }

    // MARK: Objects

    /// Checks that every key of instance `u` (dictionary `h`) is a string
    /// (`KeyedArchive.checkStringKeys`) the first time the unarchiver enters it: a reader may
    /// enter one object several times (the restoration engine enters a record's state to check
    /// its class, then to decode it), and what its keys are does not change. An object whose
    /// check fails is not remembered, so it is refused at every entry.
    @inline(__always)
    func checkStringKeysOnce(_ h: BinaryPropertyList.Header, of u: Int) throws(ArchiveError) {
        if state.caches.keysChecked.isEmpty { state.caches.keysChecked = ObjectBits(count: archive.objectRefs.count) }
        if state.caches.keysChecked.contains(u) { return }
        try archive.checkStringKeys(h, of: u)
        _ = state.caches.keysChecked.insert(u)
    }

    /// The class name of object `u` (whose header is `h`), without copying the rest of its
    /// class information.
    @inline(__always)
    func className(of u: Int, _ h: BinaryPropertyList.Header) throws(ArchiveError) -> String {
        state.classes[try classPosition(of: u, h)].name
    }

    /// Where the class information of object `u` (instance dictionary `h`) is in `state.classes`,
    /// resolved once per class description.
    func classPosition(of u: Int, _ h: BinaryPropertyList.Header) throws(ArchiveError) -> Int {
        guard let classRef = lookup(h, "$class", cached: &state.caches.classKeyRef) else {
            throw ArchiveError.notKeyed("object \(u) is a dictionary without $class")
        }
        let c = plist.header(classRef)
        guard c.marker >> 4 == 0x8 else { throw ArchiveError.notKeyed("object \(u)'s $class is not a UID") }
        let classUID = BinaryPropertyList.readUInt(plist.bytes, at: c.start, width: c.count + 1)
        let (found, slot) = classIndex.find(classUID)
        if found >= 0 { return Int(found) }
        let (name, chainClaimed) = try archive.classDescription(uidRef: classRef, of: u)
        var info = ClassInfo(name: name, classes: chainClaimed, coding: nil, chain: [])
        if let registry, let cls = ([name] + chainClaimed).lazy.compactMap({ registry.lookup($0) }).first {
            info.coding = cls
            info.chain = registry.chain(of: cls.name)
        }
        state.classes.append(info)
        coders.append(info.coding.map { ($0.make, $0.decode) })
        classIndex.insert(classUID, Int32(state.classes.count - 1), at: slot)
        return state.classes.count - 1
    }

    /// The value under `key` in dictionary `h`: first by the key's string object as last found
    /// (`cached`), comparing references, else by the key's characters.
    @inline(__always)
    private func lookup(_ h: BinaryPropertyList.Header, _ key: String, cached: inout Int) -> Int? {
        if cached >= 0, let r = plist.lookup(keyRef: cached, in: h) { return r }
        guard let (k, r) = plist.lookupPair(key, in: h) else { return nil }
        cached = k
        return r
    }

    /// Decodes an object of a registered coding class, or nil for `$null`. The same archived
    /// object decodes to the same instance however often it is referenced.
    /// - Parameter classes: the class names the caller allows; an object whose class is not
    ///   one of them or registered as a subclass of one is refused (secure coding). Nil allows
    ///   every registered class, unless `requiresSecureCoding` is set.
    /// - Throws: `.classNotAllowed` for an unregistered or unallowed class, `.typeMismatch` if
    ///   the value is not an object, and whatever the class's closures throw.
    public func decodeObject(forKey key: String, ofClasses classes: Set<String>? = nil) throws -> AnyObject? {
        let ref = try valueRef(key)
        return try object(uid: try uid(ref, key, "object"), allowed: classes)
    }

    /// Decodes an array (NSArray) of objects of registered coding classes.
    public func decodeObjects(forKey key: String, ofClasses classes: Set<String>? = nil) throws -> [AnyObject] {
        try decodeObjects(forKey: key, ofClasses: classes, as: AnyObject.self)
    }

    /// Decodes an array (NSArray) of objects of registered coding classes, each an instance of
    /// `T`: an array of the host's own class, without converting an `[AnyObject]`.
    /// - Throws: as `decodeObjects(forKey:ofClasses:)`; `.typeMismatch` if an object is not a `T`.
    @inlinable
    public func decodeObjects<T: AnyObject>(forKey key: String, ofClasses classes: Set<String>? = nil, as type: T.Type) throws -> [T] {
        let list = try objectList(forKey: key)
        var result: [T] = []
        result.reserveCapacity(list.count)
        for i in 0 ..< list.count {
            let object = try listObject(list, at: i, forKey: key, ofClasses: classes)
            guard let item = object as? T else { throw listMismatch(object, at: i, forKey: key, expected: "\(T.self)") }
            result.append(item)
        }
        return result
    }

    /// An NSArray of objects being decoded: where its references are, and how many.
    @usableFromInline
    struct ObjectList {
        let start: Int
        @usableFromInline let count: Int
    }

    /// The NSArray of objects under `key`.
    @usableFromInline
    func objectList(forKey key: String) throws(ArchiveError) -> ObjectList {
        let ref = try valueRef(key)
        let u = try uid(ref, key, "array")
        let h = plist.header(archive.objectRefs[u])
        guard h.marker >> 4 == 0xD, let name = try? className(of: u, h), name == "NSArray" || name == "NSMutableArray",
              let itemsRef = lookup(h, "NS.objects", cached: &state.caches.objectsKeyRef)
        else { throw mismatch(key, "array", ref) }
        let items = plist.header(itemsRef)
        guard items.marker >> 4 == 0xA else { throw ArchiveError.notKeyed("the NSArray object \(u)'s NS.objects is not an array") }
        return ObjectList(start: items.start, count: items.count)
    }

    /// The object at `i` in `list`, made if it was not yet.
    @usableFromInline
    func listObject(_ list: ObjectList, at i: Int, forKey key: String, ofClasses classes: Set<String>?) throws -> AnyObject {
        let itemRef = plist.ref(at: list.start + i * plist.refSize)
        let item = try self.uid(itemRef, key, "object")
        guard let object = try object(uid: item, allowed: classes) else {
            throw ArchiveError(.typeMismatch, "the array for key '\(key)'\(where_) holds null")
        }
        return object
    }

    @usableFromInline
    func listMismatch(_ object: AnyObject, at i: Int, forKey key: String, expected: String) -> ArchiveError {
        ArchiveError(.typeMismatch, "item \(i) of the array for key '\(key)'\(where_) is a \(type(of: object)), not a \(expected)")
    }

    func object(uid u: Int, allowed: Set<String>?) throws -> AnyObject? {
        if u == 0 { return nil }
        if requiresSecureCoding && allowed == nil {
            throw ArchiveError(.classNotAllowed, "secure coding is required: name the classes allowed for object \(u)")
        }
        let h = plist.header(archive.objectRefs[u])
        guard h.marker >> 4 == 0xD else {
            throw ArchiveError(.typeMismatch, "object \(u) is \(a: KeyedArchive.typeName(h.marker)), not an instance of a coding class")
        }
        let position = try classPosition(of: u, h)
        guard let (make, decode) = coders[position] else {
            throw ArchiveError(.classNotAllowed, "object \(u) is of class \(state.classes[position].name), which is not registered")
        }
        if let allowed, !state.classes[position].chain.contains(where: { allowed.contains($0) }) {
            throw ArchiveError(.classNotAllowed, "object \(u) is of class \(state.classes[position].coding?.name ?? state.classes[position].name), which is not among the allowed classes \(allowed.sorted())")
        }
        if state.made.objects.isEmpty {
            state.made.objects = [AnyObject?](repeating: nil, count: archive.objectCount)
            state.made.inProgress = [Bool](repeating: false, count: archive.objectCount)
        }
        if let object = state.made.objects[u] { return object }
        guard !state.made.inProgress[u] else {
            throw ArchiveError(.notKeyedArchive, "object \(u) refers to itself before it can be made; a cycle must pass through a class that decodes after it is made")
        }
        let saved = state.cursor
        guard saved.depth < plist.limits.maxDepth else {
            throw ArchiveError.limit("objects nest deeper than the limit of \(plist.limits.maxDepth)")
        }
        try checkStringKeysOnce(h, of: u)
        state.cursor = Cursor(dict: h, uid: u, depth: saved.depth + 1)
        state.made.inProgress[u] = true
        defer {
            state.cursor = saved
            state.made.inProgress[u] = false
        }
        let object = try make(self)
        state.made.objects[u] = object
        if let decode { try decode(object, self) }
        return object
    }

    /// Moves onto the nested object under `key` while `body` runs, whatever its class; `body`
    /// receives the class name. Returns nil for `$null`.
    /// - Throws: `.typeMismatch` if the value is not an object; whatever `body` throws.
    public func decodeObject<T>(forKey key: String, _ body: (KeyedUnarchiver, String) throws -> T) throws -> T? {
        let ref = try valueRef(key)
        let u = try uid(ref, key, "object")
        if u == 0 { return nil }
        let h = plist.header(archive.objectRefs[u])
        guard h.marker >> 4 == 0xD else { throw mismatch(key, "object", ref) }
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

    /// Unarchives the value stored under `root`, as `KeyedArchiver.archive(_:)` (and
    /// NSKeyedArchiver's `archivedData(withRootObject:)`) writes it: a reference to an object.
    /// - Throws: `.notKeyedArchive` for an archive without `root`, or whose root is stored in
    ///   place (a number, boolean or bytes) rather than referred to; what `decodeValue` throws.
    public static func unarchiveValue(_ bytes: [UInt8], limits: ArchiveLimits = .default) throws(ArchiveError) -> ArchiveValue {
        let unarchiver = try KeyedUnarchiver(bytes: bytes, limits: limits)
        guard unarchiver.containsValue(forKey: "root") else { throw .notKeyed("the archive has no root: $top has no key 'root'") }
        let ref = try unarchiver.valueRef("root")
        guard unarchiver.plist.header(ref).marker >> 4 == 0x8 else {
            throw .notKeyed("the root is \(a: KeyedArchive.typeName(unarchiver.plist.header(ref).marker)) in place, not a reference to an object")
        }
        return try unarchiver.decodeValue(forKey: "root")
    }
}

extension ArchiveValue {
    /// A value stored in place of a reference, under a key of an object or of `$top`: what
    /// NSKeyedArchiver writes there (a number, a boolean, bytes). Anything else, a string or a
    /// container included, is an object, which a keyed archive stores in `$objects` and refers
    /// to by UID.
    init(inPlace plain: PropertyList, what: @autoclosure () -> String) throws(ArchiveError) {
        switch plain {
        case .bool, .int, .uint, .float, .double, .data:
            try self.init(plain: plain, what: "")  // a plain value of these kinds is never refused
        default:
            throw ArchiveError(.notKeyedArchive, "\(what()) is \(a: plain.typeName) in place, which a keyed archive stores as an object")
        }
    }

    /// A value stored plainly in the property list (a number, string or data).
    init(plain: PropertyList, what: String) throws(ArchiveError) {
        switch plain {
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .uint(let u): self = .uint(u)
        case .float(let f): self = .double(Double(f))
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .data(let d): self = .data(d)
        case .date(let t): self = .date(try StandardObjects.date(t, what))
        default:
            throw ArchiveError(.notKeyedArchive, "\(what) is a plain \(plain.typeName), which a keyed archive does not hold")
        }
    }
}

/// The unarchiver's state on its hot path: where it is, the objects it made, the classes it
/// resolved and what its lookups found. Each is one stored property, so that a call makes one
/// access to it, and Swift's run-time exclusivity checks are off for all four: the unarchiver
/// is used by one thread at a time, no access to them outlives the call that makes it, and what
/// the checks cost is in BENCHMARKS.md.
final class UnarchiverState {
    /// The object being decoded: its dictionary, UID (-1 for `$top`) and nesting depth.
    @exclusivity(unchecked) var cursor: KeyedUnarchiver.Cursor
    /// The objects made so far, by UID.
    @exclusivity(unchecked) var made = KeyedUnarchiver.MadeObjects()
    /// The class descriptions resolved so far (see `KeyedUnarchiver.classPosition`).
    @exclusivity(unchecked) var classes: [KeyedUnarchiver.ClassInfo] = []
    /// What recent lookups found, to find it again without searching.
    @exclusivity(unchecked) var caches = KeyedUnarchiver.LookupCaches()

    init(_ cursor: KeyedUnarchiver.Cursor) { self.cursor = cursor }
}
