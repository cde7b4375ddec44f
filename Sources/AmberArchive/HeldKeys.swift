/// Finds whether the object being written holds a key already, by searching the object's own
/// key/value pairs (`ArchiveWriter.pairs`): a key is the object table reference of its string,
/// and each string is stored once, so equal keys have equal references. The engine refuses a
/// key written twice (SPEC R5) with this, rather than keeping a second list of the keys.
///
/// Objects hold few keys: their references are compared one by one. Past `linearLimit` keys
/// the keys searched are put in a set, for one object at a time (the one searched last), so
/// that an object written with n keys costs n lookups, not n² comparisons.
struct HeldKeys {
    /// The most keys compared one by one in a search; more go into the set.
    static let linearLimit = 32

    /// The object whose keys `indexed` holds (its UID and where its pairs begin; `Int.min`:
    /// none), and the end of the pairs indexed.
    private var object = Int.min
    private var start = 0
    private var indexedEnd = 0
    private var indexed: Set<Int32> = []

    /// Whether `pairs[start...]`, the interleaved key/value references of the open object `uid`,
    /// hold the key reference `key`.
    mutating func contains(_ key: Int32, in pairs: [Int32], start: Int, object uid: Int) -> Bool {
        var from = start
        if object == uid, self.start == start, indexedEnd <= pairs.count {
            if indexed.contains(key) { return true }
            from = indexedEnd
        }
        var i = from
        while i < pairs.count {
            if pairs[i] == key { return true }
            i += 2
        }
        if (pairs.count - from) / 2 > Self.linearLimit { index(pairs, from: from, start: start, object: uid) }
        return false
    }

    /// Adds the keys of `pairs[from...]` to the set, starting it afresh for another object.
    private mutating func index(_ pairs: [Int32], from: Int, start: Int, object uid: Int) {
        if object != uid || self.start != start {
            indexed.removeAll()
            object = uid
            self.start = start
        }
        for i in stride(from: from, to: pairs.count, by: 2) { indexed.insert(pairs[i]) }
        indexedEnd = pairs.count
    }

    /// Forgets the set: pairs were taken back (`KeyedArchiver.rollBack(to:)`), and others may
    /// take their place.
    mutating func reset() {
        object = Int.min
        indexed.removeAll()
        indexedEnd = 0
    }
}
