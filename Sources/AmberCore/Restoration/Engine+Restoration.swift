import AmberArchive

extension Engine {
    /// Restores the archive, if there is one and the host agrees (SPEC R9–R16). `launch()` calls
    /// it between will-finish-launching and did-finish-launching; call it directly to restore
    /// at another moment.
    ///
    /// 1. Reads the archive through the store; none: fresh launch (`noArchive`).
    /// 2. The launch guard (SPEC R14): if restoration started and never completed on the two
    ///    previous launches in a row, the archive is discarded without a third try (`crashLoop`).
    ///    Otherwise the guard's count goes up by one until this restoration completes; a guard
    ///    that cannot be read or written keeps the archive and restores nothing
    ///    (`launchGuardUnusable`).
    /// 3. Opens the envelope (a key that is not available keeps the archive: `keyUnavailable`),
    ///    reads and checks the whole archive (`corruptArchive`), refuses another application's
    ///    archive (`otherApplication`, SPEC R9), then asks should-restore with the application
    ///    coder (`shouldRestoreDeclined`).
    /// 4. Finds each archived object, parents first, through the lookup chain (SPEC R10):
    ///    its restoration class's make (none: this object and everything under it are not
    ///    restored, `declinedByClass`/`leftOut`); without a restoration class, the delegate's
    ///    object-for-path; then an object the host already created with the same path
    ///    (implicit lookup, among the trees of the roots as they were when restoration began);
    ///    then, for a view, a view with its identifier among the views of the controller
    ///    restored for its parent record (one the controller made while being restored); then
    ///    the blueprint factory the record's blueprint names. What none provides is
    ///    `notFound`; the objects under it are still looked up on their own. An object found is
    ///    given the archived identifier (and restoration class, blueprint) if it has none, and is
    ///    placed where its record was if it has no parent (`attachesRestoredObjects`).
    /// 5. The class check (SPEC R11): an object not of the archived class (or a registered
    ///    subclass) or kind is kept but not decoded (`classMismatch`).
    /// 6. Once every object exists, decode callbacks, parents before children (SPEC R12), each
    ///    view's followed by its standard state (SPEC R17, R18, `applyViewState`); then
    ///    finished-restoring on every restored object, then did-decode (SPEC R13).
    /// 7. Discards the archive and the launch guard, whether restoration succeeded or failed
    ///    (SPEC R14; `discardConsumedArchive`), unless the host extended restoration (SPEC R15):
    ///    then both stay until the last extension completes. A kept archive
    ///    (`keepsArchiveAfterRestore`) stays, and the guard goes.
    ///
    /// Never throws and never traps: everything that went wrong is in the report (SPEC R16).
    /// With `EngineConfiguration.reportDirectory` set, the report is also kept on disk
    /// (`keepReport(_:)`).
    public func restore() -> RestorationReport {
        keepReport(restoreWithoutKeeping())
    }

    /// Writes what is kept of a restoration's report (`KeptRestorationReport`) in
    /// `configuration.reportDirectory`, if set, replacing the previous one (SPEC R28). A call that
    /// restored nothing because a restoration is under way replaces nothing. A report that cannot
    /// be written is logged (warn) and noted in the report returned; the restoration is not
    /// affected.
    func keepReport(_ report: RestorationReport) -> RestorationReport {
        if report.freshLaunchReason != .restorationInProgress { restorationReport = report }
        guard let directory = configuration.reportDirectory, report.freshLaunchReason != .restorationInProgress else {
            return report
        }
        let seconds = Int64(FileSystem.now().rounded(.down)) + 978_307_200
        do {
            try KeptRestorationReport(report, appID: configuration.appID, written: seconds).write(toDirectory: directory)
            return report
        } catch {
            var noted = report
            let message = "the restoration report could not be kept in '\(directory)': \(error.message)"
            log(.warn) { message }
            noted.notes.append(message)
            restorationReport = noted
            return noted
        }
    }

    /// `restore()` without keeping its report.
    func restoreWithoutKeeping() -> RestorationReport {
        guard activity == .idle, !waitingForExtensions else {
            return RestorationReport(freshLaunchReason: .restorationInProgress)
        }
        // A new restoration ends the previous one's kept records (SPEC R35).
        dropUnclaimed(because: "when a new restoration began")
        claimedLate = [:]
        activity = .restoring
        defer { activity = .idle }
        restoredArchiveSuperseded = false
        let started = FileSystem.monotonicSeconds()
        let report = restoreArchive()
        logRestoration(report, seconds: FileSystem.monotonicSeconds() - started)
        return report
    }

    /// `restore()`'s steps, with the engine marked as restoring.
    private func restoreArchive() -> RestorationReport {
        var notes: [String] = []
        let stale = store.removeStaleFiles() + (configuration.keyFile?.removeStaleFiles() ?? 0)
        if stale > 0 { notes.append("removed \(stale) temporary file(s) left by a save that did not finish") }

        func discard() { discardConsumedArchive(&notes) }
        func clearGuard() { clearLaunchGuard(&notes) }
        func fresh(_ reason: FreshLaunchReason) -> RestorationReport {
            RestorationReport(freshLaunchReason: reason, notes: notes)
        }

        // 1. The archive.
        // Held only until the envelope is opened: at the peak of a restore the sealed copy
        // would be one more archive's worth of memory.
        var sealed: [UInt8]
        do {
            guard let bytes = try store.read() else {
                // The guard's mark tells a discard by the host in an earlier process.
                let marked = (try? store.readGuard()) == LaunchGuard.discardedByHost
                clearGuard()
                return fresh(discardedByHost || marked ? .discardedByHost : .noArchive)
            }
            sealed = bytes
        } catch {
            return fresh(.unreadableArchive(AmberError.wrapping(error).message))
        }

        // 2. The launch guard. Without it a crash while restoring could not be counted, nor the
        // archive's consumption recorded: the archive is not restored, and is kept (SPEC R14).
        var started = 0
        do { started = try store.readGuard() } catch {
            return fresh(.launchGuardUnusable(
                "the launch guard could not be read (\(AmberError.wrapping(error).message)); the archive is kept, not restored"))
        }
        if started == LaunchGuard.extended {
            discard()
            return fresh(.extendedRestorationUnfinished)
        }
        if started == LaunchGuard.consumed {
            notes.append("an earlier launch consumed this archive but could not remove it: it is discarded, not restored again")
            discard()
            return fresh(.noArchive)
        }
        // A discard's mark with an archive: the archive was saved after the discard.
        if started == LaunchGuard.discardedByHost { started = 0 }
        if started >= 2 {
            discard()
            return fresh(.crashLoop)
        }
        do { try store.writeGuard(started + 1) } catch {
            return fresh(.launchGuardUnusable(
                "the launch guard could not be written (\(AmberError.wrapping(error).message)), so this launch could not "
                    + "record that it restores the archive; the archive is kept, not restored"))
        }

        // 3. Open, read, ask.
        let plain: [UInt8]
        do {
            plain = try configuration.envelope.open(sealed)
            sealed = []
        } catch {
            let e = AmberError.wrapping(error)
            switch e.code {
            case .keyUnavailable:
                clearGuard()
                return fresh(.keyUnavailable(e.message))
            case .authenticationFailed:
                discard()
                return fresh(.authenticationFailed(e.message))
            default:
                discard()
                return fresh(.corruptArchive(e.message))
            }
        }
        let session: RestoreSession
        do {
            session = try RestoreSession(bytes: plain, limits: configuration.limits, registry: codingClasses)
        } catch {
            discard()
            return fresh(.corruptArchive(error.message))
        }
        session.hierarchy = hierarchy
        defer { session.endDecoding() }
        // Another application's archive (copied, key file and all) is never restored: its
        // objects could take this program's paths and its values this program's fields (SPEC R9).
        if let owner = session.app.applicationID, owner != configuration.appID {
            discard()
            return fresh(.otherApplication(
                "the archive was saved by application '\(owner)', not by '\(configuration.appID)'; it was discarded"))
        }
        do { snapshots.restoring = try ArchivedSnapshot(reading: session.unarchiver) } catch {
            discard()
            return fresh(.corruptArchive(error.message))
        }
        defer { snapshots.restoring = nil }
        let agreed = session.withApplicationDecoder { delegate.shouldRestore?($0) ?? false }
        guard agreed else {
            discard()
            return fresh(.shouldRestoreDeclined)
        }

        // 4–6. Objects.
        var records = findObjects(session, notes: &notes)
        decodeObjects(session, &records)
        for i in records.indices where records[i].outcome.isRestored {
            if let object = session.objects[i] { object.callbacks.finishedRestoring?(object) }
        }
        session.withApplicationDecoder { app in
            do { try delegate.didDecode?(app) } catch {
                notes.append("did-decode failed: \(AmberError.wrapping(error).message)")
            }
        }

        // 7. Discard, or wait for the extensions.
        var extended = false
        if outstanding.isEmpty {
            if restoredArchiveSuperseded {
                clearGuard()
            } else if configuration.keepsArchiveAfterRestore {
                keepRestoredArchive(&notes)
            } else {
                discard()
            }
            restoredArchiveSuperseded = false
        } else {
            waitingForExtensions = true
            extended = true
            notes.append("restoration is extended (\(outstanding.count) pending): the archive is kept until they complete")
            // If the process dies before they complete, the next launch discards the archive.
            do { try store.writeGuard(LaunchGuard.extended) } catch {
                notes.append("the launch guard could not be marked extended: \(AmberError.wrapping(error).message)")
            }
        }
        var report = RestorationReport(records: records, notes: notes, isExtended: extended)
        keepUnclaimed(session, plain: plain, &report)
        return report
    }

    /// Step 4 and 5: finds the object of every record, parents first.
    private func findObjects(_ session: RestoreSession, notes: inout [String]) -> [RestorationRecord] {
        // The records are read in place (`records[i].field`): a copy of a record per lookup
        // retained and released each of its strings.
        let records = session.records
        let count = records.count
        // Every entry starts as the same template and is filled in where it lies in the report:
        // an entry made per record and appended was copied into the array and then destroyed.
        var report = [RestorationRecord](
            repeating: RestorationRecord(paths: session.paths, index: 0, className: "", kind: .controller, outcome: .notFound),
            count: count)
        /// Why each record was not looked up, if it was not: the records under it are not
        /// looked up either, and their notes name the cause.
        var dropped = [DropCause](repeating: .none, count: count)
        /// How many records are archived as children of each record: room is made for them
        /// in the parent's children at the first (rather than growing them one by one).
        var childRecords = [Int32](repeating: 0, count: count)
        if configuration.attachesRestoredObjects {
            for i in 0 ..< count where records[i].relation == .child && records[i].parent >= 0 {
                childRecords[records[i].parent] += 1
            }
        }
        // Implicit lookup sees the trees as the host built them, before anything is placed.
        var chain = LookupChain(engine: self, session: session, existing: ObjectPathIndex(roots: roots), passID: UInt64.random(in: 1 ... UInt64.max))
        let passID = chain.passID

        // Fills in record i's entry where it lies in the report (no copy of the entry is made).
        func find(_ i: Int, _ entry: inout RestorationRecord) {
            entry.setPathIndex(i)
            entry.className = records[i].className
            entry.kind = records[i].kind
            // Under a declined object by the recorded chain: its parent, or for a record
            // without one its recorded ancestor (SPEC R10).
            let above = records[i].above
            if above >= 0, dropped[above] != .none {
                dropped[i] = dropped[above]
                entry.outcome = .leftOut
                entry.note = dropped[above].noteUnder
                return
            }
            if records[i].isOmitted {
                dropped[i] = .omitted
                entry.outcome = .leftOut
                if let size = records[i].omittedOverBudget {
                    entry.note = "its state was not saved: its record was \(size) bytes at preservation, over the budget per object (R31)"
                } else {
                    entry.note = "its state was not saved: its encode callback, or one above it, failed at preservation"
                }
                return
            }
            // The version of its state (SPEC R30): newer than its class knows, declined; older,
            // migrated before anything reads it.
            var migrated: (from: Int, to: Int)?
            switch migrate(session, i) {
            case .current: break
            case .migrated(let from, let to): migrated = (from, to)
            case .declined(let note):
                dropped[i] = .declinedVersion
                entry.outcome = .declinedVersion
                entry.note = note
                return
            case .failed(let error):
                entry.outcome = .decodeError(AmberError.wrapping(error).message)
                entry.error = error
                return
            }
            let object: RestorableObject
            let how: String
            do {
                switch try chain.find(record: i) {
                case .found(let found, let foundHow, let classNote):
                    object = found
                    how = foundHow
                    entry.note = classNote
                case .declined(let note):
                    dropped[i] = .declinedByClass
                    entry.outcome = .declinedByClass
                    entry.note = note
                    return
                case .notFound(let note):
                    entry.outcome = .notFound
                    entry.note = note
                    return
                }
            } catch {
                entry.outcome = .decodeError("making the object failed: \(AmberError.wrapping(error).message)")
                entry.error = error
                return
            }
            entry.object = object
            if object.passID == passID {
                entry.outcome = .duplicate
                entry.note = "the object was already restored for record \(object.passIndex)"
                return
            }
            object.passID = passID
            object.passIndex = i
            session.objects[i] = object
            adoptIdentity(object, records, i)
            if configuration.attachesRestoredObjects { place(object, records, i, session, childRecords, &entry) }
            if object.kind != records[i].kind {
                entry.outcome = .classMismatch
                entry.note = "archived as a \(records[i].kind), found a \(object.kind) (\(how))"
            } else if !hierarchy.isKind(object.className, of: records[i].className) {
                entry.outcome = .classMismatch
                entry.note = "archived as \(records[i].className), found \(object.className), which is not a registered subclass (\(how))"
            } else if let migrated {
                entry.outcome = .migrated(from: migrated.from, to: migrated.to)
                if entry.note == nil { entry.note = how }
            } else {
                entry.outcome = .restored
                if entry.note == nil { entry.note = how }
            }
        }
        for i in 0 ..< count {
            find(i, &report[i])
        }
        notes += chain.notes
        return report
    }

    /// Why a record was not looked up, so that the records under it say why they were not
    /// either (SPEC R16).
    private enum DropCause: UInt8 {
        /// It was looked up.
        case none
        /// Its record was left out at preservation (SPEC R28).
        case omitted
        /// Its restoration class gave none (SPEC R10).
        case declinedByClass
        /// Its state's version was declined (SPEC R30).
        case declinedVersion

        /// The note of a record under one dropped for this cause.
        var noteUnder: String {
            switch self {
            case .none, .omitted: return "an object above it was left out at preservation"
            case .declinedByClass: return "an object above it was declined by its restoration class"
            case .declinedVersion: return "an object above it was declined for its state's version (R30)"
            }
        }
    }

    /// What the version check of a record gave (SPEC R30).
    private enum VersionCheck {
        /// The record is of the version its class declares.
        case current
        /// It was of version `from`, and its state is migrated to version `to`.
        case migrated(from: Int, to: Int)
        /// Declined; the note says why.
        case declined(String)
        /// The migrate callback failed, or its state could not be kept.
        case failed(any Error)
    }

    /// Checks record `i`'s version against its class's (SPEC R30) and migrates an older one.
    private func migrate(_ session: RestoreSession, _ i: Int) -> VersionCheck {
        // The usual case, without a copy of the record or a look-up by class name.
        if stateVersions.isEmpty, session.records[i].version == 1 { return .current }
        let record = session.records[i]
        let declared = stateVersions[record.className]
        let current = declared?.version ?? 1
        if record.version == current { return .current }
        let className = record.className
        guard record.version < current else {
            return .declined("archived at state version \(record.version); class \(className) is at version \(current): a newer state is not read")
        }
        guard let migrate = declared?.migrate else {
            return .declined("archived at state version \(record.version); class \(className) is at version \(current) and has no migrate callback")
        }
        let archiver = KeyedArchiver(registry: codingClasses, limits: configuration.limits)
        var old = session.decoder(record: i)
        defer { session.finish(&old) }
        var accepted = false
        do {
            try archiver.encodeObject(forKey: ArchiveLayout.state, className: ArchiveLayout.stateClass) { a in
                let coder = MigrationCoder(archiver: a, session: session, record: i, limits: configuration.limits)
                defer { coder.core.isActive = false }
                accepted = try session.unarchiver.withObject(uid: record.stateUID) { _, _ in
                    try migrate(coder, old, record.version, current)
                }
                coder.core.recordSensitiveKeys()
            }
            guard accepted else {
                return .declined("the migrate callback of class \(className) declined state version \(record.version) (current: \(current))")
            }
            try session.setMigratedState(
                try archiver.finishEncoding(), record: i, limits: configuration.limits, registry: codingClasses)
        } catch {
            let e = AmberError.wrapping(error)
            let message = "migrating the state of class \(className) from version \(record.version) to \(current) failed: \(e.message)"
            return .failed(error is AmberError || error is ArchiveError ? AmberError(e.code, message) : error)
        }
        return .migrated(from: record.version, to: current)
    }

    /// Step 6: the decode callbacks, in archive order (a parent's record comes before its children's).
    private func decodeObjects(_ session: RestoreSession, _ records: inout [RestorationRecord]) {
        for i in records.indices where records[i].outcome.isRestored {
            guard let object = session.objects[i] else { continue }
            decodeRecord(session, i, object, &records[i])
        }
    }

    /// Runs record `i`'s decode callback on `object`, then applies a view's standard state;
    /// a failure makes `entry` a decode error.
    func decodeRecord(_ session: RestoreSession, _ i: Int, _ object: RestorableObject, _ entry: inout RestorationRecord) {
        // Its state now comes from the archive: what it wrote before is no longer it (SPEC R32).
        object.stateRecording = nil
        let decode = object.callbacks.decode
        guard decode != nil || object.kind == .view else { return }
        var coder = session.decoder(record: i)
        do {
            try session.unarchiver.withObject(uid: session.records[i].stateUID) { u, _ in
                if let decode { try decode(object, coder) }
                // A view's standard state, once its own state is decoded (SPEC R17, R18).
                try applyViewState(object, u, &entry)
            }
        } catch {
            entry.outcome = .decodeError(AmberError.wrapping(error).message)
            entry.error = error
        }
        session.finish(&coder)
    }

    /// Gives a found object the archived identity where it has none.
    func adoptIdentity(_ object: RestorableObject, _ records: [RestoreSession.Record], _ i: Int) {
        if object.identifier == nil { object.restorationIdentifier = records[i].identifier }
        if object.restorationClassName == nil, let rc = records[i].restorationClassName { object.restorationClassName = rc }
        if object.blueprintIdentifier == nil, let bp = records[i].blueprintIdentifier { object.blueprintIdentifier = bp }
    }

    /// Places a found object that has no parent where its record was.
    private func place(
        _ object: RestorableObject, _ records: [RestoreSession.Record], _ i: Int, _ session: RestoreSession,
        _ childRecords: [Int32], _ entry: inout RestorationRecord
    ) {
        guard object.parent == nil, !roots.contains(where: { $0 === object }) else { return }
        let parent = records[i].parent
        if parent >= 0 {
            guard let p = session.objects[parent] else { return }
            if records[i].relation == .child, p.children.isEmpty { p.reserveChildCapacity(Int(childRecords[parent])) }
            if !object.adopt(into: p, as: records[i].relation) {
                entry.note = "could not be placed under /\(session.path(ofRecord: parent).joined(separator: "/"))"
            }
        } else if records[i].isRoot, object.kind == .controller {
            roots.append(object)
        }
    }

    /// Logs a restoration (SPEC R29): one line at info, and at debug each record's outcome and
    /// how its object was found or why not.
    private func logRestoration(_ report: RestorationReport, seconds: Double) {
        let ms = (seconds * 1000 * 100).rounded() / 100
        if let reason = report.freshLaunchReason {
            log(.info) { "restore: fresh launch (\(reason)) in \(ms) ms" }
        } else {
            log(.info) { "restore: restored \(report.restoredCount) of \(report.count) archived objects in \(ms) ms" }
        }
        guard isLogging(.debug) else { return }
        for r in report.records {
            log(.debug) { "restore: \(PathComponent.describe(r.components)) (\(r.className), \(r.kind)): \(r.outcome)\(r.note.map { " — \($0)" } ?? "")" }
        }
        for note in report.notes { log(.debug) { "restore: note: \(note)" } }
    }

    /// Keeps the archive restored until the next save (`keepsArchiveAfterRestore`, SPEC R32).
    /// The restoration completed, so the launch guard's count is cleared (SPEC R14): a later
    /// launch that dies while restoring counts from zero, and launches that complete, however
    /// many come before a save, never add up to a crash loop.
    func keepRestoredArchive(_ notes: inout [String]) {
        clearLaunchGuard(&notes)
        notes.append("the archive is kept until the next save (keep the archive after restore)")
    }

    /// Removes the launch guard once a restoration completed. A guard that cannot be removed
    /// keeps its count; the next save tries again, so that a count left over does not make a
    /// later archive look like one that crashed.
    func clearLaunchGuard(_ notes: inout [String]) {
        do { try store.removeGuard() } catch {
            notes.append("the launch guard could not be removed: \(AmberError.wrapping(error).message)")
            guardMarksRestoredArchive = true
        }
    }

    /// Ends an archive that was consumed (restored, or refused) so that no later launch restores
    /// it (SPEC R14): it is removed, or failing that the launch guard marks it consumed, and the
    /// next launch discards it. If both fail, both are tried once more: two I/O faults cannot
    /// then leave the archive in place and unmarked. A fault that outlasts the four attempts and
    /// still holds at the next launch fails that launch's write of the guard, and it does not
    /// restore; one that is gone by then makes this launch look like one that died while
    /// restoring, which the guard counts. Every failure is in `notes`.
    func discardConsumedArchive(_ notes: inout [String]) {
        var failures: [String] = []
        for _ in 1 ... 2 {
            do {
                try store.removeConsumed()
                clearLaunchGuard(&notes)
                return
            } catch {
                failures.append("removing it: \(AmberError.wrapping(error).message)")
            }
            do {
                try store.writeGuard(LaunchGuard.consumed)
                guardMarksRestoredArchive = true
                notes.append("the archive could not be discarded (\(failures.joined(separator: "; "))); "
                    + "the launch guard marks it consumed, and the next launch discards it")
                return
            } catch {
                failures.append("marking it consumed: \(AmberError.wrapping(error).message)")
            }
        }
        notes.append("the archive could not be discarded, nor marked consumed (\(failures.joined(separator: "; "))); "
            + "a launch that cannot write the launch guard does not restore it")
    }
}
