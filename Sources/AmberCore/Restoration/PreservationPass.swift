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
        let identifier: String
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

    /// A record's restoration path.
    func path(ofRecord index: Int) -> [String] {
        var reversed: [String] = []
        var i = index
        while i >= 0 {
            let r = records[i]
            if let path = r.path {
                return path + reversed.reversed()
            }
            reversed.append(RestorableObject.component(r.identifier, r.occurrence))
            i = r.parent
        }
        return reversed.reversed()
    }

    private struct Pending {
        let object: RestorableObject
        let parent: Int
        let identifier: String
        let occurrence: Int
        let relation: ObjectRelation
    }

    private func markDuplicate(_ object: RestorableObject, _ path: [String]) {
        object.passID = id
        object.passIndex = -2
        duplicates.append(path)
    }

    /// Walks the trees from the roots: an object is recorded if it and all its ancestors have
    /// an identifier and its path is not taken; in each controller its views, then its children
    /// in order, then its presented controller. Iterative, so deep trees do not exhaust the stack.
    /// `expected`: a hint, the number of records expected.
    ///
    /// With `archiver`, each recorded identifier is stored in it as the object is recorded,
    /// while the string is in the cache (`Record.identifierUID`), rather than when the record
    /// is encoded.
    func walk(roots: [RestorableObject], expected: Int = 0, archiver: KeyedArchiver? = nil) {
        if expected > 0 { records.reserveCapacity(expected) }
        var rootNames = SiblingNames()
        var stack: [Pending] = []
        for root in roots where root.parent == nil && root.passID != id {
            guard let rid = root.identifier else { continue }
            guard rootNames.insert(rid) else {
                markDuplicate(root, [rid])
                continue
            }
            root.passID = id
            root.passIndex = -1
            stack.append(Pending(object: root, parent: -1, identifier: rid, occurrence: 0, relation: .none))
        }
        stack.reverse()
        var names = SiblingNames()
        var stackCounts: [String: Int] = [:]
        while let item = stack.popLast() {
            let o = item.object
            let index = records.count
            o.passIndex = index
            records.append(Record(
                object: o, parent: item.parent, identifier: item.identifier, occurrence: item.occurrence,
                relation: item.relation, isRoot: item.parent < 0,
                path: item.parent < 0 ? [item.identifier] : nil,
                identifierUID: archiver?.stringUID(item.identifier) ?? -1))
            if o.views.isEmpty, o.children.isEmpty, o.presented == nil { continue }
            names.removeAll()
            // The children taken go on the stack in order, then that part is reversed, so
            // that the first is walked first.
            let base = stack.count
            func consider(_ c: RestorableObject, _ relation: ObjectRelation, _ occurrence: Int, _ cid: String) {
                guard c.passID != id else { return }
                guard names.insert(RestorableObject.component(cid, occurrence)) else {
                    markDuplicate(c, path(ofRecord: index) + [RestorableObject.component(cid, occurrence)])
                    return
                }
                c.passID = id
                c.passIndex = -1
                stack.append(Pending(object: c, parent: index, identifier: cid, occurrence: occurrence, relation: relation))
            }
            for v in o.views {
                if let vid = v.identifier { consider(v, .view, 0, vid) }
            }
            if o.isStackContainer {
                stackCounts.removeAll(keepingCapacity: true)
                for c in o.children {
                    guard let cid = c.identifier else { continue }
                    let k = stackCounts[cid, default: 0]
                    stackCounts[cid] = k + 1
                    consider(c, .child, k, cid)
                }
            } else {
                for c in o.children {
                    if let cid = c.identifier { consider(c, .child, 0, cid) }
                }
            }
            if let p = o.presented, let pid = p.identifier { consider(p, .presented, 0, pid) }
            var (lo, hi) = (base, stack.count - 1)
            while lo < hi {
                stack.swapAt(lo, hi)
                lo += 1
                hi -= 1
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
