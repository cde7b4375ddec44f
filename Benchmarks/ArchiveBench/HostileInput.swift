// amber-bench-archive --hostile [N]: how long the reader takes to turn down damaged input (R22).
//
// One keyed archive of the synthetic tree of N nodes (default 25), then every truncation of it
// and every single-bit flip of it, each decoded twice: as a restore reads it (KeyedUnarchiver,
// the tree's class through the registry) and as a plain property list (BinaryPropertyList).
// Prints, for each, how many inputs were rejected and the median, 99th percentile and slowest
// decode, beside the valid archive's decode.
//
// That each damaged input is rejected with an ArchiveError or still decodes, and never traps, is
// checked by Tests/AmberArchiveTests/MalformedInputTests.swift. How long it takes is a figure,
// printed here and never asserted: a test's time depends on what else the machine runs.

import AmberArchive
import BenchSupport

/// Every prefix of `bytes` shorter than it, then every copy of it with one bit flipped.
func damagedCopies(of bytes: [UInt8]) -> [[UInt8]] {
    var inputs = (0 ..< bytes.count).map { Array(bytes[..<$0]) }
    inputs.reserveCapacity(bytes.count * 9)
    for index in bytes.indices {
        for bit in 0 ..< 8 {
            var flipped = bytes
            flipped[index] ^= 1 << UInt8(bit)
            inputs.append(flipped)
        }
    }
    return inputs
}

/// The seconds each decode of `inputs` took and how many threw.
func timeDecodes(_ inputs: [[UInt8]], _ decode: ([UInt8]) throws -> Void) -> (seconds: [Double], rejected: Int) {
    var times: [Double] = []
    times.reserveCapacity(inputs.count)
    var rejected = 0
    for input in inputs {
        times.append(seconds {
            do { try decode(input) } catch { rejected += 1 }
        })
    }
    return (times, rejected)
}

func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count) * p).rounded(.up)) - 1)]
}

func hostileInputBench(nodes: Int) throws {
    let valid = try amberEncode(makeTree(nodes), nodes)
    let inputs = damagedCopies(of: valid)
    let readers: [(String, ([UInt8]) throws -> Void)] = [
        ("keyed archive, the tree's class (KeyedUnarchiver)", { bytes in
            // No cast of the root: a flip may leave a valid archive whose root is another object.
            _ = try KeyedUnarchiver(bytes: bytes, registry: registry).decodeObject(forKey: "root", ofClasses: ["Node"])
        }),
        ("property list (BinaryPropertyList)", { bytes in _ = try BinaryPropertyList.decode(bytes) }),
    ]
    print("Hostile input (R22): a keyed archive of the synthetic tree of \(nodes) nodes, \(valid.count) bytes; its \(valid.count) truncations and \(valid.count * 8) single-bit flips, each decoded once.")
    print("")
    print("| decoded as | inputs | rejected | median | 99th percentile | slowest | the valid archive (median of 101) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (name, decode) in readers {
        let validTimes = timeDecodes(Array(repeating: valid, count: 101), decode)
        precondition(validTimes.rejected == 0, "the valid archive was rejected as \(name)")
        let damaged = timeDecodes(inputs, decode)
        print("| \(name) | \(inputs.count) | \(damaged.rejected) | \(fmt(median(damaged.seconds))) | \(fmt(percentile(damaged.seconds, 0.99))) | \(fmt(damaged.seconds.max() ?? .nan)) | \(fmt(median(validTimes.seconds))) |")
    }
}
