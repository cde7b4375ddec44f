import AmberArchive

/// The UIDs in one archive of the class names and restoration class names its records name:
/// a preservation's records repeat a few of them, and comparing a name with a few others costs
/// less than the archiver's hashing of it. At most 16 are kept; others go to the archiver.
struct ClassNameUIDs {
    private var names: [String] = []
    private var uids: [Int] = []
    static let capacity = 16

    /// The UID of string `name` in `archiver`, stored there the first time. One `ClassNameUIDs`
    /// serves one archiver.
    mutating func uid(_ name: String, in archiver: KeyedArchiver) -> Int {
        let n = name.utf8.count
        var i = 0
        while i < names.count {
            if names[i].utf8.count == n, names[i] == name { return uids[i] }
            i += 1
        }
        let uid = archiver.stringUID(name)
        if names.count < Self.capacity {
            names.append(name)
            uids.append(uid)
        }
        return uid
    }
}
