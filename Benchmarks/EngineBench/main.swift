// amber-bench-engine-foundation: the Foundation peer of the end-to-end benchmark seen from C
// (bindings/c/bench/bench_engine.c, issue 3 item 6). It times NSKeyedArchiver encoding and
// NSKeyedUnarchiver decoding of the same synthetic UI tree the C program preserves and
// restores through libamber, and prints one machine-readable line per size:
//
//   foundation n=N encode_reps=R decode_reps=R bytes=B encode=S decode=S encode_min=S decode_min=S
//
//   amber-bench-engine-foundation [--sizes 100,1000,10000] [--reps 3] [--max 10000]
//
// The tree: BenchSupport's synthetic tree (Benchmarks/Support), each node's children archived
// as an NSArray.
// Encoding stops at the archiver's bytes (no file is written); decoding rebuilds every object.
// NSKeyedArchiver on swift-corelibs-foundation is quadratic in the number of arrays it
// archives (about 48 s for 10,000 nodes), so sizes above --max are skipped.
//
// scripts/bench-engine.sh runs it beside the C program and prints the ratios.

import BenchSupport
import Foundation

/// The synthetic tree of `n` nodes, node i > 0 the child of node (i - 1) / 4.
func makeTree(_ n: Int) -> FoundationNode {
    var nodes: [FoundationNode] = []
    nodes.reserveCapacity(n)
    for i in 0 ..< n {
        nodes.append(FoundationNode(SyntheticNode(index: i)))
        if i > 0 { nodes[(i - 1) / 4].children.append(nodes[i]) }
    }
    return nodes[0]
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
    for _ in 0 ..< encodeReps { enc.append(seconds { data = FoundationNode.encode(tree) }) }
    for _ in 0 ..< decodeReps {
        var back: FoundationNode?
        dec.append(seconds { back = FoundationNode.decode(data) })
        guard let back, back.count == n, back.children.first?.itemKey == tree.children.first?.itemKey else {
            FileHandle.standardError.write("amber-bench-engine-foundation: the round trip of N=\(n) failed\n".data(using: .utf8)!)
            exit(1)
        }
    }
    print(String(format: "foundation n=%d encode_reps=%d decode_reps=%d bytes=%d encode=%.9f decode=%.9f encode_min=%.9f decode_min=%.9f",
                 n, encodeReps, decodeReps, data.count, median(enc), median(dec), enc.min()!, dec.min()!))
}
