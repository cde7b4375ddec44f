/// The restoration paths of an archive's records, kept as each record's parent and last
/// component (a record without parent keeps its whole path): a path is made when asked for,
/// so that a save or a restore does not hold an array of strings per record, and the records
/// of its report share this table instead of a path each.
final class RecordPaths {
    private var parents: [Int32] = []
    private var identifiers: [String] = []
    /// Stack positions, by record index; only records with a position other than 0.
    private var positions: [Int: Int] = [:]
    /// The whole paths of records without parent, by record index.
    private var rootPaths: [Int: [PathComponent]] = [:]

    var count: Int { parents.count }

    func reserveCapacity(_ n: Int) {
        parents.reserveCapacity(n)
        identifiers.reserveCapacity(n)
    }

    /// Appends a record under record `parent` (which comes before it).
    func append(parent: Int, component: PathComponent) {
        if component.position != 0 { positions[parents.count] = component.position }
        parents.append(Int32(truncatingIfNeeded: parent))
        identifiers.append(component.identifier)
    }

    /// Appends a record without parent, with its whole path.
    func append(root path: [PathComponent]) {
        if let last = path.last, last.position != 0 { positions[parents.count] = last.position }
        rootPaths[parents.count] = path
        parents.append(-1)
        identifiers.append(path.last?.identifier ?? "")
    }

    /// The record that record `index` hangs from (-1: none, or no such record).
    func parent(_ index: Int) -> Int {
        index >= 0 && index < parents.count ? Int(parents[index]) : -1
    }

    /// The identifier of record `index`, the last component of its path ("" for no such record).
    func identifier(_ index: Int) -> String {
        index >= 0 && index < identifiers.count ? identifiers[index] : ""
    }

    /// The stack position of record `index` (0 for no such record).
    func position(_ index: Int) -> Int { positions.isEmpty ? 0 : positions[index] ?? 0 }

    /// The whole path of record `index` if it has no parent (nil otherwise).
    func wholePath(_ index: Int) -> [PathComponent]? { rootPaths[index] }

    /// The path of record `index`: its identifiers.
    func path(_ index: Int) -> [String] {
        let identifiers = self.identifiers
        return build(index, { $0.identifier }, { identifiers[$0] })
    }

    /// The path of record `index` with each component's stack position.
    func components(_ index: Int) -> [PathComponent] {
        let identifiers = self.identifiers, positions = self.positions
        return build(index, { $0 }, { PathComponent(identifiers[$0], position: positions[$0] ?? 0) })
    }

    /// A path of record `index` (empty for no such record): the whole path of the record without
    /// parent it descends from (`fromRoot` of each of its components), then one element per
    /// record down to `index` (`element` of the record), made in place, at its final length.
    /// (The tables are read once into locals, here and in the callers' `element`: one access to
    /// each rather than one per component.)
    private func build<T>(_ index: Int, _ fromRoot: (PathComponent) -> T, _ element: (Int) -> T) -> [T] {
        let parents = self.parents
        guard index >= 0, index < parents.count else { return [] }
        var depth = 0
        var top = index
        while parents[top] >= 0 {
            depth += 1
            top = Int(parents[top])
        }
        var path: [T] = []
        if let whole = rootPaths[top] {
            path.reserveCapacity(whole.count + depth)
            for c in whole { path.append(fromRoot(c)) }
        } else {
            path.reserveCapacity(depth + 1)
            path.append(element(top))
        }
        let start = path.count
        var i = index
        for _ in 0 ..< depth {
            path.append(element(i))
            i = Int(parents[i])
        }
        path.reverseSuffix(from: start)
        return path
    }
}
