import AmberArchive

/// Resolves a keyed archive into its object graph, as JSON (`amber dump --keyed`).
///
/// Two passes. The first walks every object reachable from `$top` (iteratively, whatever the
/// graph) and counts the references to each. The second renders from `$top`: Foundation's
/// value classes become their natural JSON values and are repeated wherever they are referred
/// to; containers and instances of other classes referenced more than once carry `"$id": uid`
/// where they first appear and are `{"$ref": uid}` everywhere after, so shared objects and
/// cycles print finitely. Rendering recurses one level per nested object, up to a limit.
struct KeyedGraph {
    let archive: KeyedArchive
    let maxDepth: Int

    /// An object of `$objects`, classified.
    enum Node {
        /// A value that refers to nothing: `$null`, a plain value, NSString, NSData, NSDate,
        /// NSUUID, NSIndexPath, NSIndexSet, NSNull.
        case leaf(JSON)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
        case countedSet([(uid: Int, count: Int)])
        case instance(className: String, fields: [(key: String, value: Field)])
    }

    enum Field {
        case ref(Int)
        case plain(PropertyList)
    }

    /// Each reachable object, classified, by UID.
    private var nodes: [Node?]
    /// References to each object from the reachable graph, saturating at 2.
    private var references: [UInt8]
    /// Whether a shared object has been printed (with its `$id`).
    private var emitted: [Bool]

    init(archive: KeyedArchive, maxDepth: Int = ArchiveLimits.default.maxDepth) {
        self.archive = archive
        self.maxDepth = maxDepth
        nodes = Array(repeating: nil, count: archive.objectCount)
        references = Array(repeating: 0, count: archive.objectCount)
        emitted = Array(repeating: false, count: archive.objectCount)
    }

    /// The `$top` dictionary with each value resolved.
    static func render(_ archive: KeyedArchive, maxDepth: Int = ArchiveLimits.default.maxDepth) throws(ArchiveError) -> JSON {
        var graph = KeyedGraph(archive: archive, maxDepth: maxDepth)
        let top = try archive.rootedTopValues()
        let roots = top.compactMap { entry -> Int? in
            if case .uid(let u) = entry.value { return Int(u) }
            return nil
        }
        try graph.count(from: roots)
        var members: [(key: String, value: JSON)] = []
        for entry in top {
            if case .uid(let u) = entry.value {
                members.append((entry.key, try graph.render(Int(u), depth: 0)))
            } else {
                members.append((entry.key, JSON(entry.value)))  // an inline number or boolean
            }
        }
        return .object(members)
    }

    // MARK: Counting

    private mutating func count(from roots: [Int]) throws(ArchiveError) {
        var pending: [Int] = []
        func refer(_ u: Int) {
            let n = references[u]
            if n == 0 { pending.append(u) }
            if n < 2 { references[u] = n + 1 }
        }
        for u in roots { refer(u) }
        while let u = pending.popLast() {
            let node = try classify(u)
            nodes[u] = node
            switch node {
            case .leaf: break
            case .array(let items), .set(let items): items.forEach(refer)
            case .dictionary(let keys, let values):
                keys.forEach(refer)
                values.forEach(refer)
            case .countedSet(let items):
                for item in items { refer(item.uid) }
            case .instance(_, let fields):
                for field in fields { if case .ref(let c) = field.value { refer(c) } }
            }
        }
    }

    // MARK: Rendering

    private mutating func render(_ u: Int, depth: Int) throws(ArchiveError) -> JSON {
        guard let node = nodes[u] else { return .null }  // every reachable object was classified
        if case .leaf(let json) = node { return json }
        let shared = references[u] > 1
        if shared {
            if emitted[u] { return .object([("$ref", .int(Int64(u)))]) }
            emitted[u] = true
        }
        guard depth < maxDepth else {
            throw ArchiveError(.limitExceeded, "objects nest deeper than the limit of \(maxDepth)")
        }
        var members: [(key: String, value: JSON)] = shared ? [("$id", .int(Int64(u)))] : []
        switch node {
        case .leaf(let json):
            return json
        case .array(let items):
            var values: [JSON] = []
            values.reserveCapacity(items.count)
            for c in items { values.append(try render(c, depth: depth + 1)) }
            if !shared { return .array(values) }
            members.append(("$array", .array(values)))
        case .set(let items):
            var values: [JSON] = []
            values.reserveCapacity(items.count)
            for c in items { values.append(try render(c, depth: depth + 1)) }
            members.append(("$set", .array(values)))
        case .countedSet(let items):
            var values: [JSON] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(.array([try render(item.uid, depth: depth + 1), .int(Int64(item.count))])) }
            members.append(("$countedSet", .array(values)))
        case .dictionary(let keys, let values):
            let stringKeys = keys.allSatisfy { if case .leaf(.string) = nodes[$0] { return true } else { return false } }
            if stringKeys {
                for (k, v) in zip(keys, values) {
                    guard case .leaf(.string(let key)) = nodes[k] else { continue }
                    members.append((KeyedGraph.escape(key), try render(v, depth: depth + 1)))
                }
            } else {
                var pairs: [JSON] = []
                pairs.reserveCapacity(keys.count)
                for (k, v) in zip(keys, values) {
                    let key = try render(k, depth: depth + 1)
                    pairs.append(.array([key, try render(v, depth: depth + 1)]))
                }
                members.append(("$dict", .array(pairs)))
            }
        case .instance(let className, let fields):
            members.append(("$class", .string(className)))
            for field in fields {
                switch field.value {
                case .ref(let c): members.append((KeyedGraph.escape(field.key), try render(c, depth: depth + 1)))
                case .plain(let p): members.append((KeyedGraph.escape(field.key), JSON(p)))
                }
            }
        }
        return .object(members)
    }

    /// A key of an instance or NSDictionary that begins with `$` is printed with one more `$`
    /// (as NSKeyedArchiver stores instance keys), so it cannot be taken for `$class`, `$id`, ….
    static func escape(_ key: String) -> String {
        key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
    }

    // MARK: Classifying

    private func classify(_ u: Int) throws(ArchiveError) -> Node {
        switch try archive.object(u) {
        case .null:
            return .leaf(.null)
        case .value(let plist):
            return .leaf(JSON(plist))
        case .instance(let className, _, let fields):
            // Foundation's classes as the codec reads them: a field missing or of the wrong
            // type, or counts that disagree, refuse the archive (as the codec does).
            switch try archive.standardObject(u) {
            case .value(let v)?: return .leaf(KeyedGraph.json(v))
            case .array(let items)?: return .array(items)
            case .set(let items)?: return .set(items)
            case .dictionary(let keys, let objects)?: return .dictionary(keys: keys, values: objects)
            case .countedSet(let items)?: return .countedSet(items)
            case nil: break
            }
            var result: [(key: String, value: Field)] = []
            result.reserveCapacity(fields.count)
            for field in fields {
                if case .uid(let c) = field.value {
                    result.append((field.key, .ref(try checked(c))))
                } else {
                    result.append((field.key, .plain(field.value)))
                }
            }
            return .instance(className: className, fields: result)
        }
    }

    /// A UID checked to name an item of `$objects`.
    private func checked(_ uid: UInt64) throws(ArchiveError) -> Int {
        guard uid < UInt64(archive.objectCount) else {
            throw ArchiveError(.notKeyedArchive, "UID \(uid) is out of range: $objects has \(archive.objectCount) items")
        }
        return Int(uid)
    }

    /// A value of Foundation's standard classes as JSON: strings, numbers and arrays as
    /// themselves, the others as `{"$data"}`, `{"$date"}`, `{"$uuid"}`, `{"$indexPath": [i…]}`,
    /// `{"$indexSet": [[location, length]…]}`, `{"$set"}`, `{"$countedSet": [[value, count]…]}`,
    /// and dictionaries with keys that are not all strings as `{"$dict": [[key, value]…]}`.
    static func json(_ value: ArchiveValue) -> JSON {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .uint(let u): return .uint(u)
        case .double(let d): return .real(d)
        case .string(let s): return .string(s)
        case .data(let d): return .data(d)
        case .date(let t): return .date(t)
        case .uuid(let u): return .object([("$uuid", .string(uuidString(u)))])
        case .indexPath(let p): return .object([("$indexPath", .array(p.map { .int(Int64($0)) }))])
        case .indexSet(let ranges):
            return .object([("$indexSet", .array(ranges.map { .array([.int(Int64($0.lowerBound)), .int(Int64($0.count))]) }))])
        case .array(let items): return .array(items.map(json))
        case .set(let items): return .object([("$set", .array(items.map(json)))])
        case .countedSet(let items): return .object([("$countedSet", .array(items.map { .array([json($0.value), .int(Int64($0.count))]) }))])
        case .dictionary(let pairs):
            var members: [(key: String, value: JSON)] = []
            for pair in pairs {
                guard case .string(let key) = pair.key else {
                    return .object([("$dict", .array(pairs.map { .array([json($0.key), json($0.value)]) }))])
                }
                members.append((escape(key), json(pair.value)))
            }
            return .object(members)
        }
    }

    /// `8-4-4-4-12` uppercase hex, as NSUUID's `uuidString`.
    static func uuidString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
