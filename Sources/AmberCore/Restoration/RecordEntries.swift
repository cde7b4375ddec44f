/// The entries in an `ObjectPathIndex` of an archive's records, each found from its parent
/// record's entry and remembered: one lookup per record, where a lookup by whole path costs a
/// path per record. A record without parent is looked up by its whole path.
struct RecordEntries {
    private let paths: RecordPaths
    /// Each record's entry: `unknown` until asked, `none` when the index has none.
    private var known: [Int]
    private static let unknown = -2
    private static let none = -1

    init(paths: RecordPaths) {
        self.paths = paths
        known = [Int](repeating: RecordEntries.unknown, count: paths.count)
    }

    /// The object of record `i` in `index`, if the index has its path.
    mutating func object(ofRecord i: Int, in index: ObjectPathIndex) -> RestorableObject? {
        guard let e = entry(ofRecord: i, in: index) else { return nil }
        return index.object(e)
    }

    /// The entry of record `i`'s path in `index`: the records above it not yet known are found
    /// first, from the highest down, without recursion.
    mutating func entry(ofRecord i: Int, in index: ObjectPathIndex) -> Int? {
        guard i >= 0, i < known.count else { return nil }
        var pending: [Int] = []
        var j = i
        while known[j] == RecordEntries.unknown {
            pending.append(j)
            let p = paths.parent(j)
            // A parent comes before its record (the archive is checked for it); anything else
            // is treated as a record without parent.
            guard p >= 0, p < j else { break }
            j = p
        }
        for k in pending.reversed() {
            let p = paths.parent(k)
            let found: Int?
            if p >= 0, p < k {
                let above = known[p]
                found = above == RecordEntries.none
                    ? nil : index.entry(under: above, PathComponent(paths.identifier(k), position: paths.position(k)))
            } else {
                found = index.entry(at: paths.components(k))
            }
            known[k] = found ?? RecordEntries.none
        }
        return known[i] == RecordEntries.none ? nil : known[i]
    }
}
