// Copying an object graph of one keyed archive into another as it is stored, without decoding
// it through its coding classes: the restoration engine writes a state read at launch into a
// later archive this way (SPEC R35).

extension KeyedArchiver {
    /// What `copyObject(_:from:rewrite:)` does with one instance of the graph.
    public enum CopiedInstance {
        /// Copy it with these fields (those read, or changed).
        case fields([(key: String, value: PropertyList)])
        /// Write `$null` wherever the graph refers to it.
        case null
    }

    /// Copies `$objects` item `uid` of `archive`, and every item it refers to, into this
    /// archive, and returns its UID here (0 for `$null`). Nothing is opened in this archiver:
    /// refer to the UID with `encode(stringUID:forKey:)` or list it with
    /// `encode(objectUIDs:forKey:)`. Each item is copied once, shared items stay shared and
    /// cycles stay cycles; the walk is iterative, so a deep graph does not exhaust the stack.
    ///
    /// `rewrite` sees each instance (class name and fields) when it is first met, and may
    /// change its fields or have it written as `$null`.
    /// - Throws: `.notKeyedArchive` for a UID out of range or a broken class description in
    ///   `archive`; what `rewrite` throws. The items copied so far then stay in this archive,
    ///   referred to by nothing, and it can still be finished.
    public func copyObject(
        _ uid: Int, from archive: KeyedArchive,
        rewrite: (_ className: String, _ fields: [(key: String, value: PropertyList)]) throws -> CopiedInstance = { .fields($1) }
    ) throws -> Int {
        /// The UID here of each item met, by its UID there.
        var copied: [Int: Int] = [:]
        /// Items met whose contents are not written yet: the item, and its UID here.
        var pending: [(object: KeyedArchive.Object, to: Int)] = []
        /// The UID here of item `u` there: reserved (and its contents queued) the first time
        /// it is met; 0 for `$null` and for an instance `rewrite` makes null.
        func target(_ u: Int) throws -> Int {
            if let known = copied[u] { return known }
            var object = try archive.object(u)
            if case .instance(let className, let classes, let fields) = object {
                switch try rewrite(className, fields) {
                case .null: object = .null
                case .fields(let kept): object = .instance(className: className, classes: classes, fields: kept)
                }
            }
            if case .null = object {
                copied[u] = 0
                return 0
            }
            let here = state.w.table.objects.count
            state.w.table.objects.append(-1)
            copied[u] = here
            pending.append((object, here))
            return here
        }
        /// `value` with each UID there made the UID here.
        func mapped(_ value: PropertyList) throws -> PropertyList {
            switch value {
            case .uid(let u): return .uid(UInt64(try target(try archive.checkedUID(u))))
            case .array(let items): return .array(try items.map(mapped))
            case .set(let items): return .set(try items.map(mapped))
            case .dictionary(let pairs):
                return .dictionary(try pairs.map { PropertyListPair(try mapped($0.key), try mapped($0.value)) })
            default: return value
            }
        }
        defer {
            // After a failure, the items reserved and not written hold `$null`'s string, so
            // that the archive can still be finished; nothing refers to them.
            for (_, to) in pending { state.w.table.objects[to] = state.w.table.objects[0] }
        }
        let root = try target(try archive.checkedUID(UInt64(max(uid, 0))))
        while let (object, to) = pending.popLast() {
            state.w.table.objects[to] = state.w.table.objects[0]  // until written (see `defer`)
            switch object {
            case .null:
                state.w.table.objects[to] = state.w.table.objects[0]
            case .value(let plain):
                state.w.table.objects[to] = state.w.table.add(plain)
            case .instance(let className, let classes, let fields):
                var pairs: [Int32] = [state.w.classKey, state.w.table.uid(UInt64(state.w.classUID(className, classes)))]
                pairs.reserveCapacity(2 + fields.count * 2)
                for field in fields {
                    let value = try mapped(field.value)
                    pairs.append(state.w.keyRef(field.key))
                    pairs.append(state.w.table.add(value))
                }
                state.w.table.objects[to] = state.w.table.dictionary(interleaved: pairs[...])
            }
        }
        return root
    }
}
