import AmberArchive

/// A restoration archive read and checked (`ArchiveLayout`), and the objects restored for its
/// records. Every record is read and checked before any host callback runs, so a damaged
/// archive is rejected whole, before anything is created.
final class RestoreSession {
    /// One archived object.
    struct Record {
        let stateUID: Int
        let className: String
        let kind: ObjectKind
        let identifier: String
        let parent: Int
        let relation: ObjectRelation
        let isRoot: Bool
        let restorationClassName: String?
        /// The archive's string object that holds `restorationClassName` (0: none). Records
        /// that name one class refer to one string object, so the class is found again by this
        /// number rather than by hashing its name (`NamedClasses`).
        let restorationClassUID: Int
        let blueprintIdentifier: String?
        /// Its stack position (SPEC R3).
        let position: Int
        /// For a record without parent: the record of its nearest recorded ancestor, or -1. The
        /// record is under it as a child is under its parent (SPEC R10).
        let ancestor: Int
        /// Whether its state was left out at preservation (its encode callback, or one above
        /// it, failed; SPEC R28): it is not looked up.
        let isOmitted: Bool
        /// For a record omitted because it was over the budget per object (SPEC R31), the bytes
        /// it took; nil otherwise.
        let omittedOverBudget: Int?
        /// The version of its state (SPEC R30): 1 when the archive records none.
        let version: Int

        /// The record it is under: its parent, or its recorded ancestor (-1: none).
        var above: Int { parent >= 0 ? parent : ancestor }
    }

    let unarchiver: KeyedUnarchiver
    let app: AppDecoder
    /// The archive's format (`ArchiveLayout.readableFormats`).
    let format: Int64
    /// A random id of this restore, for callers that keep something per record from one
    /// callback to the next (`StateDecoder.restorationID`).
    let id = UInt64.random(in: 1 ... UInt64.max)
    private(set) var records: [Record] = []
    /// The records' restoration paths, as parent links and components: a path is made when
    /// asked for (`path(ofRecord:)`), not kept per record.
    let paths = RecordPaths()
    /// The depth of each record's path (1 for a root), while reading.
    private var depths: [Int32] = []
    /// The object restored (or found, for a class mismatch) for each record.
    var objects: [RestorableObject?] = []
    /// The engine's class relation when restoration began, for secure decoding of references
    /// (`StateDecoder.decodeReference(forKey:ofClasses:)`).
    var hierarchy = ClassHierarchy()
    /// The states migrated at this restoration (SPEC R30), by record: each in an archive of its
    /// own (the unarchiver and the state's UID), read in place of the archived state.
    private var migratedStates: [Int: (unarchiver: KeyedUnarchiver, uid: Int)] = [:]
    /// A decoder whose callback is over and that nothing else holds, for the next record
    /// (`decoder(record:)`, `finish(_:)`). It holds the session: `endDecoding()` lets it go.
    private var spareDecoder: StateDecoder?

    /// Reads an archive.
    /// - Throws: `.corrupt` (or `.limitExceeded`) naming what is wrong.
    init(bytes: [UInt8], limits: ArchiveLimits, registry: ArchiveClassRegistry) throws(AmberError) {
        typealias L = ArchiveLayout
        do {
            unarchiver = try KeyedUnarchiver(bytes: bytes, limits: limits, registry: registry)
        } catch {
            throw AmberError(error)
        }
        unarchiver.requiresSecureCoding = true
        let u = unarchiver
        do {
            let format = try u.decodeInt64(forKey: L.formatKey)
            guard L.readableFormats.contains(format) else {
                throw AmberError(.corrupt, "the archive's format is \(format); this engine reads formats \(L.readableFormats.lowerBound) to \(L.readableFormats.upperBound)")
            }
            self.format = format
            guard let appUID = try u.objectUID(forKey: L.appKey) else {
                throw AmberError(.corrupt, "the archive's application state is null")
            }
            try u.withObject(uid: appUID) { _, className in
                guard className == L.appClass else {
                    throw AmberError(.corrupt, "the archive's application state is of class \(className), not \(L.appClass)")
                }
            }
            app = AppDecoder(unarchiver: u, uid: appUID)
            // Read one at a time, so that a record listed twice is refused at its second
            // listing, before anything is allocated for the rest of the list.
            let recordUIDs = try u.objectUIDList(forKey: L.objectsKey)
            records.reserveCapacity(recordUIDs.count)
            paths.reserveCapacity(recordUIDs.count)
            depths.reserveCapacity(recordUIDs.count)
            // A record is an object of its own: one met twice would make every use of it a new
            // record, so that a small archive could name one record millions of times.
            var met = [Bool](repeating: false, count: u.archive.objectCount)
            for index in 0 ..< recordUIDs.count {
                let uid = try recordUIDs.uid(at: index)
                guard uid >= 0, uid < met.count, !met[uid] else {
                    throw AmberError(.corrupt, "object record \(index) is object \(uid), which the archive lists as a record twice")
                }
                met[uid] = true
                let record = try readRecord(index, uid)
                // The depth of its path: records nested deeper than the reader's limit are refused,
                // as preservation leaves them out (one table of limits serves both directions).
                let depth = record.parent >= 0 ? depths[record.parent] + 1 : Int32(truncatingIfNeeded: paths.components(index).count)
                guard depth <= limits.maxDepth else {
                    throw AmberError(.limitExceeded, "object record \(index) is \(depth) levels deep; the limit is \(limits.maxDepth)")
                }
                depths.append(depth)
                records.append(record)
            }
        } catch {
            let e = AmberError.wrapping(error)
            throw e.code == .notFound || e.code == .typeMismatch ? AmberError(.corrupt, e.message) : e
        }
        objects = [RestorableObject?](repeating: nil, count: records.count)
    }

    /// Runs a delegate callback (should-restore, did-decode) with the application decoder:
    /// active, and able to read references to this restore's objects (SPEC R4) while `body`
    /// runs, and holding the session only then (the session holds it).
    func withApplicationDecoder<T>(_ body: (AppDecoder) throws -> T) rethrows -> T {
        app.core.session = self
        app.core.isActive = true
        defer {
            app.core.isActive = false
            app.core.session = nil
        }
        return try body(app)
    }

    /// The keys of a record, read in one pass over each record's entries.
    private enum K {
        static let className = 0, kind = 1, identifier = 2, position = 3, parent = 4, relation = 5
        static let path = 6, root = 7, restorationClass = 8, blueprint = 9, state = 10
        static let pathPositions = 11, ancestor = 12, omitted = 13, version = 14, overBudget = 15
    }
    private let recordKeys: KeyedUnarchiver.KeySet = {
        typealias L = ArchiveLayout
        return KeyedUnarchiver.KeySet([
            L.className, L.kind, L.identifier, L.position, L.parent, L.relation,
            L.path, L.root, L.restorationClass, L.blueprint, L.state,
            L.pathPositions, L.ancestor, L.omitted, L.version, L.overBudget,
        ])
    }()

    private func readRecord(_ index: Int, _ uid: Int) throws -> Record {
        typealias L = ArchiveLayout
        let f = recordKeys
        return try unarchiver.withObject(uid: uid) { r, className in
            func bad(_ what: String) -> AmberError {
                AmberError(.corrupt, "object record \(index) \(what)")
            }
            // One pass over the record's entries finds every key (no string is made for a key,
            // and an absent optional key costs no error): `f[k]` is the value under key k.
            r.readFields(f)
            func required(_ k: Int) throws(ArchiveError) -> KeyedUnarchiver.Field {
                guard let v = f[k] else { throw ArchiveError(.keyNotFound, "no value for key '\(f.names[k])'\(r.currentObjectUID.map { " in object \($0)" } ?? " at the top level")") }
                return v
            }
            func optionalString(_ k: Int) throws(ArchiveError) -> String? {
                guard let v = f[k] else { return nil }
                return try r.decodeString(v, forKey: f.names[k])
            }
            func optionalInt(_ k: Int) throws(ArchiveError) -> Int64? {
                guard let v = f[k] else { return nil }
                return try r.decodeInt64(v, forKey: f.names[k])
            }
            guard className == L.recordClass else { throw bad("is of class \(className), not \(L.recordClass)") }
            let objectClass = try r.decodeString(try required(K.className), forKey: L.className)
            // Format 2 leaves the usual kind and relation out; format 1 always wrote them.
            let usualOmitted = format >= 2
            let kindRaw = usualOmitted && f[K.kind] == nil
                ? Int64(L.usualKind.rawValue) : try r.decodeInt64(try required(K.kind), forKey: L.kind)
            guard let kindByte = UInt8(exactly: kindRaw), let kind = ObjectKind(rawValue: kindByte) else {
                throw bad("has an unknown kind")
            }
            let identifier = try r.decodeString(try required(K.identifier), forKey: L.identifier)
            guard !identifier.isEmpty else { throw bad("has an empty identifier") }
            let position = try optionalInt(K.position) ?? 0
            guard position >= 0, position <= Int64(Int32.max) else { throw bad("has a stack position out of range") }
            let parent = try optionalInt(K.parent) ?? -1
            guard parent >= -1, parent < Int64(index) else {
                throw bad("names record \(parent) as its parent; a parent comes before its children")
            }
            let relationRaw = usualOmitted && f[K.relation] == nil
                ? Int64(L.usualRelation(hasParent: parent >= 0).rawValue)
                : try r.decodeInt64(try required(K.relation), forKey: L.relation)
            guard let relationByte = UInt8(exactly: relationRaw), let relation = ObjectRelation(rawValue: relationByte)
            else { throw bad("has an unknown relation") }
            let isRoot = try f[K.root].map { v throws(ArchiveError) in try r.decodeBool(v, forKey: L.root) } ?? false
            let isOmitted = try f[K.omitted].map { v throws(ArchiveError) in try r.decodeBool(v, forKey: L.omitted) } ?? false
            let component = PathComponent(identifier, position: Int(position))
            var ancestor: Int64 = -1
            if parent >= 0 {
                paths.append(parent: Int(parent), component: component)
            } else {
                paths.append(root: try readPath(f, r, component, bad))
                ancestor = try optionalInt(K.ancestor) ?? -1
                guard ancestor >= -1, ancestor < Int64(index) else {
                    throw bad("names record \(ancestor) as its ancestor; an ancestor comes before the records under it")
                }
            }
            let overBudget = try optionalInt(K.overBudget)
            guard overBudget.map({ $0 >= 0 && $0 <= Int64(Int32.max) }) ?? true else { throw bad("has an over-budget size out of range") }
            let version = try optionalInt(K.version) ?? 1
            guard version >= 1, version <= Int64(UInt32.max) else { throw bad("has a state version out of range (\(version))") }
            let stateUID = try r.objectUID(try required(K.state), forKey: L.state) ?? 0
            try r.withObject(uid: stateUID) { _, stateClass in
                guard stateClass == L.stateClass else { throw bad("has a state of class \(stateClass), not \(L.stateClass)") }
            }
            let restorationClass = try f[K.restorationClass].map { v throws(ArchiveError) in
                (name: try r.decodeString(v, forKey: L.restorationClass), uid: try r.objectUID(v, forKey: L.restorationClass) ?? 0)
            }
            return Record(
                stateUID: stateUID, className: objectClass, kind: kind, identifier: identifier, parent: Int(parent),
                relation: relation, isRoot: isRoot,
                restorationClassName: restorationClass?.name, restorationClassUID: restorationClass?.uid ?? 0,
                blueprintIdentifier: try optionalString(K.blueprint), position: Int(position), ancestor: Int(ancestor),
                isOmitted: isOmitted, omittedOverBudget: isOmitted ? overBudget.map { Int($0) } : nil, version: Int(version))
        }
    }

    /// The whole path of a record without parent, ending with `component`, its own. Format 3
    /// stores the identifiers and, if any is not 0, their stack positions beside them; earlier
    /// formats spelled a position k ≥ 1 into the last component as `id#k`, and had no other.
    private func readPath(
        _ f: KeyedUnarchiver.KeySet, _ r: KeyedUnarchiver, _ component: PathComponent, _ bad: (String) -> AmberError
    ) throws -> [PathComponent] {
        typealias L = ArchiveLayout
        guard let stored = f[K.path], case .array(let items) = try r.decodeValue(stored, forKey: L.path), !items.isEmpty else {
            throw bad("has no parent and no path")
        }
        var path: [PathComponent] = []
        path.reserveCapacity(items.count)
        for item in items {
            guard case .string(let s) = item, !s.isEmpty else { throw bad("has a path component that is not a non-empty string") }
            path.append(PathComponent(s))
        }
        if format >= 3 {
            if let stored = f[K.pathPositions] {
                guard case .array(let positions) = try r.decodeValue(stored, forKey: L.pathPositions), positions.count == path.count else {
                    throw bad("has path positions that do not match its path")
                }
                for (i, p) in positions.enumerated() {
                    guard case .int(let k) = p, k >= 0, k <= Int64(Int32.max) else { throw bad("has a path position out of range") }
                    path[i].position = Int(k)
                }
            }
            guard path.last == component else { throw bad("has a path that does not end with its identifier") }
        } else {
            let legacy = component.position == 0 ? component.identifier : "\(component.identifier)#\(component.position)"
            guard path.last?.identifier == legacy else { throw bad("has a path that does not end with its identifier") }
            path[path.count - 1] = component
        }
        return path
    }

    /// A record's restoration path.
    func path(ofRecord index: Int) -> [String] { paths.path(index) }

    /// A decoder of record `record` for one callback: the spare one if there is one, else a new
    /// one. `finish(_:)` ends the callback.
    func decoder(record: Int) -> StateDecoder {
        if let migrated = migratedStates[record] {
            return StateDecoder(session: self, record: record, unarchiver: migrated.unarchiver, uid: migrated.uid)
        }
        if let d = spareDecoder {
            spareDecoder = nil
            d.reuse(record: record)
            return d
        }
        return StateDecoder(session: self, record: record)
    }

    /// Ends a decoder's callback: the decoder is invalid from now on (`.misuse`), and becomes
    /// the spare if nothing but `decoder` holds it (a host that kept it keeps a dead decoder of
    /// its own record).
    func finish(_ decoder: inout StateDecoder) {
        decoder.core.isActive = false
        if spareDecoder == nil, decoder.core.unarchiver === unarchiver, isKnownUniquelyReferenced(&decoder) {
            spareDecoder = decoder
        }
    }

    /// Whether record `record`'s state was migrated (SPEC R30).
    func isMigrated(_ record: Int) -> Bool { migratedStates[record] != nil }

    /// Makes `bytes` (an archive holding one `AmberState` under `ArchiveLayout.state`) the state
    /// that record `record`'s callbacks read from now on (SPEC R30).
    /// - Throws: `.corrupt` if the bytes cannot be read back.
    func setMigratedState(_ bytes: [UInt8], record: Int, limits: ArchiveLimits, registry: ArchiveClassRegistry) throws(AmberError) {
        do {
            let u = try KeyedUnarchiver(bytes: bytes, limits: limits, registry: registry)
            u.requiresSecureCoding = true
            guard let uid = try u.objectUID(forKey: ArchiveLayout.state) else {
                throw AmberError(.corrupt, "the migrated state is null")
            }
            migratedStates[record] = (u, uid)
        } catch {
            throw AmberError.wrapping(error)
        }
    }

    /// Where record `record`'s state is read from: its migrated state (SPEC R30), else the
    /// archive's; the archive and the state's UID in it.
    func stateSource(ofRecord record: Int) -> (archive: KeyedArchive, uid: Int) {
        if let migrated = migratedStates[record] { return (migrated.unarchiver.archive, migrated.uid) }
        return (unarchiver.archive, records[record].stateUID)
    }

    /// Drops the spare decoder (which holds the session).
    func endDecoding() { spareDecoder = nil }

    /// The record whose object is `object` in this session, if any.
    func index(of object: RestorableObject) -> Int? {
        objects.firstIndex { $0 === object }
    }
}
