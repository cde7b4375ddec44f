/// The object table reference of recently used keys, for the archiver's and the unarchiver's
/// `String`-keyed functions: a caller that writes or reads the same few keys for every object
/// finds each key's string object again without hashing or comparing it with the archive's
/// strings. Direct-mapped by the key's length and first byte; a key that collides with another
/// replaces it.
///
/// Keys must match byte for byte. `==` compares canonical equivalence, but an ASCII key is
/// canonically equivalent to no other string of as many UTF-8 bytes (non-ASCII scalars that
/// decompose to ASCII, like U+212A KELVIN SIGN, are longer), so for an ASCII key `==` with equal
/// byte counts is exact, and quick for strings with identical storage.
struct RecentKeys {
    private var keys: [String]
    private var refs: [Int]
    private var ascii: [Bool]
    private let mask: Int

    /// An empty cache of `slots` entries, a power of two.
    init(slots: Int) {
        precondition(slots > 0 && slots & (slots - 1) == 0, "slots must be a power of two")
        keys = [String](repeating: "", count: slots)
        refs = [Int](repeating: -1, count: slots)
        ascii = [Bool](repeating: false, count: slots)
        mask = slots - 1
    }

    @inline(__always)
    private func slot(_ key: String) -> Int {
        let utf8 = key.utf8
        return (utf8.count &* 29 &+ Int(utf8.first ?? 0) &* 7) & mask
    }

    /// The reference stored for `key` (-1 if none) and the slot to store it in.
    @inline(__always)
    func find(_ key: String) -> (ref: Int, slot: Int) {
        let i = slot(key)
        let r = refs[i]
        guard r >= 0, keys[i].utf8.count == key.utf8.count else { return (-1, i) }
        if ascii[i] ? keys[i] == key : sameUTF8(keys[i], key) { return (r, i) }
        return (-1, i)
    }

    /// Stores `ref` for `key` in the slot `find` gave.
    @inline(__always)
    mutating func store(_ key: String, _ ref: Int, at slot: Int) {
        keys[slot] = key
        refs[slot] = ref
        ascii[slot] = key.utf8.span.isASCII
    }
}

/// Whether two strings have the same UTF-8 bytes (not merely canonical equivalence).
@inline(__always)
func sameUTF8(_ a: String, _ b: String) -> Bool {
    let au = a.utf8, bu = b.utf8
    let x = au.span, y = bu.span
    guard x.count == y.count else { return false }
    for i in x.indices where x[i] != y[i] { return false }
    return true
}
