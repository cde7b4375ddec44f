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
        pass.walk(roots: roots)
        var uids: [Int] = []
        uids.reserveCapacity(pass.records.count)
        var i = 0
        while i < pass.records.count {
            uids.append(try encodeRecord(i, of: pass, into: archiver))
            i += 1
        }
        do {
            try archiver.encode(objectUIDs: uids, forKey: ArchiveLayout.objectsKey)
            snapshots.encode(into: archiver)
            return (try archiver.finishEncoding(), uids.count, pass.duplicates)
        } catch let e as ArchiveError {
            throw AmberError(e)
        }
    }

    /// Encodes record `i` of the pass as a detached `AmberObjectRecord`; returns its UID.
    private func encodeRecord(_ i: Int, of pass: PreservationPass, into archiver: KeyedArchiver) throws -> Int {
        let record = pass.records[i]
        let object = record.object
        typealias L = ArchiveLayout
        return try archiver.encodeDetachedObject(className: L.recordClass) { a in
            a.encode(object.className, forKey: L.className)
            a.encode(Int64(object.kind.rawValue), forKey: L.kind)
            a.encode(record.identifier, forKey: L.identifier)
            if record.occurrence > 0 { a.encode(Int64(record.occurrence), forKey: L.position) }
            if record.parent >= 0 { a.encode(Int64(record.parent), forKey: L.parent) }
            a.encode(Int64(record.relation.rawValue), forKey: L.relation)
            if let path = record.path { a.encode(.array(path.map { .string($0) }), forKey: L.path) }
            if record.isRoot { a.encode(true, forKey: L.root) }
            if let rc = object.restorationClassName { a.encode(rc, forKey: L.restorationClass) }
            if let bp = object.blueprintIdentifier { a.encode(bp, forKey: L.blueprint) }
            try a.encodeObject(forKey: L.state, className: L.stateClass) { s in
                if let encode = object.callbacks.encode {
                    let coder = StateCoder(archiver: s, pass: pass, record: i, object: object)
                    defer { coder.core.isActive = false }
                    try encode(object, coder)
                }
                // A view's standard state, under reserved keys beside the host's (SPEC R17, R18).
                try ViewStateArchive.encode(object, into: s)
            }
        }
    }
}
