import AmberArchive

extension Engine {
    /// Writes the records kept for objects created later (SPEC R35) that no object has claimed
    /// yet into the archive being saved, after the records of the trees, so that a screen
    /// opened after this save, or at a later launch, still finds its state. Each is written as
    /// it was restored (its state, or the state migrated at launch, SPEC R30) and reported as
    /// carried (`PreservationReport.Reason.carried`).
    ///
    /// - A kept record whose path an object of the trees has now is not written: the live
    ///   object wins, and kept records under it hang from its record.
    /// - A kept record's parent is the record of its kept parent, or of the object of the
    ///   trees with its parent's path; without either it is written with its whole path. A
    ///   reference its state holds (SPEC R4) names the record of the object referred to in
    ///   this archive, and is null when the archive has none.
    /// - A state that names sensitive keys (SPEC R34) is written only into an encrypted
    ///   archive; otherwise the record, and the kept records under it, are not carried, and the
    ///   report says why (`notCarried`).
    ///
    /// - Returns: the entries of the kept records not carried.
    func carryUnclaimed(
        into archiver: KeyedArchiver, _ records: inout PreservedRecords.Columns, _ uids: inout [Int], encrypts: Bool
    ) -> [PreservationReport.Entry] {
        guard let kept = unclaimed, let session = kept.session, !kept.byPath.isEmpty else { return [] }
        let plan = CarryPlan(kept: kept, session: session, live: records, encrypts: encrypts)
        for (j, _) in plan.carried {
            let start = archiver.bytesWritten
            let parent = plan.parent(of: j)
            let path = session.paths.components(j)
            let record = session.records[j]
            let index = records.count
            if parent < 0 {
                records.append(root: path, className: record.className, kind: record.kind)
            } else {
                records.append(parent: parent, component: path[path.count - 1], className: record.className, kind: record.kind)
            }
            var copyError: String?
            uids.append(encodeCarried(j, of: session, plan, into: archiver, copyError: &copyError))
            let reason: PreservationReport.Reason = copyError.map { .notCarried("its state cannot be copied: \($0)") } ?? .carried
            records.complete(index, size: archiver.bytesWritten - start, omitted: reason)
        }
        if !plan.carried.isEmpty {
            log(.debug) { "preserve: carried \(plan.carried.count) kept record(s) no object has claimed yet" }
        }
        return plan.notCarried.map { j, why in
            PreservationReport.Entry(
                path: session.paths.components(j), className: session.records[j].className, kind: session.records[j].kind,
                leftOut: .notCarried(why))
        }
    }

    /// Notes in the restoration report, once for the records kept, that a save carried them
    /// (SPEC R35), and rewrites the report kept on disk (SPEC R16), so that `amber report`
    /// shows it. Called once the archive is written.
    func noteCarried(_ report: PreservationReport) {
        guard let kept = unclaimed, !kept.wereCarried else { return }
        let carried = report.carried
        guard !carried.isEmpty else { return }
        kept.wereCarried = true
        restorationReport?.notes.append(
            "\(carried.count) kept record(s) no object has claimed yet were carried into the archive saved, until their deadline: \(carried.map(\.pathDescription).joined(separator: ", "))")
        keepCurrentReport()
    }

    /// Writes kept record `j` as its record of the archive (at the index `plan` gave it). A
    /// record whose state cannot be copied (a damaged part the launch did not read) is written
    /// without it, marked omitted, and `copyError` says why.
    private func encodeCarried(
        _ j: Int, of session: RestoreSession, _ plan: CarryPlan, into archiver: KeyedArchiver, copyError: inout String?
    ) -> Int {
        typealias L = ArchiveLayout
        let record = session.records[j]
        let parent = plan.parent(of: j)
        let source = session.stateSource(ofRecord: j)
        let version = session.isMigrated(j) ? stateVersion(ofClass: record.className) : record.version
        // The state first, outside the record: a copy that fails leaves nothing open.
        let state: Int?
        do {
            state = try archiver.copyObject(source.uid, from: source.archive) { className, fields in
                guard className == L.referenceClass else { return .fields(fields) }
                return plan.reference(fields)
            }
            copyError = nil
        } catch {
            state = nil
            copyError = AmberError.wrapping(error).message
        }
        return archiver.encodeDetachedObject(className: L.recordClass) { a in
            a.encode(record.className, forKey: L.className)
            if record.kind != L.usualKind { a.encode(Int64(record.kind.rawValue), forKey: L.kind) }
            a.encode(record.identifier, forKey: L.identifier)
            if record.position > 0 { a.encode(Int64(record.position), forKey: L.position) }
            if parent >= 0 { a.encode(Int64(parent), forKey: L.parent) }
            if record.relation != L.usualRelation(hasParent: parent >= 0) {
                a.encode(Int64(record.relation.rawValue), forKey: L.relation)
            }
            if parent < 0 {
                let path = session.paths.components(j)
                a.encode(.array(path.map { .string($0.identifier) }), forKey: L.path)
                if path.contains(where: { $0.position != 0 }) {
                    a.encode(.array(path.map { .int(Int64($0.position)) }), forKey: L.pathPositions)
                }
                let ancestor = plan.index(ofRecord: record.ancestor)
                if ancestor >= 0 { a.encode(Int64(ancestor), forKey: L.ancestor) }
            }
            if let rc = record.restorationClassName { a.encode(rc, forKey: L.restorationClass) }
            if let bp = record.blueprintIdentifier { a.encode(bp, forKey: L.blueprint) }
            if version > 1 { a.encode(Int64(version), forKey: L.version) }
            if let state {
                a.encode(stringUID: state, forKey: ArchiveKey(L.state))
            } else {
                a.encodeObject(forKey: L.state, className: L.stateClass) { _ in }
                a.encode(true, forKey: L.omitted)
            }
        }
    }
}

/// Which kept records a save carries (SPEC R35), and the index each has in the new archive.
private struct CarryPlan {
    /// The kept records carried, in archive order, with their index in the new archive.
    private(set) var carried: [(record: Int, index: Int)] = []
    /// The kept records not carried, with why.
    private(set) var notCarried: [(record: Int, why: String)] = []
    /// The new index of each carried record, by its index in the restoration.
    private var carriedIndices: [Int: Int] = [:]
    /// The records of the trees in the new archive, by path.
    private let livePaths: [[PathComponent]: Int]
    private let session: RestoreSession

    init(kept: UnclaimedRecords, session: RestoreSession, live: PreservedRecords.Columns, encrypts: Bool) {
        self.session = session
        var livePaths: [[PathComponent]: Int] = [:]
        for i in 0 ..< live.count { livePaths[live.paths.components(i)] = i }
        self.livePaths = livePaths
        var next = live.count
        var left: Set<Int> = []
        for j in kept.records {
            let path = session.paths.components(j)
            if livePaths[path] != nil { continue }  // an object of the trees has its path: it wins
            let above = session.records[j].above
            if left.contains(above) {
                left.insert(j)
                notCarried.append((j, "an object above it was not carried (\(PathComponent.describe(session.paths.components(above))))"))
                continue
            }
            let source = session.stateSource(ofRecord: j)
            guard case .instance(_, _, let fields)? = try? source.archive.object(source.uid) else {
                left.insert(j)
                notCarried.append((j, "its state cannot be read"))
                continue
            }
            if !encrypts, fields.contains(where: { $0.key == SensitiveValues.key }) {
                left.insert(j)
                notCarried.append((j, "its state holds sensitive values and this archive is not encrypted (R34)"))
                continue
            }
            carriedIndices[j] = next
            carried.append((j, next))
            next += 1
        }
    }

    /// The new index of record `i` of the restoration: its own if it is carried, else that of
    /// the record of the object of the trees with its path; -1 when the new archive has none.
    func index(ofRecord i: Int) -> Int {
        guard i >= 0 else { return -1 }
        return carriedIndices[i] ?? livePaths[session.paths.components(i)] ?? -1
    }

    /// The new index of the parent of carried record `j`, or -1.
    func parent(of j: Int) -> Int { index(ofRecord: session.records[j].parent) }

    /// A reference (SPEC R4) of a carried state, made to name the new archive's record of the
    /// object it names; null when the new archive has none.
    func reference(_ fields: [(key: String, value: PropertyList)]) -> KeyedArchiver.CopiedInstance {
        var fields = fields
        guard let at = fields.firstIndex(where: { $0.key == ArchiveLayout.referenceIndex }),
              case .int(let old) = fields[at].value, old >= 0, old < Int64(session.records.count)
        else { return .null }
        let new = index(ofRecord: Int(old))
        guard new >= 0 else { return .null }
        fields[at].value = .int(Int64(new))
        return .fields(fields)
    }
}
