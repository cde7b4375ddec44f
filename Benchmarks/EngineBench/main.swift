// amber-bench-engine-foundation: the Foundation peer of the end-to-end benchmark seen from C
// (bindings/c/bench/bench_engine.c, issue 3 item 6). It times NSKeyedArchiver encoding and
// NSKeyedUnarchiver decoding of the same synthetic UI tree the C program preserves and
// restores through libamber, and prints one machine-readable line per size:
//
//   foundation n=N encode_reps=R decode_reps=R bytes=B encode=S decode=S encode_min=S decode_min=S
//
//   amber-bench-engine-foundation [--sizes 100,1000,10000] [--reps 3] [--max 10000]
//
// The tree: N nodes, 4 children per node filled breadth first; each node has an identifier
// "ItemsViewController-<i>", a class name among 8, the state {selectedIndex, isEditing,
// contentOffsetY, itemKey (unique, 22 characters), title (about 20 characters)} and its
// children, archived as an NSArray (as in Benchmarks/ArchiveBench, whose values it repeats).
// Encoding stops at the archiver's bytes (no file is written); decoding rebuilds every object.
// NSKeyedArchiver on swift-corelibs-foundation is quadratic in the number of arrays it
// archives (about 48 s for 10,000 nodes), so sizes above --max are skipped.
//
// scripts/bench-engine.sh runs it beside the C program and prints the ratios.

import Foundation

let classNames = [
    "ItemsViewController", "DetailViewController", "UINavigationController", "UITableView",
    "UIScrollView", "UITextField", "ImagePickerController", "SettingsViewController",
]

let titles = ["Vintage bicycle bell", "Leather notebook set", "Ceramic coffee mug", "Wireless earbuds v2",
              "Mechanical keyboard", "Hiking boots, size 9", "Cast iron skillet 10", "Noise cancel headset"]

/// A 22-character key, unique per node (like a base64 UUID); the same as the C program's.
func makeItemKey(_ i: Int) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var x = UInt64(truncatingIfNeeded: i) &* 0x9E37_79B9_7F4A_7C15 ^ 0xD1B5_4A32_D192_ED03
    var chars: [UInt8] = []
    for k in 0 ..< 22 {
        if k == 11 { x = x &* 0xBF58_476D_1CE4_E5B9 ^ UInt64(i) }
        chars.append(alphabet[Int(x & 63)])
        x = x >> 6 | x << 58
    }
    return String(decoding: chars, as: UTF8.self)
}

/// One screen of the tree, as a UIKit app would archive it with NSCoding.
final class Screen: NSObject, NSCoding {
    var identifier = "", className = "", itemKey = "", title = ""
    var selectedIndex = 0, isEditing = false, contentOffsetY = 0.0
    var children: [Screen] = []

    override init() {}

    init(_ i: Int) {
        identifier = "ItemsViewController-\(i)"
        className = classNames[i % 8]
        selectedIndex = i % 37
        isEditing = i % 3 == 0
        contentOffsetY = Double(i) * 44.5
        itemKey = makeItemKey(i)
        title = titles[i % 8]
    }

    func encode(with coder: NSCoder) {
        coder.encode(identifier, forKey: "identifier")
        coder.encode(className, forKey: "className")
        coder.encode(selectedIndex, forKey: "selectedIndex")
        coder.encode(isEditing, forKey: "isEditing")
        coder.encode(contentOffsetY, forKey: "contentOffsetY")
        coder.encode(itemKey, forKey: "itemKey")
        coder.encode(title, forKey: "title")
        coder.encode(children, forKey: "children")
    }

    init?(coder: NSCoder) {
        identifier = coder.decodeObject(forKey: "identifier") as? String ?? ""
        className = coder.decodeObject(forKey: "className") as? String ?? ""
        selectedIndex = coder.decodeInteger(forKey: "selectedIndex")
        isEditing = coder.decodeBool(forKey: "isEditing")
        contentOffsetY = coder.decodeDouble(forKey: "contentOffsetY")
        itemKey = coder.decodeObject(forKey: "itemKey") as? String ?? ""
        title = coder.decodeObject(forKey: "title") as? String ?? ""
        children = coder.decodeObject(forKey: "children") as? [Screen] ?? []
    }
}

/// Node 0 is the root, node i > 0 the child of node (i - 1) / 4.
func makeTree(_ n: Int) -> Screen {
    var nodes: [Screen] = []
    nodes.reserveCapacity(n)
    for i in 0 ..< n {
        nodes.append(Screen(i))
        if i > 0 { nodes[(i - 1) / 4].children.append(nodes[i]) }
    }
    return nodes[0]
}

func count(_ root: Screen) -> Int {
    var total = 0
    var stack = [root]
    while let s = stack.popLast() {
        total += 1
        stack.append(contentsOf: s.children)
    }
    return total
}

@inline(never)
func encode(_ root: Screen) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
}

@inline(never)
func decode(_ data: Data) -> Screen? {
    guard let u = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
    u.requiresSecureCoding = false
    u.decodingFailurePolicy = .setErrorAndReturn
    let root = u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? Screen
    u.finishDecoding()
    return root
}

let clock = ContinuousClock()

func seconds(_ body: () -> Void) -> Double {
    let d = clock.measure(body)
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func usage() -> Never {
    FileHandle.standardError.write("usage: amber-bench-engine-foundation [--sizes 100,1000,10000] [--reps 3] [--max 10000]\n".data(using: .utf8)!)
    exit(2)
}

var sizes = [100, 1000, 10000]
var reps = 3
var maxNodes = 10000
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--sizes":
        guard let v = args.popFirst() else { usage() }
        sizes = v.split(separator: ",").map { s -> Int in
            var t = Substring(s), m = 1
            if t.hasSuffix("k") { m = 1000; t = t.dropLast() } else if t.hasSuffix("M") { m = 1_000_000; t = t.dropLast() }
            guard let n = Int(t), n > 0 else { usage() }
            return n * m
        }
    case "--reps": guard let v = args.popFirst(), let r = Int(v), r > 0 else { usage() }; reps = r
    case "--max": guard let v = args.popFirst(), let m = Int(v) else { usage() }; maxNodes = m
    default: usage()
    }
}

// Large blocks are kept by malloc between runs rather than returned and faulted in again, as
// in amber-bench-archive.
@_silgen_name("mallopt") func mallopt(_ parameter: CInt, _ value: CInt) -> CInt  // glibc's <malloc.h>
_ = mallopt(-3 /* M_MMAP_THRESHOLD */, 512 << 20)
_ = mallopt(-1 /* M_TRIM_THRESHOLD */, 1 << 30)

for n in sizes {
    guard n <= maxNodes else {
        print("foundation n=\(n) skipped=1")
        continue
    }
    let tree = makeTree(n)
    // Encoding 10,000 nodes takes close to a minute: fewer rounds from 5,000 nodes; decoding
    // is cheap beside it and gets at least 3.
    let encodeReps = n >= 5000 ? min(reps, 3) : reps
    let decodeReps = max(reps, 3)
    var data = Data()
    var enc: [Double] = [], dec: [Double] = []
    for _ in 0 ..< encodeReps { enc.append(seconds { data = encode(tree) }) }
    for _ in 0 ..< decodeReps {
        var back: Screen?
        dec.append(seconds { back = decode(data) })
        guard let back, count(back) == n, back.children.first?.itemKey == tree.children.first?.itemKey else {
            FileHandle.standardError.write("amber-bench-engine-foundation: the round trip of N=\(n) failed\n".data(using: .utf8)!)
            exit(1)
        }
    }
    print(String(format: "foundation n=%d encode_reps=%d decode_reps=%d bytes=%d encode=%.9f decode=%.9f encode_min=%.9f decode_min=%.9f",
                 n, encodeReps, decodeReps, data.count, median(enc), median(dec), enc.min()!, dec.min()!))
}
