// Objects of Foundation's standard classes (the `ArchiveValue` table), read from their fields and
// checked, once for every reader: the unarchiver's values (`KeyedUnarchiver.decodeValue`) and
// the raw graph (`KeyedArchive.standardObject`, which `amber dump --keyed` and `amber inspect`
// print). A field of the wrong type, a missing field, or counts that disagree is a
// `.notKeyedArchive` naming the class, the object's UID and the field.

/// The checks and decoders shared by the readers of Foundation's standard classes.
enum StandardObjects {
    /// The fields of an instance, found in its dictionary by key (without making strings).
    struct Fields {
        let plist: BinaryPropertyList
        let dict: BinaryPropertyList.Header

        /// The value under `key`, or nil if the object has none.
        subscript(key: String) -> PropertyList? {
            get throws(ArchiveError) {
                guard let r = plist.lookup(key, in: dict) else { return nil }
                return try plist.value(at: r)
            }
        }
    }

    /// The value of object `u` of class `name` when the class is one of those that refer to no
    /// other object (but data): NSString, NSData, NSDate, NSUUID, NSIndexPath, NSIndexSet,
    /// NSNull; nil for another class.
    static func leaf(_ name: String, object u: Int, archive: KeyedArchive, _ field: Fields) throws(ArchiveError) -> ArchiveValue? {
        func required(_ key: String) throws(ArchiveError) -> PropertyList {
            guard let value = try field[key] else { throw .notKeyed("the \(name) object \(u) has no \(key)") }
            return value
        }
        switch name {
        case "NSString", "NSMutableString":
            switch try required("NS.string") {
            case .string(let s): return .string(s)
            case .data(let d):
                guard let s = String(validating: d, as: UTF8.self) else {
                    throw .notKeyed("the \(name) object \(u) holds invalid UTF-8")
                }
                return .string(s)
            default: throw .notKeyed("the \(name) object \(u)'s NS.string is not a string")
            }
        case "NSData", "NSMutableData":
            return .data(try dataFields(name, object: u, archive: archive, field))
        case "NSDate":
            let what = "the NSDate object \(u)'s NS.time"
            switch try required("NS.time") {
            case .double(let t): return .date(try date(t, what))
            case .float(let t): return .date(try date(Double(t), what))
            case .int(let t): return .date(try date(Double(t), what))
            default: throw .notKeyed("\(what) is not a real")
            }
        case "NSUUID":
            guard case .data(let d) = try required("NS.uuidbytes"), d.count == 16 else {
                throw .notKeyed("the NSUUID object \(u)'s NS.uuidbytes is not 16 bytes")
            }
            return .uuid(d)
        case "NSIndexPath":
            return .indexPath(try IndexPathCoding.decode(object: u, archive: archive, field))
        case "NSIndexSet", "NSMutableIndexSet":
            return .indexSet(try IndexSetCoding.decode(name, object: u, archive: archive, field))
        case "NSNull":
            return .null
        default:
            return nil
        }
    }

    /// The bytes of NSData or NSMutableData object `u`, as Foundation writes them: Apple's
    /// `NS.bytes`, in place; swift-corelibs-foundation's `NS.data`, in place or (as its
    /// `_encodePropertyList(_:forKey:)` writes it) a UID of a data item of `$objects`.
    static func dataFields(_ name: String, object u: Int, archive: KeyedArchive, _ field: Fields) throws(ArchiveError) -> [UInt8] {
        if let bytes = try field["NS.bytes"] {
            guard case .data(let d) = bytes else { throw .notKeyed("the \(name) object \(u)'s NS.bytes is not data") }
            return d
        }
        switch try field["NS.data"] {
        case .data(let d)?:
            return d
        case .uid(let target)?:
            guard case .value(.data(let d)) = try archive.object(Int(clamping: target)) else {
                throw .notKeyed("the \(name) object \(u)'s NS.data does not refer to data")
            }
            return d
        case nil:
            throw .notKeyed("the \(name) object \(u) has no NS.bytes or NS.data")
        default:
            throw .notKeyed("the \(name) object \(u)'s NS.data is not data")
        }
    }

    /// `seconds` (since 2001-01-01T00:00:00Z), checked to be a date an archive may hold
    /// (`ArchiveLimits.dates`): the value of `what`.
    /// - Throws: `.notKeyedArchive` for NaN, an infinity, or a date outside years 1 to 9999.
    static func date(_ seconds: Double, _ what: @autoclosure () -> String) throws(ArchiveError) -> Double {
        guard let problem = ArchiveLimits.dateProblem(seconds) else { return seconds }
        throw .notKeyed("\(what()) is \(problem), which no reader of an archive takes")
    }

    /// The UIDs of the array of UIDs under `key` (NS.objects, NS.keys) of object `u`, whose
    /// dictionary is `h`.
    static func uids(
        _ key: String, of name: String, object u: Int, archive: KeyedArchive, _ h: BinaryPropertyList.Header
    ) throws(ArchiveError) -> [Int] {
        let plist = archive.plist
        guard let r = plist.lookup(key, in: h) else { throw .notKeyed("the \(name) object \(u) has no \(key)") }
        let a = plist.header(r)
        guard a.marker >> 4 == 0xA else { throw .notKeyed("the \(name) object \(u)'s \(key) is not an array") }
        var result: [Int] = []
        result.reserveCapacity(a.count)
        for i in 0 ..< a.count {
            let item = plist.header(plist.ref(at: a.start + i * plist.refSize))
            guard item.marker >> 4 == 0x8 else {
                throw .notKeyed("the \(name) object \(u)'s \(key) holds \(a: KeyedArchive.typeName(item.marker)), not a UID")
            }
            result.append(try archive.checkedUID(BinaryPropertyList.readUInt(plist.bytes, at: item.start, width: item.count + 1)))
        }
        return result
    }

    /// Checks that an NSDictionary's keys and objects are as many.
    @inline(__always)
    static func checkPairs(_ keys: Int, _ objects: Int, of name: String, object u: Int) throws(ArchiveError) {
        guard keys == objects else {
            throw .notKeyed("the \(name) object \(u) has \(keys) keys (NS.keys) and \(objects) objects (NS.objects)")
        }
    }

    /// The items of NSCountedSet object `u` as Foundation writes them: `NS.count` distinct
    /// objects, the i-th under `NS.object<i>` (a UID) with how many times it is in the set under
    /// `NS.count<i>` (at least 1). One pass over the fields, whatever their number; the count is
    /// checked against the fields there are before anything is allocated from it.
    /// - Throws: `.notKeyedArchive` for a missing or invalid count, an item missing, given twice,
    ///   past the count, null, stored in place, or counted less than once.
    static func countedSet(
        _ name: String, object u: Int, archive: KeyedArchive, fields: [(key: String, value: PropertyList)]
    ) throws(ArchiveError) -> [(uid: Int, count: Int)] {
        guard case .int(let declared)? = fields.first(where: { $0.key == "NS.count" })?.value, declared >= 0 else {
            throw .notKeyed("the \(name) object \(u) has no valid NS.count")
        }
        // Each item takes two fields besides NS.count.
        guard declared <= Int64((fields.count - 1) / 2) else {
            throw .notKeyed("the \(name) object \(u) declares \(declared) objects in \(fields.count) fields")
        }
        let n = Int(declared)
        var uids = [Int](repeating: -1, count: n)
        var counts = [Int](repeating: 0, count: n)
        for (key, value) in fields {
            let isObject = key.hasPrefix("NS.object")
            guard isObject || key.hasPrefix("NS.count"),
                  let i = index(key.utf8.dropFirst(isObject ? 9 : 8))
            else { continue }
            guard i < n else { throw .notKeyed("the \(name) object \(u) holds \(key), past its NS.count of \(n)") }
            if isObject {
                guard uids[i] < 0 else { throw .notKeyed("the \(name) object \(u) holds \(key) twice") }
                guard case .uid(let c) = value else {
                    throw .notKeyed("the \(name) object \(u)'s \(key) is \(a: value.typeName), not a reference to an object")
                }
                uids[i] = try archive.checkedUID(c)
                guard uids[i] != 0 else { throw .notKeyed("the \(name) object \(u)'s \(key) is null") }
            } else {
                guard counts[i] == 0 else { throw .notKeyed("the \(name) object \(u) holds \(key) twice") }
                guard case .int(let c) = value, c >= 1, let count = Int(exactly: c) else {
                    throw .notKeyed("the \(name) object \(u)'s \(key) is not a count of 1 or more")
                }
                counts[i] = count
            }
        }
        var items: [(uid: Int, count: Int)] = []
        items.reserveCapacity(n)
        for i in 0 ..< n {
            guard uids[i] > 0 else { throw .notKeyed("the \(name) object \(u) has no NS.object\(i)") }
            guard counts[i] > 0 else { throw .notKeyed("the \(name) object \(u) has no NS.count\(i)") }
            items.append((uids[i], counts[i]))
        }
        return items
    }

    /// The decimal index a key ends with (`NS.object12`): digits only, no leading zero, at most
    /// 18 of them; nil for anything else.
    private static func index(_ digits: Substring.UTF8View) -> Int? {
        guard let first = digits.first, digits.count <= 18, first != 0x30 || digits.count == 1 else { return nil }
        var value = 0
        for d in digits {
            guard d >= 0x30, d <= 0x39 else { return nil }
            value = value * 10 + Int(d - 0x30)
        }
        return value
    }
}

extension KeyedArchive {
    /// An object of one of Foundation's standard classes (the `ArchiveValue` table), its fields
    /// read and checked: a value that refers to no other object, or the UIDs a container holds.
    public enum StandardObject: Sendable {
        /// NSString, NSData, NSDate, NSUUID, NSIndexPath, NSIndexSet, NSNull (and the mutable
        /// classes): the value itself.
        case value(ArchiveValue)
        /// NSArray or NSMutableArray: the UIDs of its items, `$null` as 0.
        case array([Int])
        /// NSSet or NSMutableSet.
        case set([Int])
        /// NSDictionary or NSMutableDictionary: as many keys as objects.
        case dictionary(keys: [Int], objects: [Int])
        /// NSCountedSet: each distinct object and how many times it is in the set.
        case countedSet([(uid: Int, count: Int)])
    }

    /// Object `uid` as one of Foundation's standard classes; nil when it is not an instance of
    /// one of them (a plain value, `$null`, an instance of another class).
    /// - Throws: `.notKeyedArchive` when a field is missing or of the wrong type, or counts
    ///   disagree (keys and objects, a declared length and the data), naming the class, the
    ///   object's UID and the field; or for a UID out of range or a broken class description.
    public func standardObject(_ uid: Int) throws(ArchiveError) -> StandardObject? {
        guard uid >= 0 else { throw .notKeyed("UID \(uid) is out of range: $objects has \(objectRefs.count) items") }
        let u = try checkedUID(UInt64(uid))
        let h = plist.header(objectRefs[u])
        guard u > 0, h.marker >> 4 == 0xD, let classRef = plist.lookup("$class", in: h) else { return nil }
        let (name, _) = try classDescription(uidRef: classRef, of: u)
        switch name {
        case "NSArray", "NSMutableArray":
            return .array(try StandardObjects.uids("NS.objects", of: name, object: u, archive: self, h))
        case "NSSet", "NSMutableSet":
            return .set(try StandardObjects.uids("NS.objects", of: name, object: u, archive: self, h))
        case "NSDictionary", "NSMutableDictionary":
            let keys = try StandardObjects.uids("NS.keys", of: name, object: u, archive: self, h)
            let objects = try StandardObjects.uids("NS.objects", of: name, object: u, archive: self, h)
            try StandardObjects.checkPairs(keys.count, objects.count, of: name, object: u)
            return .dictionary(keys: keys, objects: objects)
        case "NSCountedSet":
            guard case .instance(_, _, let fields) = try object(u) else { return nil }
            return .countedSet(try StandardObjects.countedSet(name, object: u, archive: self, fields: fields))
        default:
            return try StandardObjects.leaf(name, object: u, archive: self, StandardObjects.Fields(plist: plist, dict: h))
                .map(StandardObject.value)
        }
    }
}
