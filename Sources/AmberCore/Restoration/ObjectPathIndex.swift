/// The objects of the host's trees by restoration path, for implicit lookup (SPEC R10 step 3)
/// and for the objects under one that claims kept records late (SPEC R35).
///
/// The index is itself a tree of path components: each object is one entry, found by the entry
/// of the object above it and its own last component (identifier and stack position). So it
/// holds one key per object whatever the trees' shape, where a table by whole path would hold,
/// and hash, a path per object: for a chain of N objects, N²/2 components.
///
/// Entries are made in the walk's order (views, children, presented controller, plain
/// objects, depth first, without recursion); the first object of a path wins, and the objects
/// under one that lost are not indexed (their paths lead under the winner).
struct ObjectPathIndex {
    /// An entry's key: the entry above it (`top` for the first component of a path) and its
    /// last component.
    private struct Key: Hashable {
        let above: Int
        let component: PathComponent
    }

    /// The entry above the first component of every path.
    static let top = -1

    private var entries: [Key: Int] = [:]
    /// The object of each entry, by entry; nil for an entry that only leads to others (the
    /// path above the object an index of a subtree starts from).
    private var objects: [RestorableObject?] = []

    /// The objects of the trees under `roots`: each root without a parent that has an
    /// identifier, and everything under it whose path is whole.
    init(roots: [RestorableObject]) {
        for root in roots where root.parent == nil {
            if let id = root.identifier { add(root, under: ObjectPathIndex.top, PathComponent(id)) }
        }
    }

    /// The object `object`, at restoration path `path` (its own, not empty), and everything
    /// under it whose path is whole.
    init(subtree object: RestorableObject, at path: [PathComponent]) {
        guard let last = path.last else { return }
        var above = ObjectPathIndex.top
        for component in path.dropLast() {
            let entry = objects.count
            entries[Key(above: above, component: component)] = entry
            objects.append(nil)
            above = entry
        }
        add(object, under: above, last)
    }

    /// The entry of the object (or path) at `component` under entry `above`, if any.
    func entry(under above: Int, _ component: PathComponent) -> Int? {
        entries[Key(above: above, component: component)]
    }

    /// The entry of a whole path, if any.
    func entry(at path: [PathComponent]) -> Int? {
        var above = ObjectPathIndex.top
        for component in path {
            guard let e = entry(under: above, component) else { return nil }
            above = e
        }
        return path.isEmpty ? nil : above
    }

    /// The object of an entry (nil for an entry above the objects indexed).
    func object(_ entry: Int) -> RestorableObject? {
        entry >= 0 && entry < objects.count ? objects[entry] : nil
    }

    /// Makes the entry of `component` under `above` for `object`; nil (and nothing changes) if
    /// the path has an entry already.
    private mutating func enter(under above: Int, _ component: PathComponent, _ object: RestorableObject?) -> Int? {
        let key = Key(above: above, component: component)
        guard entries[key] == nil else { return nil }
        let entry = objects.count
        entries[key] = entry
        objects.append(object)
        return entry
    }

    /// Enters `object` at `component` under `above`, then everything under it, depth first in
    /// the walk's order, with a stack of its own rather than recursion.
    private mutating func add(_ object: RestorableObject, under above: Int, _ component: PathComponent) {
        /// An object to enter, where.
        typealias Pending = (object: RestorableObject, above: Int, component: PathComponent)
        var stack: [Pending] = [(object, above, component)]
        var below: [Pending] = []
        var stackCounts: [String: Int] = [:]
        while let next = stack.popLast() {
            guard let entry = enter(under: next.above, next.component, next.object) else { continue }
            let o = next.object
            below.removeAll(keepingCapacity: true)
            for v in o.views { if let id = v.identifier { below.append((v, entry, PathComponent(id))) } }
            stackCounts.removeAll(keepingCapacity: true)
            for c in o.children {
                guard let id = c.identifier else { continue }
                var position = 0
                if o.isStackContainer {
                    position = stackCounts[id, default: 0]
                    stackCounts[id] = position + 1
                }
                below.append((c, entry, PathComponent(id, position: position)))
            }
            if let p = o.presented, let id = p.identifier { below.append((p, entry, PathComponent(id))) }
            for w in o.plainObjects {
                if let p = w.object, let id = p.identifier { below.append((p, entry, PathComponent(id))) }
            }
            // The first on top.
            stack.append(contentsOf: below.reversed())
        }
    }
}
