/// Strings an unarchiver made recently, by the object table reference of their string object:
/// a string that many objects share (a class name, a title) is made once and then shared, while
/// a string met once costs no more than a slot overwritten. Direct-mapped, 1,024 slots.
struct RecentStrings {
    private var refs = [Int](repeating: -1, count: RecentStrings.slots)
    private var strings = [String](repeating: "", count: RecentStrings.slots)
    private static let slots = 1024

    /// The string made last for string object `ref`, if it is still kept.
    @inline(__always)
    func find(_ ref: Int) -> String? {
        let slot = ref & (Self.slots - 1)
        return refs[slot] == ref ? strings[slot] : nil
    }

    /// Keeps `string`, made for string object `ref`.
    @inline(__always)
    mutating func store(_ string: String, for ref: Int) {
        let slot = ref & (Self.slots - 1)
        refs[slot] = ref
        strings[slot] = string
    }
}
