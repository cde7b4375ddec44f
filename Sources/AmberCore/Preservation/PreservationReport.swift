/// What a preservation did (SPEC R28): each object preserved with its encoded size, each object
/// of the trees left out and why, and why nothing was saved when nothing was. A preserve that
/// saved nothing is never silent.
///
/// A collection of entries: the archive's records in order (each preserved, or left out when
/// its encode failed), then the objects of the trees that were not recorded. The records are
/// kept as columns (`PreservedRecords`) and an entry is made when read, so that a save of a
/// million objects does not hold a million entries.
public struct PreservationReport: RandomAccessCollection, CustomStringConvertible {
    /// Why an object was not preserved.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// It has no restoration identifier (SPEC R2).
        case noIdentifier
        /// An ancestor, described here, has no restoration identifier (SPEC R2).
        case ancestorWithoutIdentifier(String)
        /// Its restoration path is taken by the object described here, which was kept (SPEC R3).
        case duplicatePath(kept: String)
        /// Its encode callback failed with this message: it and what is under it are left out,
        /// the rest is saved.
        case encodeFailed(String)
        /// An object above it, described here, was left out (a duplicate, or its encode failed).
        case underLeftOut(String)
        /// A plain object that no encode callback referenced (SPEC R4).
        case notReferenced
        /// Its path would be deeper than `limit` levels (`ArchiveLimits.maxDepth`, what restoration
        /// reads): it and the `below` objects under it are left out (SPEC R22).
        case tooDeep(limit: Int, below: Int)
        /// Its record took `size` bytes, more than the budget per object of `budget` bytes
        /// (SPEC R31): its state is taken back, and it and what is under it are left out.
        case overBudget(size: Int, budget: Int)
        /// Not an object of the trees: a record kept for an object created later (SPEC R35)
        /// that none has claimed yet, written into this archive as it was restored, so that a
        /// later launch still has its state. Its entry's size is what it added to the archive.
        case carried
        /// A record kept for an object created later (SPEC R35) that none has claimed yet, and
        /// that this archive does not hold, for the reason given (a sensitive value and an
        /// archive that is not encrypted, SPEC R34; an object above it not carried).
        case notCarried(String)

        /// The reason in words.
        public var description: String {
            switch self {
            case .noIdentifier: return "no restoration identifier"
            case .ancestorWithoutIdentifier(let a): return "an ancestor has no restoration identifier (\(a))"
            case .duplicatePath(let kept): return "duplicate path; kept \(kept)"
            case .encodeFailed(let m): return "its encode callback failed: \(m)"
            case .underLeftOut(let a): return "an object above it was left out (\(a))"
            case .notReferenced: return "a plain object that nothing referenced"
            case .tooDeep(let limit, let below):
                return "deeper than the limit of \(limit) levels" + (below > 0 ? "; the \(below) objects under it are left out with it" : "")
            case .overBudget(let size, let budget):
                return "its record is \(size) bytes, over the budget of \(budget) bytes per object"
            case .carried:
                return "kept for an object created later, none claimed it yet: carried into this archive as it was restored"
            case .notCarried(let why):
                return "kept for an object created later, none claimed it yet: not carried into this archive: \(why)"
            }
        }
    }

    /// Why nothing was saved.
    public enum NotSaved: Equatable, Sendable, CustomStringConvertible {
        /// The delegate has no should-save callback (SPEC R5).
        case noShouldSave
        /// Should-save returned false (SPEC R5).
        case shouldSaveDeclined
        /// The save failed with this message; the previous archive is kept.
        case failed(String)
        /// The archive would have been larger than its budget (SPEC R31), as this message says;
        /// the previous archive is kept, and the report lists every object with its size and
        /// the largest ones (`largest`).
        case overBudget(String)

        /// The reason in words.
        public var description: String {
            switch self {
            case .noShouldSave: return "the delegate has no should-save callback"
            case .shouldSaveDeclined: return "should-save declined"
            case .failed(let m): return "the save failed, the previous archive is kept: \(m)"
            case .overBudget(let m): return "the archive is over its budget, the previous archive is kept: \(m)"
            }
        }
    }

    /// One object of the report.
    public struct Entry {
        /// Its restoration path as far as it has one: the identifiers of its ancestors that
        /// have one, then its own if it has one.
        public var path: [PathComponent] {
            get { storedPath ?? paths?.components(pathIndex) ?? [] }
            set {
                storedPath = newValue
                paths = nil
            }
        }
        /// The path as given, or the table that makes it (a save's preserved objects share the
        /// table of their records rather than hold a path each).
        private var storedPath: [PathComponent]?
        private var paths: RecordPaths?
        private var pathIndex = 0
        /// Its class name.
        public var className: String
        /// Its kind.
        public var kind: ObjectKind
        /// Nil if it was preserved; otherwise why not.
        public var leftOut: Reason?
        /// The bytes its record added to the archive (before the envelope); for an object left
        /// out over its budget, the bytes its record took before it was taken back (SPEC R31);
        /// 0 for any other object left out.
        public var byteCount: Int

        /// Creates an entry.
        public init(path: [PathComponent], className: String, kind: ObjectKind, leftOut: Reason? = nil, byteCount: Int = 0) {
            self.storedPath = path
            self.className = className
            self.kind = kind
            self.leftOut = leftOut
            self.byteCount = byteCount
        }

        /// An entry whose path is record `index` of `paths`.
        fileprivate init(paths: RecordPaths, index: Int, className: String, kind: ObjectKind, leftOut: Reason?, byteCount: Int) {
            self.paths = paths
            self.pathIndex = index
            self.className = className
            self.kind = kind
            self.leftOut = leftOut
            self.byteCount = byteCount
        }

        /// Whether the object was preserved.
        public var isPreserved: Bool { leftOut == nil }

        /// Its position among the same-identifier children of its stack (SPEC R3); 0 for an
        /// object without an identifier.
        public var position: Int { leftOut == .noIdentifier ? 0 : path.last?.position ?? 0 }

        /// The path for messages; an object without identifier shows its class in parentheses.
        public var pathDescription: String {
            let p = PathComponent.describe(path)
            return leftOut == .noIdentifier ? (path.isEmpty ? "/" : p + "/") + "(\(className))" : p
        }
    }

    /// Why nothing was saved, or nil if an archive was written.
    public var notSaved: NotSaved?
    /// The size of what was written, in bytes (after the envelope); 0 if nothing was.
    public var byteCount: Int
    /// The archive's records.
    private let records: PreservedRecords?
    /// The objects of the trees that were not recorded, in the order met.
    private let unrecorded: [Entry]

    /// Creates a report.
    public init(notSaved: NotSaved? = nil, entries: [Entry] = [], byteCount: Int = 0) {
        self.notSaved = notSaved
        self.records = nil
        self.unrecorded = entries
        self.byteCount = byteCount
    }

    /// The report of a save: its records, then the objects it did not record.
    init(records: PreservedRecords, unrecorded: [Entry]) {
        self.notSaved = nil
        self.records = records
        self.unrecorded = unrecorded
        self.byteCount = 0
    }

    /// The index of the first entry.
    public var startIndex: Int { 0 }
    /// The index past the last entry.
    public var endIndex: Int { (records?.count ?? 0) + unrecorded.count }

    /// The entry at an index: a record, or an object not recorded.
    public subscript(index: Int) -> Entry {
        let recorded = records?.count ?? 0
        guard index < recorded, let r = records else { return unrecorded[index - recorded] }
        return Entry(
            paths: r.paths, index: index, className: r.classNames[index], kind: r.kinds[index],
            leftOut: r.omitted[index], byteCount: r.sizes[index])
    }

    /// Every entry, in order.
    public var entries: [Entry] { Array(self) }
    /// Whether an archive was written.
    public var saved: Bool { notSaved == nil }
    /// How many objects were preserved.
    public var preservedCount: Int { records.map { $0.count - $0.omitted.count } ?? 0 }
    /// The objects left out.
    public var leftOut: [Entry] { filter { !$0.isPreserved && $0.leftOut != .carried } }
    /// How many records kept for objects created later this archive carries (SPEC R35).
    public var carriedCount: Int { records.map { $0.omitted.values.reduce(0) { $0 + ($1 == .carried ? 1 : 0) } } ?? 0 }
    /// The records kept for objects created later that this archive carries (SPEC R35).
    public var carried: [Entry] { filter { $0.leftOut == .carried } }
    /// How many objects were preserved (`preservedCount`).
    public var objectCount: Int { preservedCount }
    /// The restoration paths (identifiers) of the objects left out as duplicates (SPEC R3).
    public var duplicates: [[String]] {
        unrecorded.compactMap { e in
            if case .duplicatePath = e.leftOut { return e.path.map(\.identifier) }
            return nil
        }
    }

    /// How many objects `largest` lists at most.
    public static let largestCount = 10

    /// The largest objects whose records are in the archive, the largest first (SPEC R31): at
    /// most `largestCount`, objects of equal size in archive order. Also when the archive was
    /// over its budget and not written, so that the host can tell what made it so large.
    public var largest: [Entry] { largestIndices.map { self[$0] } }

    /// The indices of the `largest` entries, the largest first.
    public var largestIndices: [Int] {
        guard let r = records else { return [] }
        // The indices of the largest so far, the largest first: a short list kept sorted.
        var top: [Int] = []
        top.reserveCapacity(PreservationReport.largestCount + 1)
        for i in 0 ..< r.count where r.sizes[i] > 0 && (r.omitted.isEmpty || r.omitted[i] == nil) {
            let size = r.sizes[i]
            if top.count == PreservationReport.largestCount, size <= r.sizes[top[top.count - 1]] { continue }
            var at = top.count
            while at > 0, r.sizes[top[at - 1]] < size { at -= 1 }
            top.insert(i, at: at)
            if top.count > PreservationReport.largestCount { top.removeLast() }
        }
        return top
    }

    /// A first line (saved or why not), then a line per object left out and per object
    /// preserved with its size, then the largest objects.
    public var description: String {
        var lines: [String]
        if let notSaved {
            lines = ["nothing saved: \(notSaved)"]
        } else {
            lines = ["saved \(preservedCount) objects in \(byteCount) bytes"]
        }
        for e in self where e.leftOut == .carried {
            lines.append("  carried \(e.pathDescription) (\(e.className)): \(e.byteCount) bytes, kept for an object created later")
        }
        for e in self where !e.isPreserved && e.leftOut != .carried {
            // An object without an identifier shows its class in its path already.
            let cls = e.leftOut == .noIdentifier ? "" : " (\(e.className))"
            lines.append("  left out \(e.pathDescription)\(cls): \(e.leftOut!)")
        }
        for e in self where e.isPreserved {
            lines.append("  preserved \(e.pathDescription) (\(e.className)): \(e.byteCount) bytes")
        }
        let top = largest
        if !top.isEmpty {
            lines.append("  largest:")
            for (rank, e) in top.enumerated() {
                lines.append("    \(rank + 1). \(e.pathDescription) (\(e.className)): \(e.byteCount) bytes")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A save's records, as the report keeps them (SPEC R28): one column per field. Filled record by
/// record (`Columns`): path, class and kind as the preservation pass records each, its size as
/// the engine encodes it, then the records the save carries (SPEC R35); then kept read-only.
final class PreservedRecords {
    /// The columns while they are filled.
    struct Columns {
        /// The records' paths.
        let paths: RecordPaths
        var classNames: [String] = []
        var kinds: [ObjectKind] = []
        /// The bytes each record added to the archive (0 for an omitted one, except one over its
        /// budget: the bytes it took before it was taken back).
        var sizes: [Int] = []
        /// Why a record's state was left out (its encode callback, or one above it, failed), or
        /// that it was carried from the last restoration (SPEC R35), by record index: only
        /// those records.
        var omitted: [Int: PreservationReport.Reason] = [:]

        /// The records appended.
        var count: Int { classNames.count }

        init(capacity: Int, paths: RecordPaths = RecordPaths()) {
            self.paths = paths
            reserveCapacity(capacity)
        }

        mutating func reserveCapacity(_ n: Int) {
            paths.reserveCapacity(n)
            classNames.reserveCapacity(n)
            kinds.reserveCapacity(n)
            sizes.reserveCapacity(n)
        }

        /// Appends a record under record `parent` (which comes before it), before it is
        /// encoded: its last path component, class and kind.
        mutating func append(parent: Int, component: PathComponent, className: String, kind: ObjectKind) {
            paths.append(parent: parent, component: component)
            classNames.append(className)
            kinds.append(kind)
        }

        /// Appends a record without parent, before it is encoded: its whole path, class and kind.
        mutating func append(root path: [PathComponent], className: String, kind: ObjectKind) {
            paths.append(root: path)
            classNames.append(className)
            kinds.append(kind)
        }

        /// Completes record `index`, once it is encoded: its size, or why its state was left
        /// out. Records are completed in order: `index` is the first one not completed.
        mutating func complete(_ index: Int, size: Int, omitted reason: PreservationReport.Reason?) {
            assert(index == sizes.count, "records are completed in order")
            if let reason { omitted[index] = reason }
            switch reason {
            case nil, .carried?: sizes.append(size)
            case .overBudget(let taken, _)?: sizes.append(taken)
            default: sizes.append(0)
            }
        }
    }

    let paths: RecordPaths
    let classNames: [String]
    let kinds: [ObjectKind]
    let sizes: [Int]
    let omitted: [Int: PreservationReport.Reason]

    var count: Int { classNames.count }

    init(_ columns: consuming Columns) {
        paths = columns.paths
        classNames = columns.classNames
        kinds = columns.kinds
        sizes = columns.sizes
        omitted = columns.omitted
    }
}
