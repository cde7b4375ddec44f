import AmberArchive

/// One preservation: the walk that decides which objects are recorded (SPEC R2, R3), and the
/// objects that references add while their coders run (SPEC R4).
///
/// Objects are marked with the pass's random id and their record index, so finding whether an
/// object is recorded costs no lookup.
final class PreservationPass {
    /// An object to record.
    struct Record {
        /// Nil once the engine has taken it to encode it (`takeObject`).
        fileprivate(set) var object: RestorableObject?
        /// The index of the record it hangs from, or -1.
        let parent: Int
        /// The restoration identifier; nil when the walk stored it in the archiver
        /// (`identifierUID`), which gives it back (`identifier(ofRecord:)`).
        let identifier: String?
        /// Its position among same-identifier children of a stack (0: first).
        let occurrence: Int
        let relation: ObjectRelation
        /// Whether the walk started from it.
        let isRoot: Bool
        /// The whole path, for records without parent.
        let path: [String]?
        /// The UID of `identifier` in the archive, if the walk stored it there (-1: not yet).
        var identifierUID = -1
    }

    let id: UInt64
    /// Unchecked for exclusive access at run time: no access to it spans a call to host code
    /// (the engine reads a record's fields one at a time; references append between callbacks).
    @exclusivity(unchecked) private(set) var records: [Record] = []
    private(set) var duplicates: [[String]] = []
    /// The archiver the walk stored the identifiers in.
    private var archiver: KeyedArchiver?
    /// Every recorded path, made the first time a reference needs it.
    private var paths: Set<[String]>?

    init() {
        id = UInt64.random(in: 1 ... UInt64.max)
    }

    /// The object of record `index`, taken out of the record (moved, not copied): each record
    /// is encoded once, in order, and the pass's reference to its object then goes while the
    /// object's memory is still in the cache, rather than all together when the pass ends.
    /// Nothing else reads a record's object.
    func takeObject(_ index: Int) -> RestorableObject? {
        records[index].object.take()
    }

    /// A record's restoration identifier.
    func identifier(ofRecord index: Int) -> String {
        if let identifier = records[index].identifier { return identifier }
        return archiver?.string(uid: records[index].identifierUID) ?? ""
    }

    /// A record's restoration path.
    func path(ofRecord index: Int) -> [String] {
        var reversed: [String] = []
        var i = index
        while i >= 0 {
            if let path = records[i].path {
                return path + reversed.reversed()
            }
            reversed.append(RestorableObject.component(identifier(ofRecord: i), records[i].occurrence))
            i = records[i].parent
        }
        return reversed.reversed()
    }

    private func markDuplicate(_ object: RestorableObject, _ path: [String]) {
        object.passID = id
        object.passIndex = -2
        duplicates.append(path)
    }

    /// `passIndex` of an object the walk has taken but not recorded yet, at position
    /// `occurrence` among its stack's children with its identifier (below -2, so that it is told
    /// apart from a duplicate's -2 and a record's index).
    @inline(__always)
    private static func pendingMark(_ occurrence: Int) -> Int { -3 - occurrence }

    /// The occurrence a `pendingMark` holds (its inverse).
    @inline(__always)
    private static func occurrence(ofPendingMark mark: Int) -> Int { -3 - mark }

    /// An object the walk has taken (`pendingMark`) and will record: where it hangs.
    private struct Taken {
        let object: RestorableObject
        let parent: Int
        let relation: ObjectRelation
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
        if expected > 0 { records.reserveCapacity(expected) }
        self.archiver = archiver
        var rootNames = SiblingNames()
        var accepted: [RestorableObject] = []
        for root in roots where root.parent == nil && root.passID != id {
            guard let rid = root.identifier else { continue }
            guard rootNames.insert(rid) else {
                markDuplicate(root, [rid])
                continue
            }
            root.passID = id
            root.passIndex = PreservationPass.pendingMark(0)
            accepted.append(root)
        }
        var names = SiblingNames()
        var stackCounts: [String: Int] = [:]
        var taken: [Taken] = []

        /// Takes the objects of record `index`'s object `o` that are to be recorded: those with
        /// an identifier whose path is not taken by an earlier one (the others are duplicates),
        /// put on `taken` in reverse order (the first on top).
        func mark(_ o: RestorableObject, _ index: Int) {
            names.removeAll()
            let mark = taken.count
            func consider(_ c: RestorableObject, _ occurrence: Int, _ cid: String, _ relation: ObjectRelation) {
                guard c.passID != id else { return }
                guard names.insert(RestorableObject.component(cid, occurrence)) else {
                    markDuplicate(c, path(ofRecord: index) + [RestorableObject.component(cid, occurrence)])
                    return
                }
                c.passID = id
                c.passIndex = PreservationPass.pendingMark(occurrence)
                taken.append(Taken(object: c, parent: index, relation: relation))
            }
            for v in o.views {
                if let vid = v.identifier { consider(v, 0, vid, .view) }
            }
            if o.isStackContainer {
                stackCounts.removeAll(keepingCapacity: true)
                for c in o.children {
                    guard let cid = c.identifier else { continue }
                    let k = stackCounts[cid, default: 0]
                    stackCounts[cid] = k + 1
                    consider(c, k, cid, .child)
                }
            } else {
                for c in o.children {
                    if let cid = c.identifier { consider(c, 0, cid, .child) }
                }
            }
            if let p = o.presented, let pid = p.identifier { consider(p, 0, pid, .presented) }
            // The first taken on top.
            var i = mark, j = taken.count - 1
            while i < j {
                taken.swapAt(i, j)
                i += 1
                j -= 1
            }
        }

        for root in accepted {
            taken.append(Taken(object: root, parent: -1, relation: .none))
            while let next = taken.popLast() {
                let o = next.object
                // Taken by this walk and not recorded yet (an object has one place, so this
                // holds; checked so that nothing is recorded twice).
                guard o.passID == id, o.passIndex <= -3 else { continue }
                let index = records.count
                let occurrence = PreservationPass.occurrence(ofPendingMark: o.passIndex)
                o.passIndex = index
                let identifier = o.identifier ?? ""
                // The identifier is kept in the archiver only (read back for the rare path
                // that needs it): one string fewer to release, cold, when the pass ends.
                let uid = archiver?.stringUID(identifier) ?? -1
                records.append(Record(
                    object: o, parent: next.parent, identifier: uid >= 0 ? nil : identifier, occurrence: occurrence,
                    relation: next.relation, isRoot: next.parent < 0, path: next.parent < 0 ? [identifier] : nil,
                    identifierUID: uid))
                // After the record exists: a duplicate's path is made from it.
                if !(o.views.isEmpty && o.children.isEmpty && o.presented == nil) { mark(o, index) }
            }
        }
    }

    /// The record index of a referenced object, recording it if the walk did not (SPEC R4).
    /// - Throws: `.invalidArgument` if it has no restoration path; `.duplicate` if its path is
    ///   another recorded object's.
    func reference(to target: RestorableObject) throws(AmberError) -> Int {
        if target.passID == id {
            if target.passIndex >= 0 { return target.passIndex }
            if target.passIndex == -2 {
                throw AmberError(.duplicate, "the referenced object '\(target.describe)' has the restoration path of another preserved object")
            }
        }
        guard let path = target.restorationPath, let identifier = target.identifier else {
            throw AmberError(
                .invalidArgument,
                "the referenced object (\(target.className)) has no restoration path: it or an ancestor has no restoration identifier")
        }
        if paths == nil {
            var all = Set<[String]>(minimumCapacity: records.count + 8)
            for i in records.indices { all.insert(self.path(ofRecord: i)) }
            paths = all
        }
        guard paths!.insert(path).inserted else {
            markDuplicate(target, path)
            throw AmberError(.duplicate, "the referenced object's path /\(path.joined(separator: "/")) is another preserved object's")
        }
        var parent = -1
        if let p = target.parent, p.passID == id, p.passIndex >= 0 { parent = p.passIndex }
        let index = records.count
        records.append(Record(
            object: target, parent: parent, identifier: identifier, occurrence: target.stackOccurrence,
            relation: target.relation, isRoot: false, path: parent < 0 ? path : nil))
        target.passID = id
        target.passIndex = index
        return index
    }
}
