import Synchronization

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

    /// What the archiver writes and what it has still to write (`ArchiverState`).
    let state: ArchiverState
    /// Every object given a UID, kept alive until the archive is finished so that its identity
    /// is not reused by another object during encoding.
    var retained: [AnyObject] = []
    /// An object given its UID and waiting to be encoded.
    struct Pending {
        let object: AnyObject
        /// Its class's index in `classes`; -1 if it is found when the object's turn comes (an
        /// object met in an array of a registered class: see `encodeArray`).
        let cls: Int32
        let uid: Int32
        /// How deep the unarchiver will be inside objects when it decodes this one (`$top` is 0).
        let depth: Int32
    }
    /// Whether `drain` is running: an object met then waits its turn.
    var draining = false
    /// The unarchiver's object depth of the object open innermost is `depthBase + open.count`:
    /// outside `drain` the open objects nest as they will be read (`$top` is open, at depth 0);
    /// inside it, each object is encoded after the one that met it has closed, so its depth is
    /// its own (`Pending.depth`), not the stack's.
    private var depthBase = -1
    /// The classes of the objects met, each once: its encode closure and its class
    /// description's UID, and the index of each by name. The closure alone, not the whole
    /// `ArchiveClass`: encoding an object copies its class's entry, and a copy of an
    /// `ArchiveClass` counts references to its name and its three closures (atomic writes, each
    /// waiting for every memory access before it, cold ones included).
    var classes: [(encode: @Sendable (AnyObject, KeyedArchiver) throws -> Void, uid: Int)] = []
    var classIndex: [String: Int32] = [:]
    /// The Swift type last looked up and the index in `classes` of its class.
    var lastType: (type: ObjectIdentifier?, cls: Int32) = (nil, -1)
    /// The element type of the last array of objects encoded, and whether the registry has a
    /// class for it (see `encodeArray`).
    var lastArrayType: (type: ObjectIdentifier?, registered: Bool) = (nil, false)
    var finished = false
    /// This archiver among all the process's archivers, never reused (unlike an object's
    /// identity): for a `Key` kept beside the archiver that prepared it, to tell whether it
    /// belongs to this one.
    public let serial: UInt64

    /// The serials handed out so far.
    private static let serials = Atomic<UInt64>(0)

    /// The limits a reader enforces (`KeyedUnarchiver`): `finishEncoding` refuses an archive
    /// beyond them, so that what is written can be read (one table serves both directions).
    public let limits: ArchiveLimits

    /// Creates an archiver. `capacity` is a hint: the number of objects expected, taken as 0
    /// below 0 and as 2^20 above it (more objects than that are held by growing). `limits`: the
    /// reader's (`finishEncoding` refuses an archive over its size or object count).
    public init(registry: ArchiveClassRegistry? = nil, capacity: Int = 0, limits: ArchiveLimits = .default) {
        self.registry = registry
        self.limits = limits
        serial = KeyedArchiver.serials.add(1, ordering: .relaxed).newValue
        let capacity = min(max(capacity, 0), KeyedArchiver.largestCapacityHint)
        state = ArchiverState(ArchiveWriter(capacity: capacity))
        retained.reserveCapacity(capacity)
    }

    /// The largest `capacity` hint taken as given: sizes derived from it stay far from
    /// overflowing, and the uniquing tables it sizes up front (about 48 MB for 2^20 objects) stay
    /// modest.
    static let largestCapacityHint = 1 << 20

    /// A hint once the archive's size is better known than at `init` (before much is encoded):
    /// `entries` objects in the finished property list, `bytes` bytes in the finished archive
    /// (0: unknown). A wrong hint costs time or memory, never correctness.
    public func reserveCapacity(entries: Int, bytes: Int = 0) {
        state.w.table.reserve(entries: entries, bytes: bytes)
    }

    /// The number of objects in the property list so far (after `finishEncoding`: 0).
    public var entryCount: Int { state.w.table.count }

    /// The sizes an archive reached, to size the next archiver of its kind from them
    /// (`reserveCapacity(_:scaledFrom:to:)`): read it before `finishEncoding`.
    public struct SizeHint {
        let table: ObjectTable.SizeHint
    }

    /// The sizes this archive has reached so far (read before `finishEncoding`, which empties
    /// the tables they count).
    public var sizeHint: SizeHint { SizeHint(table: state.w.table.sizeHint) }

    /// Sizes this archiver (before much is encoded) for an archive like the one `hint` came
    /// from, scaled from `from` objects of some kind (records, say) there to `to` here. A wrong
    /// hint costs time or memory, never correctness.
    public func reserveCapacity(_ hint: SizeHint, scaledFrom from: Int, to: Int) {
        var h = hint.table.scaled(from: from, to: to)
        h.bytes += h.bytes / 32 + 256
        h.entries += 16
        state.w.table.reserve(h)
    }

    // MARK: Interned keys and prepared classes

    /// A class description made once (`objectClass(_:classes:)`), for objects encoded by the
    /// thousand: opening an object of it skips the class's lookup. Valid only with the archiver
    /// that made it.
    public struct ObjectClass {
        let uid: Int
    }

    /// The class `className` prepared for `encodeDetachedObject(class:_:)` and
    /// `encodeObject(forKey:class:_:)`; `classes` as for `encodeObject(forKey:className:classes:_:)`.
    public func objectClass(_ className: String, classes: [String]? = nil) -> ObjectClass {
        ObjectClass(uid: state.w.classUID(className, classes ?? [className, "NSObject"]))
    }

    /// The UID of a string value, storing it now if it is not stored yet: the same string
    /// `encode(_:forKey:)` refers to. Encode it later with `encode(stringUID:forKey:)`.
    public func stringUID(_ value: String) -> Int { state.w.stringUID(value) }

    /// The string whose UID `stringUID(_:)` gave, read back from the archive; nil if `uid` is
    /// not a string's, or after `finishEncoding`.
    public func string(uid: Int) -> String? { state.w.table.string(uid: uid) }

    /// Whether the object being encoded (the innermost open one) holds an entry under `key`
    /// already. Stores the key's string in the archive, as the write under it that follows does.
    public func holdsKey(_ key: ArchiveKey) -> Bool {
        let ref = key.ref(in: self)
        return state.w.holds(key: ref)
    }

    /// As `holdsKey(_:)` for an `ArchiveKey`, for a key given as its string.
    public func holdsKey(_ key: String) -> Bool {
        let ref = state.w.keyRef(key)
        return state.w.holds(key: ref)
    }

    /// Encodes, under an interned key, a reference to the string whose UID `stringUID(_:)` gave.
    public func encode(stringUID uid: Int, forKey key: ArchiveKey) { put(key, state.w.table.uid(UInt64(uid))) }

    /// Encodes a boolean under an interned key.
    public func encode(_ value: Bool, forKey key: ArchiveKey) { put(key, state.w.table.bool(value)) }
    /// Encodes a 64-bit integer under an interned key.
    public func encode(_ value: Int64, forKey key: ArchiveKey) { put(key, state.w.table.int(value)) }
    /// Encodes a double under an interned key.
    public func encode(_ value: Double, forKey key: ArchiveKey) { put(key, state.w.table.double(value)) }
    /// As `encode(utf8:forKey:)`, under an interned key.
    public func encode(utf8 value: Span<UInt8>, forKey key: ArchiveKey) { put(utf8: value, keyRef: key.ref(in: self)) }
    /// Encodes a string under an interned key.
    public func encode(_ value: String, forKey key: ArchiveKey) { put(key, state.w.table.uid(UInt64(state.w.stringUID(value)))) }
    /// Encodes a value of Foundation's standard classes under an interned key.
    public func encode(_ value: ArchiveValue, forKey key: ArchiveKey) {
        switch value {
        case .bool(let b): put(key, state.w.table.bool(b))
        case .int(let i): put(key, state.w.table.int(i))
        case .uint(let u): put(key, state.w.table.uint(u))
        case .double(let d): put(key, state.w.table.double(d))
        default: put(key, state.w.table.uid(UInt64(state.w.uid(of: value))))
        }
    }

    /// As `encodeDetachedObject(className:classes:_:)`, for a prepared class.
    public func encodeDetachedObject(class objectClass: ObjectClass, _ body: (KeyedArchiver) throws -> Void) rethrows -> Int {
        let objectUID = state.w.beginObject(classUID: objectClass.uid)
        try body(self)
        state.w.endObject()
        return objectUID
    }

    /// As `encodeObject(forKey:className:classes:_:)`, under an interned key, for a prepared class.
    public func encodeObject(forKey key: ArchiveKey, class objectClass: ObjectClass, _ body: (KeyedArchiver) throws -> Void) rethrows {
        let objectUID = state.w.beginObject(classUID: objectClass.uid)
        try body(self)
        state.w.endObject()
        put(key, state.w.table.uid(UInt64(objectUID)))
    }

    // MARK: Scalars

    /// Encodes a boolean (NSNumber).
    public func encode(_ value: Bool, forKey key: String) { state.w.put(key, state.w.table.bool(value)) }
    /// Encodes a 64-bit integer (NSNumber).
    public func encode(_ value: Int64, forKey key: String) { state.w.put(key, state.w.table.int(value)) }
    /// Encodes an integer (NSNumber).
    public func encode(_ value: Int, forKey key: String) { state.w.put(key, state.w.table.int(Int64(value))) }
    /// Encodes a double (NSNumber).
    public func encode(_ value: Double, forKey key: String) { state.w.put(key, state.w.table.double(value)) }
    /// Encodes a string (NSString): stored once in `$objects`, referenced by UID.
    public func encode(_ value: String, forKey key: String) { state.w.putString(key, value) }
    /// Encodes a string given as its UTF-8 bytes, without making a `String` of them when they
    /// are ASCII; the same as `encode(_:forKey:)` with the string they hold. Not valid UTF-8:
    /// encoded as `String(decoding:as:)` reads them (invalid sequences replaced).
    public func encode(utf8 value: Span<UInt8>, forKey key: String) { put(utf8: value, keyRef: state.w.keyRef(key)) }

    private func put(utf8 value: Span<UInt8>, keyRef: Int32) {
        if value.isASCII {
            state.w.put(ref: keyRef, state.w.table.uid(UInt64(state.w.table.stringUID(ascii: value))))
        } else {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(value.count)
            for i in value.indices { bytes.append(value[i]) }
            state.w.put(ref: keyRef, state.w.table.uid(UInt64(state.w.stringUID(String(decoding: bytes, as: UTF8.self)))))
        }
    }

    /// Adds `key` and a value reference to the current object.
    @inline(__always)
    private func put(_ key: ArchiveKey, _ value: Int32) {
        let ref = key.ref(in: self)
        state.w.put(ref: ref, value)
    }
    /// Encodes bytes (NSData).
    public func encode(bytes: [UInt8], forKey key: String) { state.w.putUID(key, state.w.dataUID(bytes)) }
    /// Encodes a date (NSDate), in seconds since 2001-01-01T00:00:00Z.
    public func encode(date: Double, forKey key: String) { encode(.date(date), forKey: key) }
    /// Encodes an index path (NSIndexPath) of any length.
    public func encode(indexPath: [Int], forKey key: String) { encode(.indexPath(indexPath), forKey: key) }
    /// Encodes nil (the `$null` UID).
    public func encodeNull(forKey key: String) { state.w.putUID(key, 0) }

    /// Encodes a value of Foundation's standard classes, arrays and dictionaries included.
    public func encode(_ value: ArchiveValue, forKey key: String) { state.w.put(key, value) }

    // MARK: Objects

    /// Encodes an object of a registered coding class; the same object encoded twice is stored
    /// once, and an object that refers back to one being encoded (a cycle) is referenced.
    ///
    /// Called outside any class's `encode`, it encodes the object and everything it refers to
    /// before it returns. Called from a class's `encode`, it gives the object its UID and
    /// returns: the object is encoded after the one being encoded has finished (so a graph of
    /// any depth is encoded without recursion, and laid out in the order it is decoded).
    /// - Throws: `.invalidValue` if no registered class encodes the object; whatever the class's
    ///   `encode` throws (of this object or of one it brings).
    public func encodeObject(_ object: AnyObject?, forKey key: String) throws {
        let u = try uid(of: object)
        state.w.putUID(key, u)
    }

    /// Encodes an array of objects of registered coding classes (an NSArray).
    public func encodeObjects(_ objects: [AnyObject], forKey key: String) throws {
        try encodeArray(objects, forKey: key)
    }

    /// Encodes an array of objects of one class (an NSArray), read as it is rather than converted
    /// to `[AnyObject]` first.
    ///
    /// When a class is registered for `T` itself, the objects are not read until their turn to
    /// be encoded comes, and each is encoded by the class registered for its own type (a
    /// subclass's, if the object is of a registered subclass of `T`).
    /// - Throws: as `encodeObjects(_:forKey:)`, except that an object of a subclass of `T` that
    ///   no registered class encodes is refused at its turn: by the call that encodes it (the
    ///   outermost `encodeObject` or `encodeObjects`, as for an error of a class's `encode`), after
    ///   which the archive cannot be finished.
    @inlinable
    public func encodeObjects<T: AnyObject>(_ objects: [T], forKey key: String) throws {
        try encodeArray(objects, forKey: key)
    }

    /// Encodes an array of objects (`encodeObjects`).
    ///
    /// When the registry has a class for `T` itself, an object's class is found when its turn
    /// to be encoded comes (`drain`), from its own Swift type: a registered subclass is encoded
    /// as itself, and an instance of a subclass that no registered class encodes is refused at
    /// its turn (from the outermost call, as an error of its `encode` would be), not by this
    /// call.
    @inlinable
    func encodeArray<T: AnyObject>(_ objects: [T], forKey key: String) throws {
        let start = beginObjects()
        let classAtTurn = isRegistered(ObjectIdentifier(T.self))
        for object in objects { try meet(object, classAtTurn: classAtTurn) }
        endObjects(forKey: key, from: start)
    }

    /// Whether the registry has a class for the Swift type `type` (the last answer kept).
    @usableFromInline
    func isRegistered(_ type: ObjectIdentifier) -> Bool {
        if lastArrayType.type == type { return lastArrayType.registered }
        let registered = registry?.isRegistered(type) ?? false
        lastArrayType = (type, registered)
        return registered
    }

    /// Where the UIDs of an array's objects begin on the stack of UIDs shared by nested calls
    /// (encoding an item may encode others).
    @usableFromInline
    func beginObjects() -> Int { state.w.scratch.count }

    /// An object of an array being encoded (`encodeObjects`): its UID goes onto the stack of
    /// UIDs. With `classAtTurn`, its class is found when its turn comes (see `encodeArray`).
    @usableFromInline
    func meet(_ object: AnyObject, classAtTurn: Bool) throws {
        let u = try uid(of: object, type: classAtTurn ? nil : ObjectIdentifier(type(of: object)))
        state.w.scratch.append(Int32(truncatingIfNeeded: u))
    }

    /// Encodes the array whose UIDs are on the stack from `start`.
    @usableFromInline
    func endObjects(forKey key: String, from start: Int) { state.w.putArray(key, scratchFrom: start) }

    /// Encodes a nested object of class `className` whose contents `body` writes; the archiver
    /// is positioned on the nested object while `body` runs. `classes` is its `$classes` chain
    /// (default: the class, then NSObject).
    /// - Throws: whatever `body` throws; the archive is then unusable.
    public func encodeObject(
        forKey key: String, className: String, classes: [String]? = nil,
        _ body: (KeyedArchiver) throws -> Void
    ) rethrows {
        let objectUID = state.w.beginObject(className: className, classes: classes ?? [className, "NSObject"])
        try body(self)
        state.w.endObject()
        state.w.putUID(key, objectUID)
    }

    /// The UID of an object, encoding it first if it has not been.
    func uid(of object: AnyObject?) throws -> Int {
        guard let object else { return 0 }
        return try uid(of: object, type: ObjectIdentifier(type(of: object)))
    }

    /// The UID of `object`, whose Swift class is `type`, encoding it first if it has not been.
    /// A nil `type`: the class is found at the object's turn (`drain`).
    private func uid(of object: AnyObject, type: ObjectIdentifier?) throws -> Int {
        let identity = UInt64(UInt(bitPattern: ObjectIdentifier(object)))
        let (found, slot, tag) = state.w.findObject(identity)
        if found >= 0 { return found }
        // The unarchiver decodes an object inside the one that refers to it, and refuses objects
        // nested deeper than the limit (SPEC R22): one that would be is refused here, not written.
        // The depth is that of this walk, which meets keys in the order they are encoded; a
        // decoder that reads them in another order can walk a graph deeper (never a chain).
        let depth = depthBase + state.w.open.count + 1
        guard depth <= limits.maxDepth else {
            throw ArchiveError.limit("an object of type \(Swift.type(of: object)) would be decoded \(depth) objects deep; the limit is \(limits.maxDepth)")
        }
        let cls: Int32
        if let type { cls = try classIndex(type: type, of: { object }) } else { cls = -1 }
        // Describing a class met for the first time (`index(of:)`) adds to `$objects`, not to
        // `objectIndex`: `slot` is still where the object goes.
        let objectUID = state.w.reserveObject(identity: identity, slot: slot, tag: tag)
        retained.append(object)
        state.pending.append(Pending(object: object, cls: cls, uid: Int32(truncatingIfNeeded: objectUID), depth: Int32(depth)))
        if !draining { try drain() }
        return objectUID
    }

    /// The index in `classes` of the class that encodes an object of Swift type `type`: the
    /// last type's answer if it is the same, else looked up from `object()`.
    @inline(__always)
    private func classIndex(type: ObjectIdentifier, of object: () -> AnyObject) throws -> Int32 {
        lastType.type == type ? lastType.cls : try classIndex(of: object())
    }

    /// The index in `classes` of the class that encodes `object`.
    /// - Throws: `.invalidValue` if no registered class encodes it.
    private func classIndex(of object: AnyObject) throws -> Int32 {
        if let byType = registry?.lookup(forType: type(of: object)) {
            let cls = index(of: byType)
            lastType = (ObjectIdentifier(type(of: object)), cls)
            return cls
        }
        if let named = registry?.lookup(for: object) { return index(of: named) }
        throw ArchiveError(.invalidValue, "no coding class is registered for an object of type \(type(of: object))")
    }

    /// The index in `classes` of a class of the registry, added (and described in `$objects`)
    /// the first time.
    private func index(of cls: ArchiveClass) -> Int32 {
        if let i = classIndex[cls.name] { return i }
        let i = Int32(classes.count)
        classes.append((cls.encode, state.w.classUID(cls.name, registry?.chain(of: cls.name) ?? [])))
        classIndex[cls.name] = i
        return i
    }

    /// Encodes the objects given a UID but not encoded yet, and those they bring, until none is
    /// left. An object is encoded after the one that met it has closed, the objects one met in
    /// the order it met them, each followed by what it brings (depth first, in pre-order): every
    /// object's dictionary is written just before the objects it refers to, the order a decoder
    /// reads them in. The loop keeps the depth of the native stack constant, however deep the
    /// host's graph.
    private func drain() throws {
        draining = true
        let outerBase = depthBase
        defer {
            draining = false
            depthBase = outerBase
        }
        while let next = state.pending.popLast() {
            let mark = state.pending.count
            let object = next.object
            var c = next.cls
            if c < 0 {
                let type = ObjectIdentifier(Swift.type(of: object))
                do {
                    c = try classIndex(type: type, of: { object })
                } catch {
                    state.pending.append(next)  // still to be encoded: the archive cannot be finished
                    throw error
                }
            }
            let cls = classes[Int(c)]
            state.w.beginObject(reserved: Int(next.uid), classUID: cls.uid)
            depthBase = Int(next.depth) - state.w.open.count
            try cls.encode(object, self)
            state.w.endObject()
            // What `next` met, first met first.
            var i = mark, j = state.pending.count - 1
            while i < j {
                state.pending.swapAt(i, j)
                i += 1
                j -= 1
            }
        }
    }

    // MARK: Checkpoints

    /// A point in the encoding of the innermost open object that `rollBack(to:)` can return to.
    public struct Checkpoint {
        fileprivate let openCount: Int
        fileprivate let pairCount: Int
        fileprivate let scratchCount: Int
        fileprivate let encodedCount: Int
    }

    /// The point the archiver has reached (`rollBack(to:)`).
    public func checkpoint() -> Checkpoint {
        Checkpoint(openCount: state.w.open.count, pairCount: state.w.pairs.count, scratchCount: state.w.scratch.count, encodedCount: state.w.encoded.count)
    }

    /// Takes back the entries written into the innermost open object since `checkpoint`, as if
    /// they had not been written; the values they named stay in the archive, unreferenced. Used
    /// when a host's encode fails part-way, so that the rest of the archive can still be
    /// finished.
    ///
    /// Possible only when every object opened since the checkpoint was closed and no object of
    /// a coding class was met since (its UID may already be referenced elsewhere).
    /// - Returns: false, changing nothing, when that does not hold: the archive cannot be
    ///   finished then.
    public func rollBack(to checkpoint: Checkpoint) -> Bool {
        guard !finished, state.w.open.count == checkpoint.openCount, state.w.encoded.count == checkpoint.encodedCount,
              state.pending.isEmpty, state.w.pairs.count >= checkpoint.pairCount, state.w.scratch.count >= checkpoint.scratchCount
        else { return false }
        state.w.pairs.removeSubrange(checkpoint.pairCount...)
        state.w.heldKeys.reset()
        state.w.scratch.removeSubrange(checkpoint.scratchCount...)
        return true
    }

    /// The bytes the archive's values take so far (before `finishEncoding`, which adds the
    /// object list and offset table): the growth across an object's encoding is its size.
    public var bytesWritten: Int { state.w.table.byteCount }

    // MARK: Finishing

    /// Finishes the archive and returns its bytes (a binary property list).
    /// - Throws: `.invalidValue` if an object is still open or the archive was finished already;
    ///   `.limitExceeded` for an archive its reader would refuse under `limits`: a string or data
    ///   value longer than `maxValueLength` (counted as stored), more than `maxObjects` objects
    ///   (every object of the property list, as the reader counts them), more than `maxBytes`;
    ///   `.invalidValue` for a date outside `ArchiveLimits.dates` (NaN and the infinities included).
    public func finishEncoding() throws(ArchiveError) -> [UInt8] {
        guard !finished else { throw ArchiveError(.invalidValue, "the archive was finished already") }
        guard state.w.open.count == 1, state.pending.isEmpty else {
            throw ArchiveError(.invalidValue, "an object is still being encoded")
        }
        let longest = state.w.table.longestValue
        guard limits.admitsValue(length: longest) else {
            throw ArchiveError(.limitExceeded, "the archive would hold a value of \(longest) bytes; the limit is \(limits.maxValueLength)")
        }
        if let date = state.w.unreadableDate, let problem = ArchiveLimits.dateProblem(date) {
            throw ArchiveError(.invalidValue, "the archive would hold \(problem), which no reader takes")
        }
        finished = true
        retained = []
        let bytes = try state.w.finish(maxObjects: limits.maxObjects)
        guard bytes.count <= limits.maxBytes else {
            throw ArchiveError(.limitExceeded, "the archive would be \(bytes.count) bytes; the limit is \(limits.maxBytes)")
        }
        return bytes
    }

    /// Archives one value of Foundation's standard classes under the key `root`, by reference
    /// whatever the value (a number or boolean too, as an item of `$objects`), as
    /// NSKeyedArchiver's `archivedData(withRootObject:)` writes it and
    /// `KeyedUnarchiver.unarchiveValue` reads it.
    /// - Throws: what `finishEncoding()` throws for a value its reader would refuse under the
    ///   default limits.
    public static func archive(_ value: ArchiveValue) throws(ArchiveError) -> [UInt8] {
        let archiver = KeyedArchiver()
        let root = archiver.state.w.uid(of: value)
        archiver.state.w.putUID("root", root)
        return try archiver.finishEncoding()
    }
}

/// The state of a keyed archive being written: its object table, `$objects`, and the objects
/// open for encoding.
struct ArchiveWriter {
    /// The object table, `$objects` included (`table.objects`: the object table reference of
    /// each UID, -1 while an object is being encoded).
    var table: ObjectTable
    /// The key/value reference pairs of every open object, innermost last.
    var pairs: [Int32] = []
    /// Where each open object's pairs begin in `pairs`, and its UID (-1 for `$top`).
    var open: [(start: Int, uid: Int)] = [(0, -1)]
    /// The class description UID of each class name, by the name's object table reference.
    var classUIDs = ScalarMap()
    /// The objects encoded, by identity: indexes into `encoded`.
    var objectIndex = RefMap()
    /// The identity and UID of each object encoded, in order.
    var encoded: [(identity: UInt64, uid: Int)] = []
    /// The UID of the empty NSArray, stored once like Foundation does.
    var emptyArrayUID = -1
    /// UIDs being collected for arrays, innermost last.
    var scratch: [Int32] = []
    /// The last class used and its description's UID.
    var lastClass: (name: String, uid: Int) = ("", -1)
    /// The object table reference of recently used keys.
    var keyRefs = RecentKeys(slots: 128)
    /// Answers whether the innermost open object holds a key (`holds(key:)`).
    var heldKeys = HeldKeys()
    /// The first date written that no reader takes (`ArchiveLimits.dateProblem`), if any.
    var unreadableDate: Double?
    let classKey: Int32
    let objectsKey: Int32

    init(capacity: Int) {
        table = ObjectTable(capacity: capacity)
        if capacity > 0 {
            objectIndex = RefMap(capacity: capacity)
            encoded.reserveCapacity(capacity)
        }
        // In a typical archive each object brings a few strings with it, each an item of $objects
        // (the table reserves for that).
        let null = table.string("$null")
        table.objects.append(null)
        classKey = table.string("$class")
        objectsKey = table.string("NS.objects")
    }

    /// Adds a key and a value reference to the innermost open object.
    @inline(__always)
    mutating func put(_ key: String, _ value: Int32) {
        pairs.append(keyRef(key))
        pairs.append(value)
    }

    /// Adds a key given by its reference (`keyRef`) and a value reference.
    @inline(__always)
    mutating func put(ref key: Int32, _ value: Int32) {
        pairs.append(key)
        pairs.append(value)
    }

    /// Whether the innermost open object holds the key of reference `key` (`keyRef`) already.
    @inline(__always)
    mutating func holds(key: Int32) -> Bool {
        let (start, uid) = open[open.count - 1]
        return heldKeys.contains(key, in: pairs, start: start, object: uid)
    }

    /// The object table reference of a key (escaped if it begins with `$`).
    @inline(__always)
    mutating func keyRef(_ key: String) -> Int32 {
        let (cached, slot) = keyRefs.find(key)
        if cached >= 0 { return Int32(truncatingIfNeeded: cached) }
        let ref = key.utf8.first == 0x24 ? table.string("$" + key) : table.string(key)
        keyRefs.store(key, Int(ref), at: slot)
        return ref
    }

    @inline(__always)
    mutating func putUID(_ key: String, _ uid: Int) {
        let ref = table.uid(UInt64(uid))
        put(key, ref)
    }

    @inline(__always)
    mutating func putString(_ key: String, _ value: String) {
        let u = stringUID(value)
        putUID(key, u)
    }

    mutating func put(_ key: String, _ value: ArchiveValue) {
        switch value {
        case .bool(let b): put(key, table.bool(b))
        case .int(let i): put(key, table.int(i))
        case .uint(let u): put(key, table.uint(u))
        case .double(let d): put(key, table.double(d))
        default: putUID(key, uid(of: value))
        }
    }

    /// An NSArray of the objects whose UIDs are `scratch[start...]`, under `key`.
    mutating func putArray(_ key: String, scratchFrom start: Int) {
        let isEmpty = scratch.count == start
        if isEmpty, emptyArrayUID >= 0 { return putUID(key, emptyArrayUID) }
        let arrayUID = beginObject(className: "NSArray", classes: ["NSArray", "NSObject"])
        for i in start ..< scratch.count { scratch[i] = table.uid(UInt64(scratch[i])) }
        pairs.append(objectsKey)
        pairs.append(table.array(scratch[start...]))
        scratch.removeSubrange(start...)
        endObject()
        if isEmpty { emptyArrayUID = arrayUID }
        putUID(key, arrayUID)
    }

    /// Gives a UID to the object of an identity whose slot in `objectIndex` was found empty, to
    /// be opened later by `beginObject(reserved:classUID:)`.
    mutating func reserveObject(identity: UInt64, slot: Int, tag: UInt32) -> Int {
        let objectUID = table.objects.count
        table.objects.append(-1)
        objectIndex.insert(Int32(truncatingIfNeeded: encoded.count), tag: tag, at: slot)
        encoded.append((identity, objectUID))
        return objectUID
    }

    /// Opens an object whose UID `reserveObject` gave.
    @inline(__always)
    mutating func beginObject(reserved objectUID: Int, classUID classDescription: Int) {
        open.append((pairs.count, objectUID))
        pairs.append(classKey)
        pairs.append(table.uid(UInt64(classDescription)))
    }

    /// The UID of an object already encoded (-1 if none), its slot in `objectIndex` and tag.
    /// Mutating, so that the caller's access modifies in place rather than copying the writer.
    @inline(__always)
    mutating func findObject(_ identity: UInt64) -> (uid: Int, slot: Int, tag: UInt32) {
        let (found, slot, tag) = objectIndex.find(hash: RefMap.hash(identity)) { encoded[Int($0)].identity == identity }
        return (found >= 0 ? encoded[Int(found)].uid : -1, slot, tag)
    }

    /// Opens an object: reserves its UID and starts collecting its pairs with its `$class`
    /// (`classes` is needed only the first time a class is met).
    mutating func beginObject(className: String, classes: [String]) -> Int {
        beginObject(classUID: classUID(className, classes))
    }

    /// Opens an object whose class description is `classDescription`'s UID.
    @inline(__always)
    mutating func beginObject(classUID classDescription: Int) -> Int {
        let objectUID = table.objects.count
        table.objects.append(-1)
        beginObject(reserved: objectUID, classUID: classDescription)
        return objectUID
    }

    /// Closes the innermost object: its pairs become a dictionary in `$objects`.
    mutating func endObject() {
        let (start, objectUID) = open.removeLast()
        let ref = table.dictionary(interleaved: pairs[start...])
        table.objects[objectUID] = ref
        pairs.removeSubrange(start...)
    }

    mutating func classUID(_ name: String, _ classes: [String]) -> Int {
        if lastClass.uid >= 0, sameUTF8(lastClass.name, name) { return lastClass.uid }
        let u = describeClass(name, classes)
        lastClass = (name, u)
        return u
    }

    private mutating func describeClass(_ name: String, _ classes: [String]) -> Int {
        let nameRef = table.string(name)
        let (found, slot) = classUIDs.find(UInt64(nameRef))
        if found >= 0 { return Int(found) }
        let names = (classes.isEmpty ? [name, "NSObject"] : classes).map { table.string($0) }
        let classesRef = table.array(names)
        let description = table.dictionary(interleaved: [
            table.string("$classname"), nameRef, table.string("$classes"), classesRef,
        ][...])
        table.objects.append(description)
        classUIDs.insert(UInt64(nameRef), Int32(table.objects.count - 1), at: slot)
        return table.objects.count - 1
    }

    @inline(__always)
    mutating func stringUID(_ value: String) -> Int { table.stringUID(value) }

    mutating func dataUID(_ bytes: [UInt8]) -> Int {
        let ref = table.data(bytes)
        table.objects.append(ref)
        return table.objects.count - 1
    }

    /// The UID of a non-inline Foundation value, written in Foundation's encoding.
    mutating func uid(of value: ArchiveValue) -> Int {
        switch value {
        case .null: return 0
        case .bool(let b): return number(table.bool(b))
        case .int(let i): return number(table.int(i))
        case .uint(let u): return number(table.uint(u))
        case .double(let d): return number(table.double(d))
        case .string(let s): return stringUID(s)
        case .data(let bytes): return dataUID(bytes)
        case .date(let t):
            if unreadableDate == nil, !ArchiveLimits.admitsDate(t) { unreadableDate = t }
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
            IndexPathCoding.encode(indexes, into: &self)
            endObject()
            return u
        case .indexSet(let ranges):
            let u = beginObject(className: "NSIndexSet", classes: ["NSIndexSet", "NSObject"])
            IndexSetCoding.encode(ranges, into: &self)
            endObject()
            return u
        case .countedSet(let items):
            let itemUIDs = items.map { table.uid(UInt64(uid(of: $0.value))) }
            let u = beginObject(className: "NSCountedSet", classes: ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"])
            pairs.append(table.string("NS.count"))
            pairs.append(table.int(Int64(items.count)))
            for (i, item) in items.enumerated() {
                pairs.append(table.string("NS.object\(i)"))
                pairs.append(itemUIDs[i])
                pairs.append(table.string("NS.count\(i)"))
                pairs.append(table.int(Int64(item.count)))
            }
            endObject()
            return u
        case .array(let items), .set(let items):
            let itemUIDs = items.map { table.uid(UInt64(uid(of: $0))) }
            let isSet: Bool
            if case .set = value { isSet = true } else { isSet = false }
            let u = isSet
                ? beginObject(className: "NSSet", classes: ["NSSet", "NSObject"])
                : beginObject(className: "NSArray", classes: ["NSArray", "NSObject"])
            pairs.append(objectsKey)
            pairs.append(table.array(itemUIDs))
            endObject()
            return u
        case .dictionary(let entries):
            let keyUIDs = entries.map { table.uid(UInt64(uid(of: $0.key))) }
            let valueUIDs = entries.map { table.uid(UInt64(uid(of: $0.value))) }
            let u = beginObject(className: "NSDictionary", classes: ["NSDictionary", "NSObject"])
            pairs.append(table.string("NS.keys"))
            pairs.append(table.array(keyUIDs))
            pairs.append(objectsKey)
            pairs.append(table.array(valueUIDs))
            endObject()
            return u
        }
    }

    /// A number standing alone in `$objects` (an NSNumber inside a collection).
    private mutating func number(_ ref: Int32) -> Int {
        table.objects.append(ref)
        return table.objects.count - 1
    }

    /// The archive's bytes: `$top` from the pairs left, then the root dictionary.
    /// Writes the top level and returns the file.
    /// - Throws: `.limitExceeded` when the property list would hold more than `maxObjects`
    ///   objects: all of them, keys, numbers and class descriptions included, which is what the
    ///   reader counts (`ArchiveLimits.maxObjects`), not only the items of `$objects`.
    mutating func finish(maxObjects: Int) throws(ArchiveError) -> [UInt8] {
        let topDict = table.dictionary(interleaved: pairs[...])
        let objectsRef = table.array(table.objects)
        let root = table.dictionary(interleaved: [
            table.string("$version"), table.int(100000),
            table.string("$archiver"), table.string("NSKeyedArchiver"),
            table.string("$top"), topDict,
            table.string("$objects"), objectsRef,
        ][...])
        guard table.count <= maxObjects else {
            throw ArchiveError(.limitExceeded, "the archive would hold \(table.count) objects; the limit is \(maxObjects)")
        }
        return table.finish(top: root)
    }
}

/// The archiver's state on its hot path: the archive written so far and the objects still to
/// encode. Each is one stored property, so that a call makes one access to it, and Swift's
/// run-time exclusivity checks are off for both: the archiver is used by one thread at a time,
/// no access to either outlives the call that makes it, and what the checks cost is in
/// BENCHMARKS.md.
final class ArchiverState {
    /// Everything the archive holds so far.
    @exclusivity(unchecked) var w: ArchiveWriter
    /// The objects met and not encoded yet, the next one last (see `KeyedArchiver.drain`).
    @exclusivity(unchecked) var pending: [KeyedArchiver.Pending] = []

    init(_ writer: ArchiveWriter) { w = writer }
}
