// amber-bench-archive: encode and decode of one synthetic UI tree by AmberArchive, by
// Foundation's NSKeyedArchiver/NSKeyedUnarchiver and by PropertyListEncoder/Decoder (binary),
// in the same run. Prints medians, bytes and ratios as a Markdown table.
//
//   swift run -c release amber-bench-archive [--sizes 100,1000,10000,100000] [--reps 7]
//        [--foundation-max 10000]
//   swift run -c release amber-bench-archive --hostile [N]   how long damaged input takes to
//        turn down (HostileInput.swift)
//
// The tree: BenchSupport's synthetic tree (Benchmarks/Support/SyntheticTree.swift), each node's
// children archived as references. NSKeyedArchiver on swift-corelibs-foundation is quadratic in the
// number of arrays it archives (it keys its object table on equality, and NSArray's hash is its
// count), so by default it runs only up to --foundation-max nodes and fewer repetitions there.

import AmberArchive
import BenchSupport
import Foundation

// MARK: The tree

final class Node {
    var identifier: String
    var className: String
    var selectedIndex: Int64
    var isEditing: Bool
    var contentOffsetY: Double
    var itemKey: String
    var title: String
    var children: [Node] = []

    init(identifier: String, className: String, selectedIndex: Int64, isEditing: Bool,
         contentOffsetY: Double, itemKey: String, title: String) {
        self.identifier = identifier
        self.className = className
        self.selectedIndex = selectedIndex
        self.isEditing = isEditing
        self.contentOffsetY = contentOffsetY
        self.itemKey = itemKey
        self.title = title
    }

    convenience init() {
        self.init(identifier: "", className: "", selectedIndex: 0, isEditing: false, contentOffsetY: 0, itemKey: "", title: "")
    }
}

/// The tree of `n` nodes: node i's children are nodes 4i+1 to 4i+4 (filled breadth first).
///
/// By default the nodes are made depth first: each node, then its children's subtrees in turn,
/// the order in which a UI is usually built (a controller, its view, the view's subviews) and in
/// which the NSKeyedArchiver and PropertyListEncoder trees below are copied from it, so that the
/// three codecs read trees laid out alike in memory. `depthFirst: false` makes them in node
/// order, a level at a time (the growth table reports both: past the caches, the order in which
/// a walk meets the host's objects shows in the time).
func makeTree(_ n: Int, depthFirst: Bool = true) -> Node {
    func make(_ i: Int) -> Node {
        let v = SyntheticNode(index: i)
        return Node(identifier: v.identifier, className: v.className, selectedIndex: Int64(v.selectedIndex),
                    isEditing: v.isEditing, contentOffsetY: v.contentOffsetY, itemKey: v.itemKey, title: v.title)
    }
    guard depthFirst else {
        var nodes: [Node] = []
        nodes.reserveCapacity(n)
        for i in 0 ..< n {
            nodes.append(make(i))
            if i > 0 { nodes[(i - 1) / 4].children.append(nodes[i]) }
        }
        return nodes[0]
    }
    func subtree(_ i: Int) -> Node {
        let node = make(i)
        let first = 4 * i + 1
        if first < n {
            node.children.reserveCapacity(min(4, n - first))
            for c in first ..< min(first + 4, n) { node.children.append(subtree(c)) }
        }
        return node
    }
    return subtree(0)
}

/// What any encoder of the tree does with the host's objects, and nothing else: meets each
/// node (depth first), keeps it until the end (as an archiver keeps the objects it met), reads
/// the bytes of its strings, its numbers and its children. The growth table times it beside the
/// codec: past the caches, this walk alone grows faster than the number of nodes.
@inline(never)
func hostWalk(_ root: Node) -> Int {
    var kept: [Node] = []
    var stack = [root]
    var sum = 0
    func add(_ s: String) { for b in s.utf8 { sum &+= Int(b) } }
    while let node = stack.popLast() {
        kept.append(node)
        add(node.identifier)
        add(node.className)
        add(node.itemKey)
        add(node.title)
        sum &+= Int(node.selectedIndex) &+ Int(node.contentOffsetY) &+ (node.isEditing ? 1 : 0)
        for child in node.children.reversed() { stack.append(child) }
    }
    return sum &+ kept.count
}

func count(_ node: Node) -> Int { nodeCount(node) { $0.children } }

// MARK: AmberArchive

let registry = ArchiveClassRegistry()
try registry.register(ArchiveClass(
    name: "Node",
    encode: { object, archiver in
        let node = object as! Node
        archiver.encode(node.identifier, forKey: "identifier")
        archiver.encode(node.className, forKey: "className")
        archiver.encode(node.selectedIndex, forKey: "selectedIndex")
        archiver.encode(node.isEditing, forKey: "isEditing")
        archiver.encode(node.contentOffsetY, forKey: "contentOffsetY")
        archiver.encode(node.itemKey, forKey: "itemKey")
        archiver.encode(node.title, forKey: "title")
        try archiver.encodeObjects(node.children, forKey: "children")
    },
    make: { _ in Node() },
    decode: { object, u in
        let node = object as! Node
        node.identifier = try u.decodeString(forKey: "identifier")
        node.className = try u.decodeString(forKey: "className")
        node.selectedIndex = try u.decodeInt64(forKey: "selectedIndex")
        node.isEditing = try u.decodeBool(forKey: "isEditing")
        node.contentOffsetY = try u.decodeDouble(forKey: "contentOffsetY")
        node.itemKey = try u.decodeString(forKey: "itemKey")
        node.title = try u.decodeString(forKey: "title")
        node.children = try u.decodeObjects(forKey: "children", as: Node.self)
    }), for: Node.self)

@inline(never)
func amberEncode(_ root: Node, _ n: Int) throws -> [UInt8] {
    let archiver = KeyedArchiver(registry: registry, capacity: n)
    try archiver.encodeObject(root, forKey: "root")
    return try archiver.finishEncoding()
}

@inline(never)
func amberDecode(_ bytes: [UInt8]) throws -> Node {
    let u = try KeyedUnarchiver(bytes: bytes, registry: registry)
    return try u.decodeObject(forKey: "root", ofClasses: ["Node"]) as! Node
}

// MARK: Foundation NSKeyedArchiver

/// `node`'s tree as Foundation archives it.
func foundationTree(_ node: Node) -> FoundationNode {
    let copy = FoundationNode()
    copy.identifier = node.identifier; copy.className = node.className; copy.selectedIndex = Int(node.selectedIndex)
    copy.isEditing = node.isEditing; copy.contentOffsetY = node.contentOffsetY; copy.itemKey = node.itemKey
    copy.title = node.title
    copy.children = node.children.map(foundationTree)
    return copy
}

// MARK: PropertyListEncoder

struct PNode: Codable {
    var identifier: String, className: String, selectedIndex: Int, isEditing: Bool
    var contentOffsetY: Double, itemKey: String, title: String, children: [PNode]

    init(_ node: Node) {
        identifier = node.identifier; className = node.className; selectedIndex = Int(node.selectedIndex)
        isEditing = node.isEditing; contentOffsetY = node.contentOffsetY; itemKey = node.itemKey; title = node.title
        children = node.children.map(PNode.init)
    }
}

func pcount(_ node: PNode) -> Int { 1 + node.children.reduce(0) { $0 + pcount($1) } }

// MARK: Timing
//
// This machine's speed drifts by up to half over seconds to minutes (a shared virtual machine),
// so the codecs are measured in rounds: each round runs every codec once, one after another.
// A slow spell then slows every codec alike, and the ratios, taken between medians of samples
// gathered side by side, stay true.
//
// Each codec's run in a round happens in a process of its own, forked from this one: the
// child inherits the trees already built and nothing else, warms the codec up, times it, sends
// the figures back through a pipe and exits. Run in one process, a codec inherits the heap the
// codecs before it left (hundreds of thousands of freed small blocks after Foundation's
// decoders), and the allocator's work on that heap lands in its timing: in one process
// AmberArchive's 10k encode took 22 ms after the NSKeyedArchiver phases and 15 ms alone.

/// Finishes the allocator's work on what was freed before, so that it does not land in the
/// next timing. glibc keeps freed small blocks (up to 128 bytes: a decoded tree's objects and
/// strings) in "fastbins" without merging them with their neighbours, and merges them all at
/// the next request of 1 KiB or more, walking every such block, long cold by then. A
/// warm-up decode of 100,000 nodes leaves about 400,000 of them, and the timed decode's first
/// large array (the offset table) paid 6 ms of their merging: an eighth of its time, and at
/// 10,000 nodes 0.2 ms, so most of what decoding grew from 10k to 100k beyond ten times. A
/// process that decodes once, as one restoring its state at launch, has no such blocks. So
/// before each timing one large block is taken and given back, which makes glibc do that
/// merging then; the same for every codec.
func settleHeap() {
    // Kept in a global, or the compiler removes the pair of calls.
    settleBlock = malloc(1 << 20)
    free(settleBlock)
}
nonisolated(unsafe) var settleBlock: UnsafeMutableRawPointer?

/// Seconds one run of `body` takes, after `settleHeap()`.
func settledSeconds(_ body: () throws -> Void) rethrows -> Double {
    settleHeap()
    return try seconds(body)
}

/// Runs `body` in a child process (fork) and returns the numbers it returns there. A failure in
/// the child (a thrown error, a failed precondition) ends the benchmark.
func isolated(_ what: String, _ body: () throws -> [Double]) -> [Double] {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { fatalError("pipe failed") }
    let pid = fork()
    guard pid >= 0 else { fatalError("fork failed") }
    if pid == 0 {
        close(fds[0])
        var line: String
        do {
            line = try body().map { String($0) }.joined(separator: " ")
        } catch {
            line = "error: \(error)"
        }
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let k = bytes[written...].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if k <= 0 { break }
            written += k
        }
        _exit(0)
    }
    close(fds[1])
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let k = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if k <= 0 { break }
        data += buffer[0 ..< k]
    }
    close(fds[0])
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let values = text.split(separator: " ").compactMap { Double($0) }
    guard status == 0, !text.isEmpty, !text.hasPrefix("error"), values.count == text.split(separator: " ").count else {
        FileHandle.standardError.write("\(what): the child process failed (status \(status)): \(text)\n".data(using: .utf8)!)
        exit(1)
    }
    return values
}

func fmt(_ seconds: Double) -> String {
    if seconds.isNaN { return "—" }
    if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
}

func ratio(_ a: Double, _ b: Double) -> String {
    (a.isNaN || b.isNaN) ? "—" : String(format: "%.1f×", a / b)
}

// MARK: Main

// Large blocks freed by one run are kept for the next instead of being returned to the system
// and faulted in again: otherwise each run's time depends on what the run before it freed (a
// codec run after another that freed more memory pays for fresh pages). The same for every codec.
@_silgen_name("mallopt") func mallopt(_ parameter: CInt, _ value: CInt) -> CInt  // glibc's <malloc.h>
_ = mallopt(-3 /* M_MMAP_THRESHOLD */, 512 << 20)
_ = mallopt(-1 /* M_TRIM_THRESHOLD */, 1 << 30)

var sizes = [100, 1000, 10000, 100_000]
var reps = 7
var foundationMax = 10000
var amberOnly = false
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--sizes": sizes = args.popFirst()!.split(separator: ",").map { Int($0)! }
    case "--reps": reps = Int(args.popFirst()!)!
    case "--foundation-max": foundationMax = Int(args.popFirst()!)!
    case "--amber-only": amberOnly = true  // for profiling
    case "--hostile":  // the hostile-input table alone (HostileInput.swift)
        let nodes = args.first.flatMap { Int($0) }
        if nodes != nil { args.removeFirst() }
        try hostileInputBench(nodes: nodes ?? 25)
        exit(0)
    default:
        FileHandle.standardError.write("usage: amber-bench-archive [--sizes a,b,c] [--reps n] [--foundation-max n] [--amber-only] | --hostile [n]\n".data(using: .utf8)!)
        exit(2)
    }
}

/// Samples of one codec at one size.
struct Samples {
    var encode: [Double] = []
    var decode: [Double] = []
    var bytes = 0
}

struct Row {
    var n: Int
    var amber = Samples(), nska = Samples(), ple = Samples()
}

/// NSKeyedArchiver's encoding takes close to a minute at 10,000 nodes: it runs in 3 rounds there,
/// without a warm-up run.
func nskaRounds(_ n: Int, _ reps: Int) -> Int { n >= 5000 ? min(reps, 3) : reps }

/// In a child: a warm-up encode, the timed encode, a warm-up decode, the timed decode (each
/// operation timed after a run of itself), then a check of what the timed decode returned.
/// Returns [encode seconds, decode seconds, bytes]. What a timed operation returns is kept
/// until its timing has ended, and it replaces nothing: neither timing includes freeing
/// anything (the previous run's bytes, the decoded tree) or the check.
func timeCodec<Encoded, Decoded>(
    warmUp: Bool, encode: () throws -> Encoded, size: (Encoded) -> Int,
    decode: (Encoded) throws -> Decoded, check: (Decoded) -> Bool
) rethrows -> [Double] {
    if warmUp { _ = try encode() }
    var encoded: Encoded?
    let e = try settledSeconds { encoded = try encode() }
    if warmUp { _ = try decode(encoded!) }
    var decoded: Decoded?
    let d = try settledSeconds { decoded = try decode(encoded!) }
    precondition(check(decoded!), "round trip")
    return [e, d, Double(size(encoded!))]
}

var rows: [Row] = []
for n in sizes {
    var row = Row(n: n)
    let tree = makeTree(n)
    let ptree = PNode(tree)
    let ftree = n <= foundationMax && !amberOnly ? foundationTree(tree) : nil
    for round in 0 ..< reps {
        let a = isolated("AmberArchive, \(n) nodes") {
            try timeCodec(warmUp: true, encode: { try amberEncode(tree, n) }, size: { $0.count },
                          decode: { try amberDecode($0) },
                          check: { count($0) == n && $0.children.first?.itemKey == tree.children.first?.itemKey })
        }
        row.amber.encode.append(a[0])
        row.amber.decode.append(a[1])
        row.amber.bytes = Int(a[2])
        if amberOnly { continue }
        let p = isolated("PropertyListEncoder, \(n) nodes") {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            return try timeCodec(warmUp: true, encode: { try encoder.encode(ptree) }, size: { $0.count },
                                 decode: { try PropertyListDecoder().decode(PNode.self, from: $0) },
                                 check: { pcount($0) == n })
        }
        row.ple.encode.append(p[0])
        row.ple.decode.append(p[1])
        row.ple.bytes = Int(p[2])
        if let ftree, round < nskaRounds(n, reps) {
            let f = isolated("NSKeyedArchiver, \(n) nodes") {
                timeCodec(warmUp: n < 5000, encode: { FoundationNode.encode(ftree) }, size: { $0.count },
                          decode: { FoundationNode.decode($0) }, check: { $0?.count == n })
            }
            row.nska.encode.append(f[0])
            row.nska.decode.append(f[1])
            row.nska.bytes = Int(f[2])
        }
    }
    rows.append(row)
    FileHandle.standardError.write("done N=\(n)\n".data(using: .utf8)!)
}

print("Encode and decode of the synthetic UI tree: medians of \(reps) rounds, each round running every codec once in turn, each in a process of its own (NSKeyedArchiver: 3 rounds from 5,000 nodes; not run above \(foundationMax) nodes).")
print("")
print("| N | codec | encode | decode | bytes | encode: peer / Amber | decode: peer / Amber | bytes: Amber / peer |")
print("|---:|---|---:|---:|---:|---:|---:|---:|")
for r in rows {
    let ae = median(r.amber.encode), ad = median(r.amber.decode)
    print("| \(r.n) | AmberArchive | \(fmt(ae)) | \(fmt(ad)) | \(r.amber.bytes) | | | |")
    for (name, s) in [("NSKeyedArchiver", r.nska), ("PropertyListEncoder", r.ple)] where !s.decode.isEmpty {
        let pe = median(s.encode), pd = median(s.decode)
        print("| \(r.n) | \(name) | \(fmt(pe)) | \(fmt(pd)) | \(s.bytes) | \(ratio(pe, ae)) | \(ratio(pd, ad)) | \(String(format: "%.2f", Double(r.amber.bytes) / Double(s.bytes))) |")
    }
}

// Growth: AmberArchive at consecutive sizes, measured alternately in the same rounds, so that
// both sides of each ratio see the same machine; for the tree made depth first (as everywhere
// above) and for the same tree made in node order.
print("")
print("AmberArchive's growth: in each of \(reps) rounds, each size runs in a process of its own, three times in a row, and the third run counts; medians, then the lowest and highest of the rounds' own ratios (each round's larger size over its smaller one: a round slowed by another tenant of the machine shows there, not in its neighbours):")
print("")
print("| tree made | from N | to N | encode grows | rounds | decode grows | rounds | the host walk alone grows | nodes grow |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (a, b) in zip(sizes, sizes.dropFirst()) {
    // Each child runs its size three times in a row and keeps the third run: the first two
    // absorb the child's first touches of the inherited heap, so each sample is that size's
    // steady state.
    func steady(_ tree: Node, _ n: Int) -> [Double] {
        isolated("AmberArchive growth, \(n) nodes") {
            // As in timeCodec, neither timing includes freeing what a run before made.
            for _ in 0 ..< 2 { _ = try amberEncode(tree, n) }
            var bytes: [UInt8] = []
            let e = try settledSeconds { bytes = try amberEncode(tree, n) }
            for _ in 0 ..< 2 { _ = try amberDecode(bytes) }
            var back: Node?
            let d = try settledSeconds { back = try amberDecode(bytes) }
            precondition(back.map(count) == n, "AmberArchive round trip")
            var sum = 0
            for _ in 0 ..< 2 { sum &+= hostWalk(tree) }
            let w = settledSeconds { sum &+= hostWalk(tree) }
            return [e, d, w, Double(sum & 1)]
        }
    }
    let layouts = [("depth first", true), ("in node order", false)]
    let trees = layouts.map { (makeTree(a, depthFirst: $0.1), makeTree(b, depthFirst: $0.1)) }
    // Samples by layout: small encode, decode, walk, then large encode, decode, walk.
    var samples = [[[Double]]](repeating: [[Double]](repeating: [], count: 6), count: layouts.count)
    for _ in 0 ..< reps {
        for (k, (small, large)) in trees.enumerated() {
            let s = steady(small, a)
            let l = steady(large, b)
            for (j, x) in [s[0], s[1], s[2], l[0], l[1], l[2]].enumerated() { samples[k][j].append(x) }
        }
    }
    /// The lowest and highest of the rounds' ratios of sample `large` to sample `small`.
    func spread(_ k: Int, _ small: Int, _ large: Int) -> String {
        let r = zip(samples[k][small], samples[k][large]).map { $1 / $0 }
        guard let lo = r.min(), let hi = r.max() else { return "—" }
        return String(format: "%.1f–%.1f×", lo, hi)
    }
    for (k, layout) in layouts.enumerated() {
        let m = samples[k].map(median)
        print(String(format: "| %@ | %d | %d | %.1f× (%@ → %@) | %@ | %.1f× (%@ → %@) | %@ | %.1f× (%@ → %@) | %.0f× |",
                     layout.0, a, b, m[3] / m[0], fmt(m[0]), fmt(m[3]), spread(k, 0, 3),
                     m[4] / m[1], fmt(m[1]), fmt(m[4]), spread(k, 1, 4),
                     m[5] / m[2], fmt(m[2]), fmt(m[5]), Double(b) / Double(a)))
    }
}
