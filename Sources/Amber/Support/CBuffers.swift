// Byte buffers in and out: input buffers copied, output buffers on the C heap
// (amber_bytes_free).

import AmberCore
#if canImport(Glibc)
import Glibc
#endif

/// An input buffer: `size` bytes at `bytes` (which may be NULL only when size is 0), copied.
func inputBytes(_ bytes: UnsafeRawPointer?, _ size: Int) throws(AmberError) -> [UInt8] {
    let n = try inputCount(size, "size")
    guard bytes != nil || n == 0 else { throw invalid("bytes is NULL and size is \(n)") }
    return n == 0 ? [] : Array(UnsafeRawBufferPointer(start: bytes, count: n))
}

/// A malloc'ed copy of `bytes` for an out parameter (never NULL, even when empty).
func newBytes(_ bytes: [UInt8]) throws(AmberError) -> UnsafeMutablePointer<UInt8> {
    guard let raw = malloc(max(bytes.count, 1)) else { throw AmberError(.limitExceeded, "out of memory for \(bytes.count) bytes") }
    bytes.withUnsafeBytes { b in if let base = b.baseAddress { memcpy(raw, base, b.count) } }
    return raw.assumingMemoryBound(to: UInt8.self)
}
