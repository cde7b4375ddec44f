import AmberArchive

/// One preservation: the walk that decides which objects are recorded (SPEC R2, R3), the
/// objects that references add while their coders run (SPEC R4), and what was left out and why
/// (SPEC R28).
///
/// Objects are marked with the pass's random id and their record index, so finding whether an
/// object is recorded costs no lookup.
final class PreservationPass {
    /// An object to record: plain values, copied without reference counting. The object itself
    /// is kept apart (`objects`), and its path, class and kind in `preserved`.
    struct Record {
        /// The index of the record it hangs from, or -1: then `preserved` holds its whole path.
        let parent: Int
        /// For a record without parent (an object recorded by reference whose parent is not
        /// recorded): the record of its nearest recorded ancestor, or -1. Restoration treats it
        /// as under that record (a declined ancestor's subtree, SPEC R10).
        let ancestor: Int
        let relation: ObjectRelation
        /// Whether the walk started from it.
        let isRoot: Bool
        /// How many identifiers its path has (1 for a root).
        let depth: Int
        /// The UID of its identifier in the archive, if the walk stored it there (-1: not yet).
        var identifierUID = -1
    }

    /// An object the pass did not record, and why (SPEC R28).
    struct LeftOut {
        let object: RestorableObject
        let path: [PathComponent]
        let reason: PreservationReport.Reason
    }

    let id: UInt64
    /// The records, in the order made. No access to it spans a call to host code (the engine
    /// reads a record's fields one at a time; references append between callbacks), so a host
    /// that calls back into the pass never meets an access in progress.
    private(set) var records: [Record] = []
    /// The object of each record; nil once the engine has taken it to encode it (`takeObject`).
    private var objects: [RestorableObject?] = []
    /// What the report keeps of each record (SPEC R28): its path, class and kind, appended as
    /// the record is made, while its object is at hand; the engine completes each with its size
    /// as it encodes it (`complete`), then takes them (`takePreserved`).
    private(set) var preserved: PreservedRecords.Columns
    /// The records' paths: `preserved.paths`, kept after the columns are taken, so that a coder
    /// a host kept past the pass still names its record in its messages.
    private let paths: RecordPaths
    /// Duplicates met by the walk and by references, in the order met.
    private(set) var leftOut: [LeftOut] = []
    /// Whether the walk has run (`walk(roots:expected:archiver:)`).
    private(set) var hasWalked = false
    /// Every recorded path with its record, made the first time a reference needs it.
    private var pathIndex: [[PathComponent]: Int]?

    /// The limits restoration reads with: what the pass records and its coders write keep
    /// within them (SPEC R22), so that what is saved can be restored.
    let limits: ArchiveLimits
    /// The deepest path recorded (`limits.maxDepth`).
    var maxDepth: Int { limits.maxDepth }

    /// What the pass's coders know of sensitive values (SPEC R34).
    let sensitive: SensitiveValues

    init(limits: ArchiveLimits = .default, encrypts: Bool = true) {
        let paths = RecordPaths()
        self.paths = paths
        preserved = PreservedRecords.Columns(capacity: 0, paths: paths)
        id = UInt64.random(in: 1 ... UInt64.max)
        self.limits = limits
        sensitive = SensitiveValues(encrypts: encrypts)
    }

    /// The object of record `index`, taken out of `objects` (moved, not copied): each record is
    /// encoded once, in order, and the pass's reference to its object then goes while the
    /// object's memory is still in the cache, rather than all together when the pass ends.
    /// After that only a duplicate's report reads it (the object kept, if it is still there).
    func takeObject(_ index: Int) -> RestorableObject? {
        objects[index].take()
    }

    /// A record's restoration identifier.
    func identifier(ofRecord index: Int) -> String { paths.identifier(index) }

    /// A record's position among the same-identifier children of a stack (0: first).
    func position(ofRecord index: Int) -> Int { paths.position(index) }

    /// The whole path of a record without parent.
    func wholePath(ofRecord index: Int) -> [PathComponent]? { paths.wholePath(index) }

    /// A record's class name, as it was when the record was made: the archive and the report
    /// both name this one.
    func className(ofRecord index: Int) -> String { preserved.classNames[index] }

    /// Completes record `index`, the next one not completed, once it is encoded: its size, or
    /// why its state was left out (`PreservedRecords.Columns.complete`).
    func complete(_ index: Int, size: Int, omitted: PreservationReport.Reason?) {
        preserved.complete(index, size: size, omitted: omitted)
    }

    /// What the report keeps of the records (`preserved`), taken out of the pass once every
    /// record is encoded.
    func takePreserved() -> PreservedRecords.Columns {
        defer { preserved = PreservedRecords.Columns(capacity: 0) }
        return preserved
    }

    /// Objects the walk met under recorded ones (or as roots) and did not take: those without
    /// an identifier, and plain objects (recorded only if referenced). The preservation report
    /// says why each, and what is under it, was left out (SPEC R28).
    private(set) var outside: [RestorableObject] = []

    /// A record's restoration path with its stack positions.
    func components(ofRecord index: Int) -> [PathComponent] { paths.components(index) }

    /// A record's restoration path: its identifiers.
    func path(ofRecord index: Int) -> [String] { paths.path(index) }

    /// The record a record hangs from: its parent, or for a record without one its recorded
    /// ancestor (-1: none). It comes before the record.
    func above(_ index: Int) -> Int {
        records[index].parent >= 0 ? records[index].parent : records[index].ancestor
    }

    private func markDuplicate(_ object: RestorableObject, _ path: [PathComponent], kept: RestorableObject?, keptPath: [PathComponent]) {
        markLeftOut(
            object, path,
            .duplicatePath(kept: kept.map { "\(PathComponent.describe(keptPath)) (\($0.className))" } ?? PathComponent.describe(keptPath)))
    }

    /// Marks an object the walk does not record, with its subtree, and why.
    private func markLeftOut(_ object: RestorableObject, _ path: [PathComponent], _ reason: PreservationReport.Reason) {
        object.passID = id
        object.passIndex = -2
        leftOut.append(LeftOut(object: object, path: path, reason: reason))
    }

    /// `passIndex` of an object the walk has taken but not recorded yet, at position
    /// `position` among its stack's children with its identifier (below -2, so that it is told
    /// apart from a duplicate's -2 and a record's index).
    private static func pendingMark(_ position: Int) -> Int { -3 - position }

    /// The position a `pendingMark` holds (its inverse).
    private static func position(ofPendingMark mark: Int) -> Int { -3 - mark }

    /// An object the walk has taken (`pendingMark`) and will record: where it hangs.
    private struct Taken {
        let object: RestorableObject
        let parent: Int
        let relation: ObjectRelation
    }

    /// What the walk carries from one object to the next: the components taken among the
    /// current object's objects, the stack positions counted so far, and the objects taken and
    /// not recorded yet (the next on top). Kept between objects so that each costs no allocation.
    private struct Walker {
        var names = SiblingNames()
        var stackCounts: [String: Int] = [:]
        var taken: [Taken] = []
    }

    /// Walks the trees from the roots: an object is recorded if it and all its ancestors have
    /// an identifier and its path is not taken; in each controller its views, then its children
    /// in order, then its presented controller. Iterative, so deep trees do not exhaust the
    /// stack: when an object is recorded its objects are checked at once (identifiers, positions
    /// in a stack, duplicates), marked taken (`pendingMark`) and put on a stack of objects to
    /// record, the first on top, so that the records come in the walk's order (depth first, in
    /// pre-order). Each object is met once: what the walk needs of it is read then.
    /// `expected`: a hint, the number of records expected.
    ///
    /// With `archiver`, each recorded identifier is stored in it as the object is recorded,
    /// while the string is in the cache (`Record.identifierUID`), rather than when the record
    /// is encoded.
    func walk(roots: [RestorableObject], expected: Int = 0, archiver: KeyedArchiver? = nil) {
        hasWalked = true
        if expected > 0 {
            records.reserveCapacity(records.count + expected)
            objects.reserveCapacity(records.count + expected)
            preserved.reserveCapacity(records.count + expected)
        }
        var rootNames = SiblingNames()
        var accepted: [RestorableObject] = []
        for root in roots where root.parent == nil && root.passID != id {
            guard let rid = root.identifier else {
                outside.append(root)
                continue
            }
            guard rootNames.insert(PathComponent(rid)) else {
                let kept = accepted.first { $0.identifier == rid }
                markDuplicate(root, [PathComponent(rid)], kept: kept, keptPath: [PathComponent(rid)])
                continue
            }
            root.passID = id
            root.passIndex = PreservationPass.pendingMark(0)
            accepted.append(root)
        }
        var walker = Walker()
        for root in accepted {
            walker.taken.append(Taken(object: root, parent: -1, relation: .none))
            recordTaken(&walker, archiver: archiver)
        }
    }

    /// Records the objects taken, the next first, and takes the objects of each in turn, until
    /// none is left: the subtree of what was taken, in the walk's order.
    private func recordTaken(_ walker: inout Walker, archiver: KeyedArchiver?) {
        while let next = walker.taken.popLast() {
            let o = next.object
            // Taken by this walk and not recorded yet (an object has one place, so this
            // holds; checked so that nothing is recorded twice).
            guard o.passID == id, o.passIndex <= -3 else { continue }
            let index = records.count
            let position = PreservationPass.position(ofPendingMark: o.passIndex)
            o.passIndex = index
            let identifier = o.identifier ?? ""
            let uid = archiver?.stringUID(identifier) ?? -1
            objects.append(o)
            records.append(Record(
                parent: next.parent, ancestor: -1, relation: next.relation, isRoot: next.parent < 0,
                depth: next.parent < 0 ? 1 : records[next.parent].depth + 1, identifierUID: uid))
            if next.parent < 0 {
                preserved.append(root: [PathComponent(identifier)], className: o.className, kind: o.kind)
            } else {
                preserved.append(
                    parent: next.parent, component: PathComponent(identifier, position: position), className: o.className, kind: o.kind)
            }
            // Once references have begun, every recorded path is in `pathIndex`.
            if pathIndex != nil { pathIndex![components(ofRecord: index)] = index }
            // After the record exists: a duplicate's path is made from it.
            if !(o.views.isEmpty && o.children.isEmpty && o.presented == nil && o.plainObjects.isEmpty) {
                take(under: o, index, &walker)
            }
        }
    }

    /// Takes the objects of record `index`'s object `o` that are to be recorded: those with an
    /// identifier whose path is not taken by an earlier one (the others are duplicates), put on
    /// `walker.taken` in reverse order (the first on top). Those without an identifier, and its
    /// plain objects, go to `outside`.
    ///
    /// Once references have begun (`pathIndex`), a path may also be taken by an object recorded by
    /// reference elsewhere (its whole path skips ancestors without an identifier), so each is
    /// checked against every recorded path too.
    private func take(under o: RestorableObject, _ index: Int, _ walker: inout Walker) {
        walker.names.removeAll()
        let mark = walker.taken.count
        let tooDeep = records[index].depth >= maxDepth
        let base = pathIndex == nil ? nil : components(ofRecord: index)
        func consider(_ c: RestorableObject, _ position: Int, _ cid: String, _ relation: ObjectRelation) {
            guard c.passID != id else { return }
            let component = PathComponent(cid, position: position)
            if tooDeep {
                markLeftOut(c, components(ofRecord: index) + [component], .tooDeep(limit: maxDepth, below: c.dependentCount()))
                return
            }
            guard walker.names.insert(component) else {
                let path = components(ofRecord: index) + [component]
                markDuplicate(c, path, kept: kept(under: o, component, path: path), keptPath: path)
                return
            }
            if let base, let kept = pathIndex![base + [component]] {
                let path = base + [component]
                markDuplicate(c, path, kept: objects[kept], keptPath: path)
                return
            }
            c.passID = id
            c.passIndex = PreservationPass.pendingMark(position)
            walker.taken.append(Taken(object: c, parent: index, relation: relation))
        }
        for v in o.views {
            if let vid = v.identifier { consider(v, 0, vid, .view) } else { outside.append(v) }
        }
        if o.isStackContainer {
            walker.stackCounts.removeAll(keepingCapacity: true)
            for c in o.children {
                guard let cid = c.identifier else {
                    outside.append(c)
                    continue
                }
                let k = walker.stackCounts[cid, default: 0]
                walker.stackCounts[cid] = k + 1
                consider(c, k, cid, .child)
            }
        } else {
            for c in o.children {
                if let cid = c.identifier { consider(c, 0, cid, .child) } else { outside.append(c) }
            }
        }
        if let p = o.presented {
            if let pid = p.identifier { consider(p, 0, pid, .presented) } else { outside.append(p) }
        }
        for w in o.plainObjects { if let p = w.object { outside.append(p) } }
        // The first taken on top.
        walker.taken.reverseSuffix(from: mark)
    }

    /// The object a duplicate with `component` under `o` (at `path`) lost to: the sibling the
    /// walk took with that component, or, if that one lost the path to an object recorded by
    /// reference, that object.
    private func kept(under o: RestorableObject, _ component: PathComponent, path: [PathComponent]) -> RestorableObject? {
        if let sibling = taken(under: o, component) { return sibling }
        guard let recorded = pathIndex?[path] else { return nil }
        return objects[recorded]
    }

    /// The object of `o` that the walk has taken with `component`, not recorded yet: the one
    /// kept when another of `o`'s objects has the same component (`take(under:_:_:)`). A view
    /// or a child: the presented controller is taken last, so it is never the one kept.
    private func taken(under o: RestorableObject, _ component: PathComponent) -> RestorableObject? {
        let mark = PreservationPass.pendingMark(component.position)
        func isTaken(_ c: RestorableObject) -> Bool {
            c.passID == id && c.passIndex == mark && c.identifier == component.identifier
        }
        return o.views.first(where: isTaken) ?? o.children.first(where: isTaken)
    }

    /// The record index of a referenced object, recording it if the walk did not (SPEC R4). Its
    /// path is its own identifier under those of its ancestors that have one. Recorded now, it
    /// is walked as a root would be: its identified views and children are recorded under it
    /// (SPEC R2, R3), and what the walk leaves out there is reported (SPEC R28).
    /// - Throws: `.invalidArgument` if it has no restoration identifier; `.duplicate` if its path
    ///   is another recorded object's (naming it).
    func reference(to target: RestorableObject) throws(AmberError) -> Int {
        if target.passID == id {
            if target.passIndex >= 0 { return target.passIndex }
            if target.passIndex == -2 {
                throw AmberError(.duplicate, "the referenced object '\(target.describe)' has the restoration path of another preserved object")
            }
        }
        guard let identifier = target.identifier else {
            throw AmberError(
                .invalidArgument,
                "the referenced object (\(target.className)) has no restoration identifier: only an object with one can be preserved")
        }
        // Checked before its path is made: an object deep in a host's tree costs no more than
        // the limit, rather than a path as deep as the tree.
        guard target.identifiedDepth(upTo: maxDepth + 1) <= maxDepth else {
            throw AmberError(
                .limitExceeded,
                "the referenced object '\(identifier)' (\(target.className)) is more than \(maxDepth) levels deep; the limit is \(maxDepth)")
        }
        let path = target.identifiedComponents
        if pathIndex == nil {
            var all = [[PathComponent]: Int](minimumCapacity: records.count + 8)
            for i in records.indices { all[components(ofRecord: i)] = i }
            pathIndex = all
        }
        if let kept = pathIndex![path] {
            // The kept object is named with its class while the pass still holds it (until its
            // record is encoded).
            markDuplicate(target, path, kept: objects[kept], keptPath: components(ofRecord: kept))
            throw AmberError(.duplicate, "the referenced object's path \(PathComponent.describe(path)) is another preserved object's")
        }
        // Its parent, if recorded: the record hangs from it. Otherwise the record has its whole
        // path, and is under its nearest recorded ancestor.
        var parent = -1
        var ancestor = -1
        if let p = target.parent, p.passID == id, p.passIndex >= 0 {
            parent = p.passIndex
        } else {
            var node = target.parent
            while let n = node {
                if n.passID == id, n.passIndex >= 0 {
                    ancestor = n.passIndex
                    break
                }
                node = n.parent
            }
        }
        let index = records.count
        objects.append(target)
        records.append(Record(
            parent: parent, ancestor: ancestor, relation: parent >= 0 ? target.relation : .none, isRoot: false,
            depth: path.count))
        if parent < 0 {
            preserved.append(root: path, className: target.className, kind: target.kind)
        } else {
            preserved.append(
                parent: parent, component: PathComponent(identifier, position: path.last?.position ?? 0), className: target.className,
                kind: target.kind)
        }
        pathIndex![path] = index
        target.passID = id
        target.passIndex = index
        // Its views and children are preserved as if it stood in the tree, under the walk's
        // rules: UIKit preserves a referenced controller "and their contents", recursively.
        var walker = Walker()
        if !(target.views.isEmpty && target.children.isEmpty && target.presented == nil && target.plainObjects.isEmpty) {
            take(under: target, index, &walker)
            recordTaken(&walker, archiver: nil)
        }
        return index
    }

    /// Whether the pass recorded `object`.
    func isRecorded(_ object: RestorableObject) -> Bool { object.passID == id && object.passIndex >= 0 }
}

/// The path components already taken among one parent's preserved objects (SPEC R3): a short
/// list while there are few (most parents have a handful of objects), a set beyond.
struct SiblingNames {
    private var list: [PathComponent] = []
    private var set: Set<PathComponent>?

    /// The most components kept in the list before they move to the set.
    static let listLimit = 12

    /// Takes `component`; false if it was taken already.
    mutating func insert(_ component: PathComponent) -> Bool {
        if set != nil { return set!.insert(component).inserted }
        if list.contains(component) { return false }
        list.append(component)
        if list.count > Self.listLimit {
            set = Set(list)
            list.removeAll(keepingCapacity: true)
        }
        return true
    }

    /// Forgets every component, keeping the list's storage (one list serves each parent in turn).
    mutating func removeAll() {
        list.removeAll(keepingCapacity: true)
        set = nil
    }
}
