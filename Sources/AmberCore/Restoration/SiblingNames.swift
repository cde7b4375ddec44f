/// The path components already taken among one parent's preserved objects (SPEC R3): a short
/// list while there are few, a set beyond.
struct SiblingNames {
    private var list: [String] = []
    private var set: Set<String>?

    /// Takes a name; false if it was taken already.
    mutating func insert(_ name: String) -> Bool {
        if set != nil { return set!.insert(name).inserted }
        for n in list where n == name { return false }
        list.append(name)
        if list.count > 12 {
            set = Set(list)
            list = []
        }
        return true
    }

    /// Forgets every name, keeping the list's storage (one list serves each parent in turn).
    mutating func removeAll() {
        list.removeAll(keepingCapacity: true)
        set = nil
    }
}
