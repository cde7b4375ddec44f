import AmberArchive

extension Engine {
    /// Preserves the state (SPEC R2–R8).
    ///
    /// 1. Should-save, with the application coder (it may write into it); false or none: nothing
    ///    is written and the result says `saved: false`.
    /// 2. Will-encode, with the same coder; the engine adds bundle version, interface idiom,
    ///    timestamp and system version.
    /// 3. The walk from each root, in order: an object is preserved only if it and every
    ///    ancestor have a restoration identifier (SPEC R2); in a controller, its views, then its
    ///    children in order, then its presented controller. A second object with a path already
    ///    taken is not preserved, nor anything under it, and is listed in `duplicates`. Plain
    ///    objects are preserved only when referenced (SPEC R4).
    /// 4. Each preserved object's encode callback, in walk order, each with its own coder;
    ///    objects they reference are recorded after, and encoded in turn.
    /// 5. One keyed archive (`ArchiveLayout`), with the snapshot attached (SPEC R21), sealed by
    ///    the envelope, written by the store.
    ///
    /// - Throws: `.misuse` if called while the engine preserves or restores; an error thrown by
    ///   a host callback, unchanged; `AmberError` from the codec, envelope or store. Nothing is
    ///   written when it throws: the previous archive stays.
    @discardableResult
    public func preserve() throws -> PreservationResult {
        guard activity == .idle else {
            throw AmberError(.misuse, "preserve() was called while the engine is \(activity.rawValue)")
        }
        activity = .preserving
        defer { activity = .idle }

        // The archiver (its object table) and the pass are gone once the bytes exist: at a
        // million objects the table is several times the archive, and sealing makes two more
        // copies of the archive.
        guard var archive = try encodeArchive() else { return PreservationResult(saved: false) }
        do {
            let sealed = try configuration.envelope.seal(archive.bytes)
            archive.bytes = []
            try store.write(sealed)
            snapshots.didWrite()
            if waitingForExtensions { restoredArchiveSuperseded = true }
            return PreservationResult(saved: true, objectCount: archive.objectCount, byteCount: sealed.count, duplicates: archive.duplicates)
        } catch let e as ArchiveError {
            throw AmberError(e)
        }
    }

    /// Steps 1–4 of `preserve()`: the archive's bytes, or nil if should-save declined.
    private func encodeArchive() throws -> (bytes: [UInt8], objectCount: Int, duplicates: [[String]])? {
        let archiver = KeyedArchiver(registry: codingClasses)
        archiver.encode(ArchiveLayout.formatVersion, forKey: ArchiveLayout.formatKey)
        var save = false
        try archiver.encodeObject(forKey: ArchiveLayout.appKey, className: ArchiveLayout.appClass) { a in
            let coder = AppCoder(archiver: a)
            defer { coder.core.isActive = false }
            save = delegate.shouldSave?(coder) ?? false
            guard save else { return }
            try delegate.willEncode?(coder)
            a.encode(configuration.bundleVersion, forKey: ArchiveLayout.bundleVersion)
            a.encode(configuration.interfaceIdiom, forKey: ArchiveLayout.interfaceIdiom)
            a.encode(date: FileSystem.now(), forKey: ArchiveLayout.timestamp)
            a.encode(configuration.systemVersion ?? FileSystem.systemRelease(), forKey: ArchiveLayout.systemVersion)
        }
        guard save else { return nil }

        let pass = PreservationPass()
        // Sized for as many records as last time before the walk (which stores identifiers),
        // and again for the records found if that differs.
        let expected = lastPreservedSize.records
        sizeArchiver(archiver, records: expected)
        pass.walk(roots: roots, expected: expected, archiver: archiver)
        if pass.records.count > expected { sizeArchiver(archiver, records: pass.records.count) }
        var uids: [Int] = []
        uids.reserveCapacity(pass.records.count)
        var layout = RecordLayout()
        var spare: StateCoder?
        var i = 0
        while i < pass.records.count {
            uids.append(try encodeRecord(i, of: pass, into: archiver, &layout, &spare))
            i += 1
        }
        spare = nil
        do {
            try archiver.encode(objectUIDs: uids, forKey: ArchiveLayout.objectsKey)
            snapshots.encode(into: archiver)
            let hint = archiver.sizeHint
            let bytes = try archiver.finishEncoding()
            lastPreservedSize = (uids.count, hint)
            return (bytes, uids.count, pass.duplicates)
        } catch let e as ArchiveError {
            throw AmberError(e)
        }
    }

    /// Sizes the archiver for `records` records from the last archive preserved (scaled by the
    /// number of records), or from a typical record the first time: the width of its references
    /// is then right from the start rather than rewritten as the archive grows.
    private func sizeArchiver(_ archiver: KeyedArchiver, records: Int) {
        let last = lastPreservedSize
        if last.records > 0, let hint = last.hint {
            archiver.reserveCapacity(hint, scaledFrom: last.records, to: records)
        } else if records > 0 {
            // A record is its dictionary, its state's, its identifier, UIDs, and a few values.
            archiver.reserveCapacity(entries: records * 8)
        }
    }

    /// The record layout's keys and classes, prepared the first time each is used (so that the
    /// archive holds only those used, in the order they are first used).
    private struct RecordLayout {
        var recordClass: KeyedArchiver.ObjectClass?
        var stateClass: KeyedArchiver.ObjectClass?
        var className: KeyedArchiver.Key?
        var kind: KeyedArchiver.Key?
        var identifier: KeyedArchiver.Key?
        var parent: KeyedArchiver.Key?
        var relation: KeyedArchiver.Key?
        var state: KeyedArchiver.Key?
        var restorationClass: KeyedArchiver.Key?
        /// Class names and restoration class names met so far, with their UIDs in the archive:
        /// records repeat a few of them, and comparing a string with a few others costs less
        /// than the archiver's hashing of it (at most 16 kept; others go to the archiver).
        var names: [String] = []
        var nameUIDs: [Int] = []

        /// The UID of `name` in `archiver`, stored there the first time.
        @inline(__always)
        mutating func nameUID(_ name: String, in archiver: KeyedArchiver) -> Int {
            let n = name.utf8.count
            var i = 0
            while i < names.count {
                if names[i].utf8.count == n, names[i] == name { return nameUIDs[i] }
                i += 1
            }
            let uid = archiver.stringUID(name)
            if names.count < 16 {
                names.append(name)
                nameUIDs.append(uid)
            }
            return uid
        }
    }

    /// Encodes record `i` of the pass as a detached `AmberObjectRecord`; returns its UID.
    /// `spare` is a coder that nothing else holds any more, reused for the next object's state.
    private func encodeRecord(
        _ i: Int, of pass: PreservationPass, into archiver: KeyedArchiver, _ layout: inout RecordLayout,
        _ spare: inout StateCoder?
    ) throws -> Int {
        typealias L = ArchiveLayout
        @inline(__always)
        func prepared(_ key: inout KeyedArchiver.Key?, _ name: String) -> KeyedArchiver.Key {
            if let key { return key }
            let k = archiver.key(name)
            key = k
            return k
        }
        @inline(__always)
        func prepared(_ cls: inout KeyedArchiver.ObjectClass?, _ name: String) -> KeyedArchiver.ObjectClass {
            if let cls { return cls }
            let c = archiver.objectClass(name)
            cls = c
            return c
        }
        guard let object = pass.takeObject(i) else {
            throw AmberError(.misuse, "record \(i) of the preservation was encoded twice")
        }
        return try archiver.encodeDetachedObject(class: prepared(&layout.recordClass, L.recordClass)) { a in
            a.encode(stringUID: layout.nameUID(object.className, in: a), forKey: prepared(&layout.className, L.className))
            if object.kind != L.usualKind { a.encode(Int64(object.kind.rawValue), forKey: prepared(&layout.kind, L.kind)) }
            let identifierUID = pass.records[i].identifierUID
            if identifierUID >= 0 {
                a.encode(stringUID: identifierUID, forKey: prepared(&layout.identifier, L.identifier))
            } else {
                a.encode(pass.identifier(ofRecord: i), forKey: prepared(&layout.identifier, L.identifier))
            }
            let occurrence = pass.records[i].occurrence
            if occurrence > 0 { a.encode(Int64(occurrence), forKey: L.position) }
            let parent = pass.records[i].parent
            if parent >= 0 { a.encode(Int64(parent), forKey: prepared(&layout.parent, L.parent)) }
            let relation = pass.records[i].relation
            if relation != L.usualRelation(hasParent: parent >= 0) {
                a.encode(Int64(relation.rawValue), forKey: prepared(&layout.relation, L.relation))
            }
            if let path = pass.records[i].path { a.encode(.array(path.map { .string($0) }), forKey: L.path) }
            if pass.records[i].isRoot { a.encode(true, forKey: L.root) }
            if let rc = object.restorationClassName {
                a.encode(stringUID: layout.nameUID(rc, in: a), forKey: prepared(&layout.restorationClass, L.restorationClass))
            }
            if let bp = object.blueprintIdentifier { a.encode(bp, forKey: L.blueprint) }
            try a.encodeObject(forKey: prepared(&layout.state, L.state), class: prepared(&layout.stateClass, L.stateClass)) { s in
                if let encode = object.callbacks.encode {
                    var coder: StateCoder
                    if let reused = spare {
                        spare = nil
                        reused.reuse(record: i, object: object)
                        coder = reused
                    } else {
                        coder = StateCoder(archiver: s, pass: pass, record: i, object: object)
                    }
                    do { try encode(object, coder) } catch {
                        coder.core.isActive = false
                        throw error
                    }
                    coder.core.isActive = false
                    // Reused only if the callback kept no reference to it (a coder used after
                    // its callback must still throw).
                    if isKnownUniquelyReferenced(&coder) { spare = coder }
                }
                // A view's standard state, under reserved keys beside the host's (SPEC R17, R18).
                try ViewStateArchive.encode(object, into: s)
            }
        }
    }
}
