// Harness `reader`: arbitrary bytes through the AmberArchive reader (SPEC R22, R25, R26): the
// binary property list parser and the keyed unarchiver, with two round-trip oracles.
//
// What counts as a finding: a trap (precondition, index out of range, overflow, the
// fatalError calls below when a round trip is not faithful), an ASan report, a timeout or an
// out-of-memory. Errors the library throws are the expected outcome for bad input and ignored.
//
// Oracles:
//  1. BinaryPropertyList(bytes:) -> topValue() -> encode -> decode must give an equal value,
//     and encoding that value again must give the same bytes.
//  2. A keyed archive's decodeValue(forKey:) for each top key -> KeyedArchiver.archive ->
//     KeyedUnarchiver.unarchiveValue must give an equal value.
// Equality compares strings by Unicode scalars, not by Swift's canonical equivalence (see same()).
// It reaches a few internals of the reader (the property list's objects one by one), hence
// the testable import (Fuzz/run-harness.sh builds with -enable-testing).

@testable import AmberArchive

/// Small limits so that every input stays fast.
let fuzzLimits = ArchiveLimits(maxBytes: 1 << 20, maxObjects: 1 << 16, maxDepth: 64, maxValueLength: 1 << 20)
/// For reading back what the library wrote: a value read under `fuzzLimits` can expand when
/// written again (shared containers are written once per use), so only the depth stays small.
let roundTripLimits = ArchiveLimits(maxDepth: 64)

/// Bounds the harness's own recursive walk over nested objects (a shared object is walked once
/// per reference, so a small file could otherwise take exponential time in the harness).
nonisolated(unsafe) var walkBudget = 0

/// A coding class so that `decodeObject(forKey:ofClasses:)` reaches `make` and `decode`.
/// Children are not kept: decoded graphs may be cyclic, and strong references would leak
/// (LeakSanitizer would report the harness, not the library).
final class FuzzNode {
    var keys: [String] = []
    var childCount = 0
}

let fuzzRegistry: ArchiveClassRegistry = {
    let registry = ArchiveClassRegistry()
    for (name, superclass) in [("AmberFuzzNode", nil), ("AmberFuzzLeaf", "AmberFuzzNode")] as [(String, String?)] {
        try! registry.register(ArchiveClass(
            name: name,
            superclassName: superclass,
            encode: { _, _ in },
            make: { un in
                let node = FuzzNode()
                node.keys = un.allKeys()
                for key in node.keys { _ = try? un.decodeValue(forKey: key) }
                return node
            },
            decode: { object, un in
                let node = object as! FuzzNode
                for key in un.allKeys() {
                    if (try? un.decodeObject(forKey: key, ofClasses: ["AmberFuzzNode"])) != nil { node.childCount += 1 }
                    _ = try? un.decodeObjects(forKey: key, ofClasses: ["AmberFuzzNode", "AmberFuzzLeaf"])
                }
            }))
    }
    return registry
}()

enum ReaderHarness {
    static func run(_ bytes: [UInt8]) {
        guard let plist = try? BinaryPropertyList(bytes: bytes, limits: fuzzLimits) else { return }
        checkPropertyList(plist)
        checkKeyedArchive(plist)
    }
}

// MARK: Property lists

func checkPropertyList(_ plist: BinaryPropertyList) {
    // Every object alone, not only the top one (objects not reachable from the top are not
    // checked for cycles by init; value(at:) must still stop at the depth limit).
    for ref in 0 ..< min(plist.objectCount, 4096) { _ = try? plist.value(at: ref) }
    _ = try? plist.value(at: -1)
    _ = try? plist.value(at: plist.objectCount)

    guard let value = try? plist.topValue() else { return }
    let encoded = BinaryPropertyList.encode(value)
    let decoded: PropertyList
    do {
        decoded = try BinaryPropertyList.decode(encoded, limits: roundTripLimits)
    } catch {
        fatalError("the re-encoded property list does not read back: \(error)")
    }
    guard same(decoded, value) else {
        fatalError("property list round trip changed the value:\n  read    \(value)\n  written \(decoded)")
    }
    guard BinaryPropertyList.encode(decoded) == encoded else {
        fatalError("encoding the same value twice gave different bytes")
    }
}

/// Equality with strings compared scalar by scalar: Swift's `==` on String (and so on
/// PropertyList and ArchiveValue) is canonical equivalence, under which "\u{e9}" equals
/// "e\u{301}"; a reader and writer must keep the exact scalars.
func same(_ a: PropertyList, _ b: PropertyList) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
    default: return a == b
    }
}
func same(_ a: ArchiveValue, _ b: ArchiveValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
    default: return a == b
    }
}

// MARK: Keyed archives

func checkKeyedArchive(_ plist: BinaryPropertyList) {
    // Same as KeyedArchive(bytes:limits:), without validating the bytes a second time.
    guard let archive = try? KeyedArchive(plist: plist) else { return }
    if let entries = try? archive.topEntries() {
        for entry in entries { _ = try? archive.object(entry.uid) }
    }
    for uid in 0 ..< archive.objectCount { _ = try? archive.object(uid) }
    _ = try? archive.object(-1)
    _ = try? archive.object(archive.objectCount)
    _ = try? archive.object(Int.max)

    // Typed values, with the value oracle.
    let unarchiver = KeyedUnarchiver(archive: archive)
    let keys = unarchiver.allKeys()
    for key in keys {
        _ = unarchiver.containsValue(forKey: key)
        if let value = try? unarchiver.decodeValue(forKey: key) {
            checkArchiveValue(value)
        }
        _ = try? unarchiver.decodeBool(forKey: key)
        _ = try? unarchiver.decodeInt64(forKey: key)
        _ = try? unarchiver.decodeDouble(forKey: key)
        _ = try? unarchiver.decodeString(forKey: key)
        _ = try? unarchiver.decodeBytes(forKey: key)
        _ = try? unarchiver.decodeDate(forKey: key)
        _ = try? unarchiver.decodeIndexPath(forKey: key)
        _ = try? unarchiver.decodeUUID(forKey: key)
        _ = try? unarchiver.decodeObject(forKey: key)  // no registry: classNotAllowed
    }
    _ = try? unarchiver.decodeValue(forKey: "$top")  // escaped key
    _ = try? unarchiver.decodeValue(forKey: "not-a-key")

    // Walking nested objects by position, whatever their class.
    walkBudget = 2048
    walk(unarchiver, keys: keys)

    // Objects of registered coding classes (shared references and cycles), and secure coding.
    let objects = KeyedUnarchiver(archive: archive, registry: fuzzRegistry)
    for key in keys {
        _ = try? objects.decodeObject(forKey: key)
        _ = try? objects.decodeObjects(forKey: key)
        _ = try? objects.decodeObject(forKey: key, ofClasses: ["AmberFuzzLeaf"])
    }
    let secure = KeyedUnarchiver(archive: archive, registry: fuzzRegistry)
    secure.requiresSecureCoding = true
    for key in keys {
        _ = try? secure.decodeObject(forKey: key)
        _ = try? secure.decodeObject(forKey: key, ofClasses: ["AmberFuzzNode"])
    }
}

func walk(_ unarchiver: KeyedUnarchiver, keys: [String]) {
    for key in keys {
        guard walkBudget > 0 else { return }
        walkBudget -= 1
        _ = try? unarchiver.decodeObject(forKey: key) { inner, _ -> Void in
            let innerKeys = inner.allKeys()
            for k in innerKeys {
                _ = try? inner.decodeValue(forKey: k)
                _ = try? inner.decodeString(forKey: k)
                _ = try? inner.decodeInt64(forKey: k)
            }
            walk(inner, keys: innerKeys)
        }
    }
}

func checkArchiveValue(_ value: ArchiveValue) {
    let bytes: [UInt8]
    do {
        bytes = try KeyedArchiver.archive(value)
    } catch {
        fatalError("a value read back cannot be archived again: \(error)\n  value \(value)")
    }
    let back: ArchiveValue
    do {
        back = try KeyedUnarchiver.unarchiveValue(bytes, limits: roundTripLimits)
    } catch {
        fatalError("the re-archived value does not read back: \(error)\n  value \(value)")
    }
    guard same(back, value) else {
        fatalError("keyed archive round trip changed the value:\n  read    \(value)\n  written \(back)")
    }
}
