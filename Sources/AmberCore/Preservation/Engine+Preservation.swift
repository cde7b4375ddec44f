import AmberArchive

extension Engine {
    /// Preserves the state (SPEC R2–R8, R28).
    ///
    /// 1. Should-save, with the application coder (it may write into it); none, or false:
    ///    nothing is written, and the report says why.
    /// 2. Will-encode, with the same coder; the engine adds bundle version, interface idiom,
    ///    timestamp and system version. Both may encode references to restorable objects
    ///    (SPEC R4): the trees are then walked (step 3) before the first one is recorded.
    /// 3. The walk from each root, in order: an object is preserved only if it and every
    ///    ancestor have a restoration identifier (SPEC R2); in a controller, its views, then its
    ///    children in order, then its presented controller. A second object with a path already
    ///    taken is not preserved, nor anything under it (SPEC R3). Plain objects are preserved
    ///    only when referenced (SPEC R4).
    /// 4. Each preserved object's encode callback, in walk order, each with its own coder;
    ///    objects they reference are recorded after, and encoded in turn. An encode callback
    ///    that fails leaves its object and what is under it out: their records stay, marked
    ///    omitted and without state, and the rest is saved.
    ///    An object whose record takes more than the budget per object
    ///    (`EngineConfiguration.objectBudget`) is left out the same way (SPEC R31).
    /// 5. One keyed archive (`ArchiveLayout`), with the snapshot attached (SPEC R21), sealed by
    ///    the envelope, written by the store. An archive over its budget
    ///    (`EngineConfiguration.archiveBudget`, else the limit of SPEC R22) is not written
    ///    (SPEC R31).
    ///
    /// The report names every object preserved, with its size, and every object of the trees
    /// left out, with why (SPEC R28); the engine keeps the last one (`lastPreservation`).
    ///
    /// - Throws: `.misuse` if called while the engine preserves or restores; an error thrown by
    ///   should-save or will-encode, unchanged; `AmberError` from the codec, envelope or store;
    ///   `.limitExceeded` for an archive over its budget, whose report (`lastPreservation`)
    ///   still lists every object with its size and the largest ones. Nothing is written when
    ///   it throws: the previous archive stays.
    @discardableResult
    public func preserve() throws -> PreservationReport {
        guard activity == .idle else {
            throw AmberError(.misuse, "preserve() was called while the engine is \(activity.rawValue)")
        }
        dropUnclaimedIfDue()  // SPEC R35: the deadline is checked when the engine is called
        activity = .preserving
        defer { activity = .idle }
        let started = FileSystem.monotonicSeconds()
        let changesAtStart = autosave.changes
        let report: PreservationReport
        do {
            report = try writeArchive()
        } catch {
            notePreservation(changesAtStart: changesAtStart, completed: false)
            let e = AmberError.wrapping(error)
            lastPreservation = PreservationReport(notSaved: .failed(e.message))
            log(.warn) { "preserve: failed, the previous archive is kept: \(e.message)" }
            throw error
        }
        lastPreservation = report
        logPreservation(report, seconds: FileSystem.monotonicSeconds() - started)
        if case .overBudget(let message) = report.notSaved {
            notePreservation(changesAtStart: changesAtStart, completed: false)
            throw AmberError(.limitExceeded, "the archive is over its budget, the previous archive is kept: \(message)")
        }
        notePreservation(changesAtStart: changesAtStart, completed: true)
        noteCarried(report)  // SPEC R35
        return report
    }

    /// Steps 1–5 of `preserve()`.
    private func writeArchive() throws -> PreservationReport {
        // The archiver (its object table) and the pass are gone once the bytes exist: at a
        // million objects the table is several times the archive, and sealing makes two more
        // copies of the archive.
        var archive = try encodeArchive()
        guard archive.report.saved else { return archive.report }
        do {
            let sealed = try configuration.envelope.seal(archive.bytes)
            // The plaintext, sensitive values and all (SPEC R34). Unencrypted, it holds none, and
            // it is the very buffer being written: wiping it would copy the archive first.
            if SensitiveValues.encrypts(configuration.envelope) { FileSystem.zero(&archive.bytes) }
            archive.bytes = []
            try store.write(sealed)
            snapshots.didWrite()
            if guardMarksRestoredArchive {
                // The restored archive is replaced: its mark (consumed, or the launch count of a
                // kept archive, SPEC R32) must not discard the new one.
                try? store.removeGuard()
                guardMarksRestoredArchive = false
            }
            if waitingForExtensions {
                // A newer archive than the one restored: a death before the extensions complete
                // must not discard it at the next launch.
                restoredArchiveSuperseded = true
                try? store.removeGuard()
            }
            archive.report.byteCount = sealed.count
            return archive.report
        } catch let e as ArchiveError {
            throw AmberError(e)
        }
    }

    /// Steps 1–4 of `preserve()`: the archive's bytes and the report (without the sealed size);
    /// no bytes when nothing is to be saved.
    private func encodeArchive() throws -> (bytes: [UInt8], report: PreservationReport) {
        // The archive's size is checked against its budget here (SPEC R31), which the limit of
        // SPEC R22 bounds, so that an archive too large is reported as over its budget.
        var encodingLimits = configuration.limits
        encodingLimits.maxBytes = .max
        let archiver = KeyedArchiver(registry: codingClasses, limits: encodingLimits)
        archiver.encode(ArchiveLayout.formatVersion, forKey: ArchiveLayout.formatKey)
        let pass = PreservationPass(limits: configuration.limits, encrypts: SensitiveValues.encrypts(configuration.envelope))
        // Sized for as many records as last time before the walk (which stores identifiers),
        // and again for the records found if that differs.
        let expected = lastPreservedSize.records
        func walk() {
            guard !pass.hasWalked else { return }
            sizeArchiver(archiver, records: expected)
            pass.walk(roots: roots, expected: expected, archiver: archiver)
            if pass.records.count > expected { sizeArchiver(archiver, records: pass.records.count) }
        }
        var notSaved: PreservationReport.NotSaved?
        try archiver.encodeObject(forKey: ArchiveLayout.appKey, className: ArchiveLayout.appClass) { a in
            let coder = AppCoder(archiver: a, limits: configuration.limits, sensitive: pass.sensitive) { (target: RestorableObject) throws(AmberError) -> Int in
                walk()
                return try pass.reference(to: target)
            }
            defer { coder.core.isActive = false }
            guard let shouldSave = delegate.shouldSave else {
                notSaved = .noShouldSave
                return
            }
            guard shouldSave(coder) else {
                notSaved = .shouldSaveDeclined
                return
            }
            try delegate.willEncode?(coder)
            coder.core.recordSensitiveKeys()
            let now = FileSystem.now(), system = configuration.systemVersion ?? FileSystem.systemRelease()
            typealias L = ArchiveLayout
            for (bundleVersion, idiom, timestamp, systemVersion) in [
                (L.bundleVersion, L.interfaceIdiom, L.timestamp, L.systemVersion),
                (L.uikitBundleVersion, L.uikitInterfaceIdiom, L.uikitTimestamp, L.uikitSystemVersion),
            ] {
                a.encode(configuration.bundleVersion, forKey: bundleVersion)
                a.encode(configuration.interfaceIdiom, forKey: idiom)
                a.encode(date: now, forKey: timestamp)
                a.encode(system, forKey: systemVersion)
            }
            a.encode(configuration.appID, forKey: L.applicationID)
        }
        if let notSaved { return ([], PreservationReport(notSaved: notSaved)) }
        walk()

        var uids: [Int] = []
        uids.reserveCapacity(pass.records.count)
        let keys = RecordKeys()
        var encoding = RecordEncoding()
        if reusesCleanState { encoding.recorder = StateRecorder() }
        var i = 0
        while i < pass.records.count {
            uids.append(try encodeRecord(i, of: pass, into: archiver, keys, &encoding))
            i += 1
        }
        encoding.spare = nil
        // A key marked sensitive without encryption: nothing is written (SPEC R34).
        if let refusal = pass.sensitive.refusal { throw AmberError(.keyUnavailable, refusal) }
        // The records kept for objects created later, after the trees' (SPEC R35).
        var preserved = pass.takePreserved()
        let notCarried = carryUnclaimed(into: archiver, &preserved, &uids, encrypts: SensitiveValues.encrypts(configuration.envelope))
        var report = preservationReport(pass, PreservedRecords(preserved), notCarried: notCarried)
        let bytes: [UInt8]
        do {
            try archiver.encode(objectUIDs: uids, forKey: ArchiveLayout.objectsKey)
            snapshots.encode(into: archiver)
            let hint = archiver.sizeHint
            var finished = try archiver.finishEncoding()
            if encoding.overBudget {
                // The values of the objects over their budget are dropped from the archive.
                finished = try KeyedArchive.compacted(finished, limits: encodingLimits)
            }
            bytes = finished
            lastPreservedSize = (uids.count, hint)
        } catch {
            throw AmberError(error)
        }
        let budget = configuration.effectiveArchiveBudget
        if bytes.count > budget {
            report.notSaved = .overBudget("the archive would be \(bytes.count) bytes; its budget is \(budget) bytes")
            return ([], report)
        }
        return (bytes, report)
    }

    /// The report of a pass whose records are encoded (SPEC R28): its records in order, each
    /// preserved with its size or left out (omitted) with why, then the records kept for
    /// objects created later that it carries (SPEC R35); then those it does not carry; then the
    /// duplicates; then the other objects of the trees that were not recorded, with why.
    private func preservationReport(
        _ pass: PreservationPass, _ records: PreservedRecords, notCarried: [PreservationReport.Entry]
    ) -> PreservationReport {
        var entries = notCarried
        for d in pass.leftOut {
            entries.append(PreservationReport.Entry(path: d.path, className: d.object.className, kind: d.object.kind, leftOut: d.reason))
        }
        appendUnrecorded(pass, &entries)
        return PreservationReport(records: records, unrecorded: entries)
    }

    /// Appends an entry for each object that the pass did not record, under the places where
    /// the walk left the trees: its objects without an identifier (and the plain objects not
    /// referenced), everything under them, and everything under a duplicate. Paths are made
    /// only for the objects reported.
    private func appendUnrecorded(_ pass: PreservationPass, _ entries: inout [PreservationReport.Entry]) {
        /// An object to look at, with what lies above it: the nearest ancestor without an
        /// identifier and the nearest left out, described.
        struct Visit {
            let object: RestorableObject
            let unidentified: String?
            let leftOutAbove: String?
            /// Levels below where this walk started.
            var depth = 0
        }
        var stack: [Visit] = []
        /// Puts what hangs from `o` on the stack, to come off in walk order.
        func push(under o: RestorableObject, _ unidentified: String?, _ leftOutAbove: String?, depth: Int) {
            func visit(_ c: RestorableObject) -> Visit {
                Visit(object: c, unidentified: unidentified, leftOutAbove: leftOutAbove, depth: depth + 1)
            }
            for w in o.plainObjects.reversed() { if let p = w.object { stack.append(visit(p)) } }
            if let p = o.presented { stack.append(visit(p)) }
            for c in o.children.reversed() { stack.append(visit(c)) }
            for c in o.views.reversed() { stack.append(visit(c)) }
        }
        for d in pass.leftOut.reversed() {
            // What is under a too deep object is counted in its reason, not listed.
            if case .tooDeep = d.reason { continue }
            push(under: d.object, nil, "\(PathComponent.describe(d.path)) (\(d.object.className))", depth: 0)
        }
        for o in pass.outside.reversed() { stack.append(Visit(object: o, unidentified: nil, leftOutAbove: nil)) }
        var visited = 0
        while let v = stack.popLast(), visited < 1 << 24 {
            visited += 1
            let o = v.object
            // Recorded by reference: the pass walked under it, and what it left out there is
            // in `outside` and `leftOut` already.
            if pass.isRecorded(o) { continue }
            var unidentified = v.unidentified
            if v.depth > pass.maxDepth {
                // As deep below where the walk left the trees as a path may be: one entry for
                // it and what is under it (a path per object would cost the square of the depth).
                entries.append(PreservationReport.Entry(
                    path: o.identifiedComponents, className: o.className, kind: o.kind,
                    leftOut: .tooDeep(limit: pass.maxDepth, below: o.dependentCount())))
                continue
            }
            let reason: PreservationReport.Reason
            if o.identifier == nil {
                reason = .noIdentifier
            } else if let a = v.unidentified {
                reason = .ancestorWithoutIdentifier(a)
            } else if let a = v.leftOutAbove {
                reason = .underLeftOut(a)
            } else {
                reason = .notReferenced
            }
            entries.append(PreservationReport.Entry(path: o.identifiedComponents, className: o.className, kind: o.kind, leftOut: reason))
            if unidentified == nil, o.identifier == nil {
                let abovePath = o.parent?.identifiedComponents ?? []
                unidentified = "\(abovePath.isEmpty ? "" : PathComponent.describe(abovePath))/(\(o.className))"
            }
            push(under: o, unidentified, v.leftOutAbove, depth: v.depth)
        }
    }

    /// Logs a preservation (SPEC R29): one line at info, and at debug each object preserved
    /// with its size and each object left out with why. An archive over its budget is a
    /// warning naming the largest objects (SPEC R31).
    private func logPreservation(_ report: PreservationReport, seconds: Double) {
        let ms = (seconds * 1000 * 100).rounded() / 100
        if case .overBudget = report.notSaved {
            log(.warn) {
                let largest = report.largest.map { "\($0.pathDescription) (\($0.className), \($0.byteCount) bytes)" }
                return "preserve: nothing saved: \(report.notSaved!); the largest objects: \(largest.joined(separator: ", "))"
            }
            return
        }
        if let notSaved = report.notSaved {
            log(.info) { "preserve: nothing saved: \(notSaved)" }
            return
        }
        log(.info) {
            let carried = report.carriedCount
            let kept = carried > 0 ? ", \(carried) kept record(s) carried" : ""
            return "preserve: saved \(report.preservedCount) objects in \(report.byteCount) bytes (\(report.count - report.preservedCount - carried) left out\(kept)) in \(ms) ms"
        }
        guard isLogging(.debug) else { return }
        for e in report.entries {
            if e.leftOut == .carried {
                log(.debug) { "preserve: carried \(e.pathDescription) (\(e.className), \(e.kind)), kept for an object created later: \(e.byteCount) bytes" }
            } else if let reason = e.leftOut {
                log(.debug) { "preserve: left out \(e.pathDescription) (\(e.className), \(e.kind)): \(reason)" }
            } else {
                log(.debug) { "preserve: preserved \(e.pathDescription) (\(e.className), \(e.kind)): \(e.byteCount) bytes" }
            }
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

    /// The record layout's keys every record writes, made once per preservation. Apart from
    /// `RecordEncoding`, and given to `encodeRecord` as a constant: read from the `inout`
    /// encoding, each key was retained and released around every write that named it.
    private struct RecordKeys {
        let className = ArchiveKey(ArchiveLayout.className)
        let kind = ArchiveKey(ArchiveLayout.kind)
        let identifier = ArchiveKey(ArchiveLayout.identifier)
        let parent = ArchiveKey(ArchiveLayout.parent)
        let relation = ArchiveKey(ArchiveLayout.relation)
        let state = ArchiveKey(ArchiveLayout.state)
        let restorationClass = ArchiveKey(ArchiveLayout.restorationClass)
    }

    /// What encoding a pass's records carries from one record to the next: the record layout's
    /// classes, stored in the archive the first time each is used (so that the archive holds
    /// only those used, in the order they are first used); and a spare coder.
    private struct RecordEncoding {
        var recordClass: KeyedArchiver.ObjectClass?
        var stateClass: KeyedArchiver.ObjectClass?
        /// The UIDs of the class names the records name.
        var classNames = ClassNameUIDs()
        /// A coder that nothing else holds any more, reused for the next object's state.
        var spare: StateCoder?
        /// Collects each state written, when clean objects' states are reused (SPEC R32).
        var recorder: StateRecorder?
        /// Whether a record's state was taken back for its budget (SPEC R31): the values it
        /// wrote are then left in the archive, unreferenced, until it is compacted.
        var overBudget = false
    }

    /// Encodes record `i` of the pass as a detached `AmberObjectRecord`; returns its UID.
    ///
    /// A record under one whose state was left out is omitted without calling its encode
    /// callback; a record whose encode callback (or view state) fails is omitted, the entries
    /// written so far into its state taken back. An omitted record keeps its place (references
    /// and parents name records by index), with an empty state and `omitted`.
    private func encodeRecord(
        _ i: Int, of pass: PreservationPass, into archiver: KeyedArchiver, _ keys: RecordKeys, _ e: inout RecordEncoding
    ) throws -> Int {
        typealias L = ArchiveLayout
        func prepared(_ cls: inout KeyedArchiver.ObjectClass?, _ name: String) -> KeyedArchiver.ObjectClass {
            if let cls { return cls }
            let c = archiver.objectClass(name)
            cls = c
            return c
        }
        guard let object = pass.takeObject(i) else {
            throw AmberError(.misuse, "record \(i) of the preservation was encoded twice")
        }
        let start = archiver.bytesWritten
        let record = pass.records[i]
        let className = pass.className(ofRecord: i)
        // Under an omitted record (its parent, or its recorded ancestor): omitted too, naming
        // the record whose encode failed.
        var omitted: PreservationReport.Reason?
        let above = pass.above(i)
        if above >= 0, !pass.preserved.omitted.isEmpty, let reason = pass.preserved.omitted[above] {
            if case .underLeftOut = reason {
                omitted = reason
            } else {
                omitted = .underLeftOut("\(PathComponent.describe(pass.components(ofRecord: above))) (\(pass.className(ofRecord: above)))")
            }
        }
        let uid = try archiver.encodeDetachedObject(class: prepared(&e.recordClass, L.recordClass)) { a in
            a.encode(stringUID: e.classNames.uid(className, in: a), forKey: keys.className)
            if object.kind != L.usualKind { a.encode(Int64(object.kind.rawValue), forKey: keys.kind) }
            if record.identifierUID >= 0 {
                a.encode(stringUID: record.identifierUID, forKey: keys.identifier)
            } else {
                a.encode(pass.identifier(ofRecord: i), forKey: keys.identifier)
            }
            let position = pass.position(ofRecord: i)
            if position > 0 { a.encode(Int64(position), forKey: L.position) }
            if record.parent >= 0 { a.encode(Int64(record.parent), forKey: keys.parent) }
            if record.relation != L.usualRelation(hasParent: record.parent >= 0) {
                a.encode(Int64(record.relation.rawValue), forKey: keys.relation)
            }
            if record.parent < 0, let path = pass.wholePath(ofRecord: i) {
                a.encode(.array(path.map { .string($0.identifier) }), forKey: L.path)
                if path.contains(where: { $0.position != 0 }) {
                    a.encode(.array(path.map { .int(Int64($0.position)) }), forKey: L.pathPositions)
                }
                if record.ancestor >= 0 { a.encode(Int64(record.ancestor), forKey: L.ancestor) }
            }
            if record.isRoot { a.encode(true, forKey: L.root) }
            if let rc = object.restorationClassName {
                a.encode(stringUID: e.classNames.uid(rc, in: a), forKey: keys.restorationClass)
            }
            if let bp = object.blueprintIdentifier { a.encode(bp, forKey: L.blueprint) }
            if !stateVersions.isEmpty, let declared = stateVersions[object.className], declared.version > 1 {
                a.encode(Int64(declared.version), forKey: L.version)
            }
            try a.encodeObject(forKey: keys.state, class: prepared(&e.stateClass, L.stateClass)) { s in
                guard omitted == nil else { return }
                let checkpoint = s.checkpoint()
                do {
                    try encodeState(of: object, record: i, pass: pass, into: s, spare: &e.spare, recorder: e.recorder)
                } catch {
                    // Its entries are taken back and the record omitted, unless the archiver
                    // cannot take them back (a coding class's object was encoded part-way):
                    // then the whole save fails.
                    guard s.rollBack(to: checkpoint) else { throw error }
                    omitted = .encodeFailed(AmberError.wrapping(error).message)
                }
                // Its size against the budget per object (SPEC R31): what the record has added
                // so far, its values and the objects its state encoded.
                if omitted == nil, let budget = configuration.objectBudget {
                    let size = archiver.bytesWritten - start
                    if size > budget {
                        guard s.rollBack(to: checkpoint) else {
                            throw AmberError(
                                .limitExceeded,
                                "'\(PathComponent.describe(pass.components(ofRecord: i)))' (\(object.className)) is \(size) bytes, over the budget of \(budget) bytes per object, and its state cannot be taken back (it encoded an object of a coding class)")
                        }
                        omitted = .overBudget(size: size, budget: budget)
                        e.overBudget = true
                    }
                }
            }
            if omitted != nil { a.encode(true, forKey: L.omitted) }
            // Restoration says why (SPEC R16, R31), rather than blaming an encode callback.
            if case .overBudget(let size, _)? = omitted { a.encode(Int64(size), forKey: L.overBudget) }
        }
        pass.complete(i, size: archiver.bytesWritten - start, omitted: omitted)
        return uid
    }

    /// Runs an object's encode callback with a coder of its own (the spare one if nothing else
    /// holds it), then writes a view's standard state beside what the callback wrote.
    ///
    /// With `recorder` (clean objects' states reused, SPEC R32): a clean object's state kept
    /// from an earlier preservation is written again without calling its callback; otherwise
    /// what the callback writes is kept for the next preservation, if it is reusable and the
    /// object was not marked dirty while it ran.
    private func encodeState(
        of object: RestorableObject, record i: Int, pass: PreservationPass, into s: KeyedArchiver, spare: inout StateCoder?,
        recorder: StateRecorder?
    ) throws {
        if let recorder, let encode = object.callbacks.encode {
            if let kept = object.stateRecording, kept.epoch == recordingEpoch {
                kept.replay(into: s)
            } else {
                object.stateRecording = nil
                recorder.reset()
                let changes = autosave.changes
                try runEncode(encode, of: object, record: i, pass: pass, into: s, spare: &spare, recorder: recorder)
                if autosave.changes == changes { object.stateRecording = recorder.recording(epoch: recordingEpoch) }
            }
        } else if let encode = object.callbacks.encode {
            try runEncode(encode, of: object, record: i, pass: pass, into: s, spare: &spare, recorder: nil)
        }
        // A view's standard state, under reserved keys beside the host's (SPEC R17, R18).
        try ViewStateArchive.encode(object, into: s)
    }

    /// Calls an object's encode callback with a coder of its own.
    private func runEncode(
        _ encode: (RestorableObject, StateCoder) throws -> Void, of object: RestorableObject, record i: Int,
        pass: PreservationPass, into s: KeyedArchiver, spare: inout StateCoder?, recorder: StateRecorder?
    ) throws {
        var coder: StateCoder
        if let reused = spare {
            spare = nil
            reused.reuse(record: i, object: object)
            coder = reused
        } else {
            coder = StateCoder(archiver: s, pass: pass, record: i, object: object)
        }
        defer {
            coder.core.isActive = false
            // Reused only if the callback kept no reference to it (a coder used after its
            // callback must still throw).
            coder.recorder = nil
            if isKnownUniquelyReferenced(&coder) { spare = coder }
        }
        coder.recorder = recorder
        try encode(object, coder)
        coder.core.recordSensitiveKeys()
    }
}
