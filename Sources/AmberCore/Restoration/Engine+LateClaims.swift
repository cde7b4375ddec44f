extension Engine {
    /// Keeps the records that find no object at the next restorations in memory for
    /// `milliseconds` after each, for objects the host creates later (SPEC R35): such an object
    /// claims its record's state with `restorePending(_:)`. 0 (the default) keeps none. Call it
    /// before `launch()`. Backs `amber_engine_keep_unclaimed`.
    ///
    /// Amber has no event loop: the deadline is checked when the engine is called
    /// (`restorePending(_:)`, `currentRestorationReport()`, `preserve()`, `transition(to:)`,
    /// `restore()`), and the records are dropped then. Until then each save carries the records
    /// still kept into its archive (`carryUnclaimed`, reported as `.carried`).
    /// - Throws: `.invalidArgument` for a negative time.
    public func keepUnclaimed(milliseconds: Int) throws(AmberError) {
        guard milliseconds >= 0 else {
            throw AmberError(.invalidArgument, "the time to keep unclaimed records is \(milliseconds) ms; it is 0 or more")
        }
        unclaimedKeepMilliseconds = milliseconds
    }

    /// The report of the last restoration (nil before the first), with the records claimed
    /// since by `restorePending(_:)` and the kept records dropped since (SPEC R35). Checks the
    /// deadline first. Backs `amber_engine_restoration_report`.
    public func currentRestorationReport() -> RestorationReport? {
        dropUnclaimedIfDue()
        return restorationReport
    }

    /// Ends the restoration now for the records kept after it (SPEC R35): they are dropped, and
    /// the report says so. Nothing happens if none are kept. Backs `amber_engine_end_restoration`.
    public func endRestoration() {
        dropUnclaimedIfDue()
        dropUnclaimed(because: "when the host ended restoration")
    }

    /// Whether records are kept for objects created later (SPEC R35), the deadline checked first.
    public var hasUnclaimedRecords: Bool {
        dropUnclaimedIfDue()
        return unclaimed != nil
    }

    /// Decodes the state of `object`, created after launch, from the kept record with its
    /// restoration path, then the kept records under it whose paths match objects under it
    /// (SPEC R35): the class check (R11), then the decode callbacks parents first (R12), the
    /// view states (R17), and finished-restoring (R13), as at launch. The report
    /// (`currentRestorationReport()`) records each as restored (or migrated, R30), or with the
    /// decode error; the records claimed are no longer kept.
    /// Backs `amber_object_restore_pending`.
    /// - Returns: the number of records claimed (the object's and those under it).
    /// - Throws: `.notFound` when no record is kept for its path (none was, the path does not
    ///   match, or the kept records were dropped: the message says which); `.invalidArgument`
    ///   for an object without a restoration path; `.misuse` during a preservation or a
    ///   restoration.
    @discardableResult
    public func restorePending(_ object: RestorableObject) throws(AmberError) -> Int {
        guard activity == .idle else {
            throw AmberError(.misuse, "restorePending was called while the engine is \(activity.rawValue)")
        }
        dropUnclaimedIfDue()
        guard let path = object.restorationComponents else {
            throw AmberError(.invalidArgument, "'\(object.describe)' has no restoration path: it or an ancestor has no identifier")
        }
        let name = PathComponent.describe(path)
        if let claimer = claimedLate[path] {
            throw AmberError(.notFound, "no state is kept for \(name): its kept record was claimed already after launch, by \(claimer)")
        }
        guard let kept = unclaimed, let session = kept.session else {
            throw AmberError(.notFound, "no state is kept for \(name): \(unclaimedEnd ?? "no restoration kept the records that found no object (keep them with amber_engine_keep_unclaimed before launch)")")
        }
        guard let i = kept.byPath[path] else {
            throw AmberError(.notFound, "no state is kept for \(name): no record that found no object at launch has this path")
        }
        // The object and those the host made under it, by path (as implicit lookup finds them
        // at launch, SPEC R10), and where each kept record's path leads among them.
        let made = ObjectPathIndex(subtree: object, at: path)
        var entries = RecordEntries(paths: session.paths)
        // The host's callbacks run as at launch: a preservation or restoration from one is refused.
        activity = .restoring
        defer { activity = .idle }
        var claimed: [(record: Int, object: RestorableObject)] = []
        for j in i ..< session.records.count where kept.isKept(j) && (j == i || kept.isRecord(j, under: i)) {
            guard let o = entries.object(ofRecord: j, in: made) else { continue }
            kept.claim(j)
            claimedLate[session.paths.components(j)] = "an object of class \(o.className)"
            claimed.append((j, o))
            session.objects[j] = o
            adoptIdentity(o, session.records, j)
        }
        var records = restorationReport?.records ?? []
        for (j, o) in claimed where j < records.count {
            let record = session.records[j]
            records[j].object = o
            if o.kind != record.kind {
                records[j].outcome = .classMismatch
                records[j].note = "archived as a \(record.kind), claimed by a \(o.kind) after launch"
                continue
            }
            guard hierarchy.isKind(o.className, of: record.className) else {
                records[j].outcome = .classMismatch
                records[j].note = "archived as \(record.className), claimed after launch by \(o.className), which is not a registered subclass"
                continue
            }
            records[j].outcome = session.isMigrated(j)
                ? .migrated(from: record.version, to: stateVersion(ofClass: record.className)) : .restored
            records[j].note = "claimed after launch by an object created later"
            decodeRecord(session, j, o, &records[j])
        }
        for (j, o) in claimed where j < records.count && records[j].outcome.isRestored {
            o.callbacks.finishedRestoring?(o)
        }
        session.endDecoding()
        restorationReport?.records = records
        restorationReport?.notes.append("\(name) claimed \(claimed.count) kept record(s) after launch")
        keepCurrentReport()
        log(.debug) { "restore: \(name) claimed \(claimed.count) kept record(s) after launch" }
        if kept.byPath.isEmpty { dropUnclaimed(because: "once every one was claimed") }
        return claimed.count
    }

    /// Writes the report as it stands now where the launch's report is kept (SPEC R16, R28),
    /// if it is kept, so that `amber report` shows the late claims and the records dropped.
    func keepCurrentReport() {
        guard configuration.reportDirectory != nil, let report = restorationReport else { return }
        restorationReport = keepReport(report)
    }

    /// Keeps `report`'s records that found no object (SPEC R35), if the host asked for it,
    /// and notes it in the report.
    func keepUnclaimed(_ session: RestoreSession, plain: [UInt8], _ report: inout RestorationReport) {
        guard unclaimedKeepMilliseconds > 0 else { return }
        let notFound = report.records.indices.filter { report.records[$0].outcome == .notFound }
        guard !notFound.isEmpty else { return }
        let deadline = FileSystem.monotonicSeconds() + Double(unclaimedKeepMilliseconds) / 1000
        unclaimed = UnclaimedRecords(session: session, plain: plain, deadline: deadline, records: notFound)
        unclaimedEnd = nil
        report.notes.append("\(notFound.count) record(s) that found no object are kept for \(unclaimedKeepMilliseconds) ms, for objects created later (restore_pending)")
    }

    /// Drops the kept records if their deadline has passed.
    func dropUnclaimedIfDue() {
        guard let kept = unclaimed, FileSystem.monotonicSeconds() >= kept.deadline else { return }
        dropUnclaimed(because: "at their deadline, \(unclaimedKeepMilliseconds) ms after launch")
    }

    /// Drops the kept records (their bytes zeroed) and says so in the report: in a note, and on
    /// each record no object claimed.
    func dropUnclaimed(because why: String) {
        guard let kept = unclaimed else { return }
        unclaimed = nil
        let left = kept.records
        unclaimedEnd = "the records kept after launch were dropped \(why)"
        if var report = restorationReport {
            for j in left where j < report.records.count {
                let note = report.records[j].note.map { $0 + "; " } ?? ""
                report.records[j].note = note + "kept for an object created later, none claimed it: dropped \(why)"
            }
            if !left.isEmpty {
                let paths = left.compactMap { j in j < report.records.count ? PathComponent.describe(report.records[j].components) : nil }
                report.notes.append("\(left.count) kept record(s) no object claimed were dropped \(why): \(paths.joined(separator: ", "))")
            } else {
                report.notes.append("the kept records were dropped \(why)")
            }
            restorationReport = report
            keepCurrentReport()
        }
        log(.debug) { "restore: \(left.count) kept record(s) dropped \(why)" }
        kept.drop()
    }
}
