/// A keyed archive read from bytes and checked against the NSKeyedArchiver layout.
///
/// The layout: a top dictionary with `$archiver` = `NSKeyedArchiver`, `$version` = 100000,
/// `$top` (a dictionary of UIDs) and `$objects` (an array whose item 0 is the string `$null`).
/// Each object is an item of `$objects`, referred to by its index as a UID: a plain string,
/// number or data for Foundation's value classes, else a dictionary with a `$class` UID naming a
/// class description `{$classname, $classes}`.
///
/// This is the raw graph; `KeyedUnarchiver` decodes typed values from it, and the `amber`
/// command prints it.
public struct KeyedArchive: Sendable {
    /// The validated property list.
    public let plist: BinaryPropertyList
    /// The property list reference of each `$objects` item, by UID.
    let objectRefs: [Int]
    /// The `$top` dictionary's reference.
    let topRef: Int

    /// Reads and checks a keyed archive.
    /// - Throws: `.corrupt` or `.limitExceeded` for the property list; `.notKeyedArchive` when
    ///   the layout is wrong, naming what is wrong.
    public init(bytes: [UInt8], limits: ArchiveLimits = .default) throws(ArchiveError) {
        try self.init(plist: BinaryPropertyList(bytes: bytes, limits: limits))
    }

    /// Checks the layout of a property list already read.
    public init(plist: BinaryPropertyList) throws(ArchiveError) {
        self.plist = plist
        let root = plist.header(plist.top)
        guard root.marker >> 4 == 0xD else {
            throw .notKeyed("the top object is \(a: KeyedArchive.typeName(root.marker)), not a dictionary")
        }
        func find(_ key: String) -> Int? { plist.lookup(key, in: root) }
        guard let archiverRef = find("$archiver") else { throw .notKeyed("the key $archiver is missing") }
        let archiverHeader = plist.header(archiverRef)
        guard archiverHeader.marker >> 4 == 0x5 || archiverHeader.marker >> 4 == 0x6,
              let archiver = try? plist.string(archiverHeader, ref: archiverRef)
        else { throw .notKeyed("$archiver is not a string") }
        guard archiver == "NSKeyedArchiver" else {
            throw .notKeyed("$archiver is '\(archiver.prefix(64))', not 'NSKeyedArchiver'")
        }
        guard let versionRef = find("$version") else { throw .notKeyed("the key $version is missing") }
        let versionHeader = plist.header(versionRef)
        guard versionHeader.marker >> 4 == 0x1, let version = try? plist.integer(versionHeader, ref: versionRef) else {
            throw .notKeyed("$version is not an integer")
        }
        guard version == 100000 else { throw .notKeyed("$version is \(version), not 100000") }
        guard let topRef = find("$top") else { throw .notKeyed("the key $top is missing") }
        guard plist.header(topRef).marker >> 4 == 0xD else { throw .notKeyed("$top is not a dictionary") }
        guard let objectsRef = find("$objects") else { throw .notKeyed("the key $objects is missing") }
        let objects = plist.header(objectsRef)
        guard objects.marker >> 4 == 0xA else { throw .notKeyed("$objects is not an array") }
        guard objects.count >= 1 else { throw .notKeyed("$objects is empty; its first item must be $null") }
        let refs = (0 ..< objects.count).map { plist.ref(at: objects.start + $0 * plist.refSize) }  // written once
        guard plist.stringEquals(refs[0], "$null") else { throw .notKeyed("the first item of $objects is not $null") }
        self.objectRefs = refs
        self.topRef = topRef
    }

    /// The number of items in `$objects`, `$null` included.
    public var objectCount: Int { objectRefs.count }

    /// The keys of `$top` that refer to objects and the UID each refers to, in stored order.
    /// Keys holding an inline value (Foundation writes numbers and booleans there directly) are
    /// not listed: `topValues()` lists every key.
    /// - Throws: `.notKeyedArchive` for a UID out of range or a key that is not a string.
    public func topEntries() throws(ArchiveError) -> [(key: String, uid: Int)] {
        var result: [(key: String, uid: Int)] = []
        for pair in try entries(ofDictionary: topRef, what: "$top") {
            if case .uid(let u) = pair.value { result.append((KeyedArchive.unescape(pair.key), try checkedUID(u))) }
        }
        return result
    }

    /// Every key of `$top` with its value as stored: `.uid` for a reference to an object,
    /// else an inline number, boolean or data (Foundation's `encodeBytes(_:length:forKey:)`).
    /// - Throws: `.notKeyedArchive` for a key that is not a string or a value of a type that
    ///   `$top` cannot hold (a string, a date, a container: objects, stored by reference).
    public func topValues() throws(ArchiveError) -> [(key: String, value: PropertyList)] {
        var result: [(key: String, value: PropertyList)] = []
        for pair in try entries(ofDictionary: topRef, what: "$top") {
            switch pair.value {
            case .uid(let u): _ = try checkedUID(u)
            case .bool, .int, .uint, .float, .double, .data: break
            default:
                throw .notKeyed("$top's key '\(pair.key)' holds \(a: pair.value.typeName), which a keyed archive stores by reference")
            }
            result.append((KeyedArchive.unescape(pair.key), pair.value))
        }
        return result
    }

    /// `$top`'s entries, for a reader of the whole object graph (`amber dump --keyed`), checked
    /// to have a root: at least one key refers to an object, and the key `root`, if there is one,
    /// refers to an object (NSKeyedArchiver's `archivedData(withRootObject:)` and
    /// `KeyedArchiver.archive(_:)` write it so) rather than holding a value in place.
    /// - Throws: what `topValues()` throws; `.notKeyedArchive` for an archive without a root or
    ///   whose root is stored in place.
    public func rootedTopValues() throws(ArchiveError) -> [(key: String, value: PropertyList)] {
        let top = try topValues()
        func isReference(_ value: PropertyList) -> Bool {
            if case .uid = value { return true }
            return false
        }
        if let root = top.first(where: { $0.key == "root" }), !isReference(root.value) {
            throw .notKeyed("the root is \(a: root.value.typeName) in place, not a reference to an object")
        }
        guard top.contains(where: { isReference($0.value) }) else {
            throw .notKeyed("the archive has no root: $top refers to no object")
        }
        return top
    }

    /// One item of `$objects`, resolved.
    public enum Object: Equatable, Sendable {
        /// `$null`, item 0.
        case null
        /// A plain string, number or data (NSString, NSNumber, NSData).
        case value(PropertyList)
        /// An instance: its class description and its other keys (unescaped), in stored order.
        /// Values are property lists; references to other objects are `.uid`.
        case instance(className: String, classes: [String], fields: [(key: String, value: PropertyList)])

        public static func == (a: Object, b: Object) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case (.value(let x), .value(let y)): return x == y
            case (.instance(let n1, let c1, let f1), .instance(let n2, let c2, let f2)):
                return n1 == n2 && c1 == c2 && f1.count == f2.count
                    && zip(f1, f2).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: return false
            }
        }
    }

    /// The `$objects` item `uid`, resolved.
    /// - Throws: `.notKeyedArchive` for a UID out of range or a broken class description.
    public func object(_ uid: Int) throws(ArchiveError) -> Object {
        guard uid >= 0 else { throw .notKeyed("UID \(uid) is out of range: $objects has \(objectRefs.count) items") }
        let u = try checkedUID(UInt64(uid))
        if u == 0 { return .null }
        let ref = objectRefs[u]
        let h = plist.header(ref)
        guard h.marker >> 4 == 0xD else {
            let plain = try plist.value(at: ref)
            switch plain {
            case .array, .set, .uid:
                throw .notKeyed("object \(u) is a plain \(plain.typeName), which a keyed archive does not hold")
            case .date(let t):
                return .value(.date(try StandardObjects.date(t, "object \(u)")))
            default:
                return .value(plain)
            }
        }
        guard let classRef = plist.lookup("$class", in: h) else {
            throw .notKeyed("object \(u) is a dictionary without $class")
        }
        let (name, classes) = try classDescription(uidRef: classRef, of: u)
        var fields: [(key: String, value: PropertyList)] = []
        for pair in try entries(ofDictionary: ref, what: "object \(u)") where pair.key != "$class" {
            fields.append((KeyedArchive.unescape(pair.key), pair.value))
        }
        return .instance(className: name, classes: classes, fields: fields)
    }

    /// The class description an object's `$class` UID names.
    func classDescription(uidRef: Int, of object: Int) throws(ArchiveError) -> (String, [String]) {
        let h = plist.header(uidRef)
        guard h.marker >> 4 == 0x8 else { throw .notKeyed("object \(object)'s $class is not a UID") }
        let u = try checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: h.count + 1))
        let ref = objectRefs[u]
        let d = plist.header(ref)
        guard d.marker >> 4 == 0xD else {
            throw .notKeyed("the class description \(u) of object \(object) is not a dictionary")
        }
        guard let nameRef = plist.lookup("$classname", in: d), case .string(let name)? = try? plist.value(at: nameRef) else {
            throw .notKeyed("the class description \(u) of object \(object) has no string $classname")
        }
        var classes: [String] = []
        if let classesRef = plist.lookup("$classes", in: d) {
            guard case .array(let items)? = try? plist.value(at: classesRef) else {
                throw .notKeyed("the class description \(u) of object \(object) has a $classes that is not an array")
            }
            for item in items {
                guard case .string(let s) = item else {
                    throw .notKeyed("the class description \(u) of object \(object) has a $classes item that is not a string")
                }
                classes.append(s)
            }
        } else {
            throw .notKeyed("the class description \(u) of object \(object) has no $classes")
        }
        return (name, classes)
    }

    /// Checks that every key of instance `u`, whose dictionary is `h`, is a string, as
    /// NSKeyedArchiver writes them: the unarchiver, which finds values by their string keys,
    /// refuses such an object as the raw graph (`object(_:)`) does, rather than read past the key.
    @inline(__always)
    func checkStringKeys(_ h: BinaryPropertyList.Header, of u: Int) throws(ArchiveError) {
        var at = h.start
        for _ in 0 ..< h.count {
            let marker = plist.bytes[plist.offsets[plist.ref(at: at)]]
            guard marker >> 4 == 0x5 || marker >> 4 == 0x6 else {
                throw .notKeyed("object \(u) has a key that is \(a: KeyedArchive.typeName(marker)), not a string")
            }
            at += plist.refSize
        }
    }

    func checkedUID(_ u: UInt64) throws(ArchiveError) -> Int {
        guard u < UInt64(objectRefs.count) else {
            throw .notKeyed("UID \(u) is out of range: $objects has \(objectRefs.count) items")
        }
        return Int(u)
    }

    /// A dictionary's entries with string keys.
    func entries(ofDictionary ref: Int, what: String) throws(ArchiveError) -> [(key: String, value: PropertyList)] {
        guard case .dictionary(let pairs) = try plist.value(at: ref) else {
            throw .notKeyed("\(what) is not a dictionary")
        }
        var result: [(key: String, value: PropertyList)] = []
        result.reserveCapacity(pairs.count)
        for pair in pairs {
            guard case .string(let k) = pair.key else {
                throw .notKeyed("\(what) has a key that is \(a: pair.key.typeName), not a string")
            }
            result.append((k, pair.value))
        }
        return result
    }

    static func unescape(_ key: String) -> String {
        key.hasPrefix("$$") ? String(key.dropFirst()) : key
    }

    static func typeName(_ marker: UInt8) -> String {
        switch marker >> 4 {
        case 0x0: return "boolean"
        case 0x1: return "integer"
        case 0x2: return "real"
        case 0x3: return "date"
        case 0x4: return "data"
        case 0x5, 0x6: return "string"
        case 0x8: return "UID"
        case 0xA: return "array"
        case 0xC: return "set"
        default: return "dictionary"
        }
    }
}

extension BinaryPropertyList {
    /// The value reference stored under a string key in a dictionary, without making strings.
    @inline(__always)
    func lookup(_ key: String, in dict: Header) -> Int? {
        var i = 0
        let valuesStart = dict.start + dict.count * refSize
        while i < dict.count {
            if stringEquals(ref(at: dict.start + i * refSize), key) {
                return ref(at: valuesStart + i * refSize)
            }
            i += 1
        }
        return nil
    }

    /// The value reference stored under the key whose string object is `keyRef`.
    @inline(__always)
    func lookup(keyRef: Int, in dict: Header) -> Int? {
        var i = 0
        while i < dict.count {
            if ref(at: dict.start + i * refSize) == keyRef {
                return ref(at: dict.start + (dict.count + i) * refSize)
            }
            i += 1
        }
        return nil
    }

    /// The key's string object and the value stored under it in a dictionary.
    func lookupPair(_ key: String, in dict: Header) -> (key: Int, value: Int)? {
        var i = 0
        while i < dict.count {
            let k = ref(at: dict.start + i * refSize)
            if stringEquals(k, key) { return (k, ref(at: dict.start + (dict.count + i) * refSize)) }
            i += 1
        }
        return nil
    }

    /// Whether a string object equals `key` (compares bytes; UTF-16 strings are decoded).
    @inline(__always)
    func stringEquals(_ ref: Int, _ key: String) -> Bool {
        let h = header(ref)
        switch h.marker >> 4 {
        case 0x5:
            let utf8 = key.utf8
            guard utf8.count == h.count else { return false }
            var at = h.start
            for byte in utf8 {
                if bytes[at] != byte { return false }
                at += 1
            }
            return true
        case 0x6:
            guard let s = try? string(h, ref: ref) else { return false }
            return s == key
        default:
            return false
        }
    }
}

// MARK: Sizes

extension KeyedArchive {
    /// The bytes that `$objects` item `uid` and everything it reaches take in the file: its own
    /// object, and each object its references and UIDs lead to, counted once. A restoration
    /// record reaches its state and values but not the other records (they are named by index).
    /// What `amber inspect --sizes` shows per object (SPEC R31). 0 for a UID out of range.
    public func byteSize(ofUID uid: Int) -> Int {
        guard uid >= 0, uid < objectRefs.count else { return 0 }
        var visited = Set<Int>()
        return reachableBytes(from: objectRefs[uid], visited: &visited)
    }

    /// The keys of `$objects` item `uid`, each with the bytes its value reaches (as
    /// `byteSize(ofUID:)` counts them), in stored order, `$class` left out; empty when the item
    /// is not a dictionary. What `amber inspect --sizes` shows per key (SPEC R31).
    public func keySizes(ofUID uid: Int) -> [(key: String, bytes: Int)] {
        guard uid >= 0, uid < objectRefs.count else { return [] }
        let ref = objectRefs[uid]
        let h = plist.header(ref)
        guard h.marker >> 4 == 0xD else { return [] }
        var sizes: [(key: String, bytes: Int)] = []
        for i in 0 ..< h.count {
            let keyRef = plist.ref(at: h.start + i * plist.refSize)
            let valueRef = plist.ref(at: h.start + (h.count + i) * plist.refSize)
            let keyHeader = plist.header(keyRef)
            guard keyHeader.marker >> 4 == 0x5 || keyHeader.marker >> 4 == 0x6,
                  let key = try? plist.string(keyHeader, ref: keyRef), key != "$class"
            else { continue }
            var visited = Set<Int>()
            sizes.append((key, reachableBytes(from: valueRef, visited: &visited)))
        }
        return sizes
    }

    /// The bytes of the objects reachable from property list reference `start` that `visited`
    /// does not hold yet (each added to it): markers, lengths, contents and references.
    /// Iterative, so that deep nesting does not exhaust the stack; the file was validated, so
    /// every reference and length read is in range.
    private func reachableBytes(from start: Int, visited: inout Set<Int>) -> Int {
        var total = 0
        var stack = [start]
        let refSize = plist.refSize
        while let ref = stack.popLast() {
            guard visited.insert(ref).inserted else { continue }
            let h = plist.header(ref)
            let nibble = Int(h.marker & 0x0F)
            let contents: Int
            switch h.marker >> 4 {
            case 0x1, 0x2: contents = 1 << nibble
            case 0x3: contents = 8
            case 0x4, 0x5: contents = h.count
            case 0x6: contents = 2 * h.count
            case 0x8:
                contents = nibble + 1
                if contents <= 8 {
                    let uid = BinaryPropertyList.readUInt(plist.bytes, at: h.start, width: contents)
                    if uid < UInt64(objectRefs.count) { stack.append(objectRefs[Int(uid)]) }
                }
            case 0xA, 0xC, 0xD:
                let refs = h.marker >> 4 == 0xD ? 2 * h.count : h.count
                contents = refs * refSize
                for i in 0 ..< refs { stack.append(plist.ref(at: h.start + i * refSize)) }
            default: contents = 0
            }
            total += h.start - plist.offsets[ref] + contents
        }
        return total
    }
}

// MARK: Compacting

extension KeyedArchive {
    /// A keyed archive's bytes without the `$objects` items that nothing reaches from `$top`
    /// (the values an encoding taken back left behind, `KeyedArchiver.rollBack(to:)`), the UIDs
    /// renumbered in their order: the same archive to a reader, smaller. The bytes themselves
    /// when every item is reached.
    /// - Throws: `.corrupt` or `.limitExceeded` for the property list; `.notKeyedArchive` when
    ///   it has no `$objects` array or no `$top`.
    public static func compacted(_ bytes: [UInt8], limits: ArchiveLimits = .default) throws(ArchiveError) -> [UInt8] {
        guard case .dictionary(var pairs) = try BinaryPropertyList.decode(bytes, limits: limits),
              let objectsAt = pairs.firstIndex(where: { $0.key == .string("$objects") }),
              case .array(let objects) = pairs[objectsAt].value, !objects.isEmpty,
              let topAt = pairs.firstIndex(where: { $0.key == .string("$top") })
        else { throw .notKeyed("not a keyed archive: no $objects array or no $top") }
        // The items reached from $top ($null, the first, always kept).
        var reached = [Bool](repeating: false, count: objects.count)
        reached[0] = true
        var stack = [pairs[topAt].value]
        while let value = stack.popLast() {
            switch value {
            case .uid(let u):
                if u < UInt64(objects.count), !reached[Int(u)] {
                    reached[Int(u)] = true
                    stack.append(objects[Int(u)])
                }
            case .array(let items), .set(let items): stack.append(contentsOf: items)
            case .dictionary(let items):
                for pair in items {
                    stack.append(pair.key)
                    stack.append(pair.value)
                }
            default: break
            }
        }
        guard reached.contains(false) else { return bytes }
        var renumber = [UInt64](repeating: 0, count: objects.count)
        var kept: [PropertyList] = []
        for i in objects.indices where reached[i] {
            renumber[i] = UInt64(kept.count)
            kept.append(objects[i])
        }
        /// A value with its UIDs renumbered (nesting is bounded by `limits.maxDepth`, which
        /// reading checked).
        func renumbered(_ value: PropertyList) -> PropertyList {
            switch value {
            case .uid(let u): return .uid(u < UInt64(objects.count) ? renumber[Int(u)] : u)
            case .array(let items): return .array(items.map(renumbered))
            case .set(let items): return .set(items.map(renumbered))
            case .dictionary(let items): return .dictionary(items.map { PropertyListPair(renumbered($0.key), renumbered($0.value)) })
            default: return value
            }
        }
        pairs[objectsAt].value = .array(kept.map(renumbered))
        pairs[topAt].value = renumbered(pairs[topAt].value)
        return BinaryPropertyList.encode(.dictionary(pairs))
    }
}
