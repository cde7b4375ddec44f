import AmberArchive

/// Hides the values of sensitive keys (SPEC R34) from everything the command prints: in a keyed
/// archive, each object that names keys under `amber.sensitive` has those keys' values replaced
/// by the string `<sensitive>`, and a value stored as an object of its own (a string, data, a
/// container and what it holds) is replaced in `$objects` too, so that neither `amber dump`
/// (plain or `--keyed`) nor `amber inspect` shows it. Bytes that are not a binary keyed archive
/// with such keys are given back as they are.
enum SensitiveMask {
    /// The key under which the engine names an object's sensitive keys.
    static let key = "amber.sensitive"
    /// What is printed instead of a sensitive value.
    static let placeholder = "<sensitive>"

    static func apply(_ bytes: [UInt8]) -> [UInt8] {
        // A quick test first: most archives have no sensitive key at all.
        guard contains(bytes, Array(key.utf8)),
              case .dictionary(var top)? = try? BinaryPropertyList.decode(bytes),
              let slot = top.firstIndex(where: { $0.key == .string("$objects") }),
              case .array(var objects) = top[slot].value
        else { return bytes }
        var hidden: [Int] = []
        // A value stored in place (a number) is pointed at one placeholder object instead.
        var placeholderUID: Int?
        for i in objects.indices {
            guard case .dictionary(var pairs) = objects[i],
                  let names = sensitiveNames(pairs, objects), !names.isEmpty else { continue }
            for p in pairs.indices {
                guard case .string(let name) = pairs[p].key, names.contains(name) else { continue }
                if case .uid(let u) = pairs[p].value, let uid = Int(exactly: u), uid < objects.count {
                    hidden.append(uid)
                } else {
                    let uid = placeholderUID ?? objects.count
                    if placeholderUID == nil {
                        objects.append(.string(placeholder))
                        placeholderUID = uid
                    }
                    pairs[p] = PropertyListPair(pairs[p].key, .uid(UInt64(uid)))
                }
            }
            objects[i] = .dictionary(pairs)
        }
        // Each hidden object, and what it holds (a container's items), becomes the placeholder.
        var seen = Set<Int>()
        while let uid = hidden.popLast() {
            guard seen.insert(uid).inserted else { continue }
            hidden += held(by: objects[uid]).filter { $0 < objects.count }
            objects[uid] = .string(placeholder)
        }
        top[slot] = PropertyListPair(.string("$objects"), .array(objects))
        return BinaryPropertyList.encode(.dictionary(top))
    }

    /// The names under `amber.sensitive` in an object's pairs (an NSArray of strings).
    private static func sensitiveNames(_ pairs: [PropertyListPair], _ objects: [PropertyList]) -> Set<String>? {
        guard let pair = pairs.first(where: { $0.key == .string(key) }),
              case .uid(let u) = pair.value, let uid = Int(exactly: u), uid < objects.count,
              case .dictionary(let array) = objects[uid],
              case .array(let items)? = array.first(where: { $0.key == .string("NS.objects") })?.value
        else { return nil }
        var names = Set<String>()
        for item in items {
            if case .uid(let n) = item, let i = Int(exactly: n), i < objects.count, case .string(let s) = objects[i] { names.insert(s) }
        }
        return names
    }

    /// The objects a container object refers to (not its class).
    private static func held(by object: PropertyList) -> [Int] {
        guard case .dictionary(let pairs) = object else { return [] }
        var uids: [Int] = []
        for pair in pairs where pair.key != .string("$class") {
            switch pair.value {
            case .uid(let u): if let i = Int(exactly: u) { uids.append(i) }
            case .array(let items): for case .uid(let u) in items { if let i = Int(exactly: u) { uids.append(i) } }
            default: break
            }
        }
        return uids
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= bytes.count {
            var j = 0
            while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }
}
