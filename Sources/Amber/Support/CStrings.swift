// C strings in and out: input strings validated as UTF-8, output strings on the C heap.

import AmberArchive
import AmberCore
#if canImport(Glibc)
import Glibc
#endif

/// A NUL-terminated copy of `text` from malloc (the caller frees it with free()); nil only if
/// malloc fails. A NUL inside `text` ends the C string there.
func mallocCString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    var text = text
    return text.withUTF8 { utf8 -> UnsafeMutablePointer<CChar>? in
        guard let p = malloc(utf8.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
        if let base = utf8.baseAddress { memcpy(p, base, utf8.count) }
        p[utf8.count] = 0
        return p
    }
}

/// As `mallocCString`, throwing when memory is exhausted.
func newCString(_ text: String) throws(AmberError) -> UnsafeMutablePointer<CChar> {
    guard let p = mallocCString(text) else { throw AmberError(.limitExceeded, "out of memory for a string of \(text.utf8.count) bytes") }
    return p
}

/// An input string: required, valid UTF-8.
func inputString(_ p: UnsafePointer<CChar>?, _ what: String) throws(AmberError) -> String {
    guard let p else { throw invalid("\(what) is NULL") }
    guard let s = String(validatingCString: p) else { throw invalid("\(what) is not valid UTF-8") }
    return s
}

/// An optional input string: NULL is nil; otherwise valid UTF-8.
func optionalString(_ p: UnsafePointer<CChar>?, _ what: String) throws(AmberError) -> String? {
    guard let p else { return nil }
    guard let s = String(validatingCString: p) else { throw invalid("\(what) is not valid UTF-8") }
    return s
}

/// A key for the engine's coder, decoder, data archiver or a user info: valid UTF-8 (they
/// refuse an empty key themselves, as they do a Swift host's).
func engineKey(_ p: UnsafePointer<CChar>?) throws(AmberError) -> String {
    try inputString(p, "the key")
}

/// A key for the engine's coder or decoder (as `engineKey`), interned by `interner` when it is short.
@inline(__always)
func engineKey(_ p: UnsafePointer<CChar>?, interning interner: inout KeyInterner) throws(AmberError) -> ArchiveKey {
    if let p, let short = ShortKeyWords(p) { return interner.key(lo: short.lo, hi: short.hi, count: short.count) }
    return ArchiveKey(try engineKey(p))
}

/// An unarchiver's key: valid UTF-8, not empty (the codec's unarchiver has no engine type that
/// would check it).
func inputKey(_ p: UnsafePointer<CChar>?) throws(AmberError) -> String {
    let key = try inputString(p, "the key")
    guard !key.isEmpty else { throw invalid("the key is empty") }
    return key
}

/// A C string of 1 to 15 ASCII bytes in two words, as `KeyInterner.key(lo:hi:count:)` takes
/// them, read a word at a time: the key a host gives for every value is found among the
/// interned keys by two comparisons, not read and checked byte by byte.
struct ShortKeyWords {
    let lo: UInt64
    let hi: UInt64
    let count: Int

    /// Nil when the string is empty, 16 bytes or longer, or not ASCII.
    @inline(__always)
    init?(_ p: UnsafePointer<CChar>) {
        let n = strlen(p)
        guard n > 0, n < 16 else { return nil }
        let raw = UnsafeRawPointer(p)
        var lo: UInt64 = 0
        var hi: UInt64 = 0
        if n >= 8 {
            lo = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            // The string's last 8 bytes; those past its first 8 are the top n - 8 of them.
            hi = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) >> UInt64(8 * (16 - n))
        } else {
            // Fewer than 8 bytes: a word's load could reach past the string's memory.
            withUnsafeMutableBytes(of: &lo) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: n)) }
            lo = UInt64(littleEndian: lo)
        }
        guard (lo | hi) & 0x8080_8080_8080_8080 == 0 else { return nil }
        (self.lo, self.hi, count) = (lo, hi, n)
    }
}

/// The bytes of a NUL-terminated C string (without the NUL) if every one is ASCII (below
/// 0x80), else nil. The buffer points into the caller's string: valid as long as it is.
@inline(__always)
func asciiBytes(_ p: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8>? {
    let bytes = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self)
    var n = 0
    var high: UInt8 = 0
    while bytes[n] != 0 {
        high |= bytes[n]
        n += 1
    }
    return high < 0x80 ? UnsafeBufferPointer(start: bytes, count: n) : nil
}

/// A size_t argument as an Int.
func inputCount(_ n: Int, _ what: String) throws(AmberError) -> Int {
    guard n >= 0, n <= Int(Int32.max) * 16 else { throw invalid("\(what) \(UInt(bitPattern: n)) is out of range") }
    return n
}

/// C memory (strings, byte buffers, arrays) behind the pointers Amber lends: blocks carved from
/// chunks, all freed at once. Reused from one use to the next (a decoder's strings for one
/// callback, a restoration path for one make callback), it is `reset` between them, so a string
/// lent to the host costs a copy rather than a malloc and a free; never reset, its blocks live
/// as long as its owner (a report, a notification, a user info).
final class ScratchArena {
    // No access to these spans a call out of the arena.
    private var chunk: UnsafeMutableRawPointer?
    private var used = 0
    private var capacity = 0
    /// Chunks filled before the current one and blocks too large for a chunk, with the bytes
    /// given out of each, freed at `reset`.
    private var retired: [(block: UnsafeMutableRawPointer, used: Int)] = []
    private static let chunkSize = 4096

    /// `count` bytes aligned for pointers, valid until `reset`.
    func allocate(_ count: Int) throws(AmberError) -> UnsafeMutableRawPointer {
        let n = (max(count, 1) + 7) & ~7
        if n > Self.chunkSize / 4 {
            guard let raw = malloc(n) else { throw AmberError(.limitExceeded, "out of memory for \(count) bytes") }
            retired.append((raw, n))
            return raw
        }
        if chunk == nil || used + n > capacity {
            guard let raw = malloc(Self.chunkSize) else { throw AmberError(.limitExceeded, "out of memory for \(count) bytes") }
            if let chunk { retired.append((chunk, used)) }
            chunk = raw
            capacity = Self.chunkSize
            used = 0
        }
        let p = chunk! + used
        used += n
        return p
    }

    /// A borrowed C string copy of `text`.
    func string(_ text: String) throws(AmberError) -> UnsafeMutablePointer<CChar> {
        var text = text
        let p = try allocate(text.utf8.count + 1)
        let n = text.withUTF8 { utf8 -> Int in
            if let base = utf8.baseAddress { memcpy(p, base, utf8.count) }
            return utf8.count
        }
        p.storeBytes(of: 0, toByteOffset: n, as: UInt8.self)
        return p.assumingMemoryBound(to: CChar.self)
    }

    /// A borrowed copy of `bytes` (never NULL, even when empty).
    func bytes(_ bytes: [UInt8]) throws(AmberError) -> UnsafeMutablePointer<UInt8> {
        let raw = try allocate(bytes.count)
        bytes.withUnsafeBytes { b in if let base = b.baseAddress { memcpy(raw, base, b.count) } }
        return raw.assumingMemoryBound(to: UInt8.self)
    }

    /// A borrowed copy of `values` as an array of size_t (never NULL, even when empty).
    func sizes(_ values: [Int]) throws(AmberError) -> UnsafeMutablePointer<Int> {
        let array = try allocate(MemoryLayout<Int>.stride * max(values.count, 1))
            .bindMemory(to: Int.self, capacity: max(values.count, 1))
        array[0] = 0
        for (i, v) in values.enumerated() { array[i] = v }
        return array
    }

    /// A borrowed array of borrowed C strings, copies of `strings` (never NULL).
    func stringArray(_ strings: [String]) throws(AmberError) -> UnsafeMutablePointer<UnsafePointer<CChar>?> {
        let slots = max(strings.count, 1)
        let array = try allocate(MemoryLayout<UnsafePointer<CChar>?>.stride * slots)
            .bindMemory(to: UnsafePointer<CChar>?.self, capacity: slots)
        array[0] = nil
        for (i, s) in strings.enumerated() { array[i] = UnsafePointer(try string(s)) }
        return array
    }

    /// Makes every block given out since the last reset invalid; keeps the current chunk.
    /// `wiping`: zeroes every byte given out first (a decoder's loans, SPEC R34).
    func reset(wiping: Bool = false) {
        if wiping {
            if let chunk { explicit_bzero(chunk, used) }
            for b in retired { explicit_bzero(b.block, b.used) }
        }
        if !retired.isEmpty {
            for b in retired { free(b.block) }
            retired.removeAll(keepingCapacity: true)
        }
        used = 0
    }

    deinit {
        for b in retired { free(b.block) }
        free(chunk)
    }
}

/// One C string that an owner replaces over time (an object's identifier, the last duplicates).
final class CStringSlot {
    private(set) var text: String?
    private(set) var pointer: UnsafeMutablePointer<CChar>?

    init(_ text: String? = nil) { set(text) }

    /// Replaces the string (nil: none); the previous pointer dangles afterwards.
    func set(_ text: String?) {
        free(pointer)
        self.text = text
        pointer = text.map { mallocCString($0) } ?? nil
    }

    /// The pointer for `text`, rebuilt only when it changed.
    func pointer(for text: String?) -> UnsafePointer<CChar>? {
        if text != self.text { set(text) }
        return UnsafePointer(pointer)
    }

    deinit { free(pointer) }
}
