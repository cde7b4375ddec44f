// Byte buffers in and out: input buffers copied, output buffers as an amber_buf on the C heap
// (amber_buf_dispose).

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// An input buffer: `size` bytes at `bytes` (which may be NULL only when size is 0), copied.
func inputBytes(_ bytes: UnsafeRawPointer?, _ size: Int) throws(AmberError) -> [UInt8] {
    let n = try inputCount(size, "size")
    guard bytes != nil || n == 0 else { throw invalid("bytes is NULL and size is \(n)") }
    return n == 0 ? [] : Array(UnsafeRawBufferPointer(start: bytes, count: n))
}

/// The out buffer of a function, reset to { NULL, 0 } (so that it is empty on failure).
func outBuf(_ out: UnsafeMutablePointer<amber_buf>?) throws(AmberError) -> UnsafeMutablePointer<amber_buf> {
    guard let out else { throw invalid("out is NULL") }
    out.pointee = amber_buf(ptr: nil, size: 0)
    return out
}

/// Fills `out` with a malloc'ed copy of `count` bytes at `base`, NUL-terminated.
private func fill(_ out: UnsafeMutablePointer<amber_buf>, _ base: UnsafeRawPointer?, _ count: Int) throws(AmberError) {
    guard let raw = malloc(count + 1) else { throw AmberError(.limitExceeded, "out of memory for \(count) bytes") }
    if let base, count > 0 { memcpy(raw, base, count) }
    raw.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
    out.pointee = amber_buf(ptr: raw.assumingMemoryBound(to: CChar.self), size: count)
}

/// Fills `out` with `bytes`.
func fillBuf(_ out: UnsafeMutablePointer<amber_buf>, _ bytes: [UInt8]) throws(AmberError) {
    let result = bytes.withUnsafeBytes { b in Result { () throws(AmberError) in try fill(out, b.baseAddress, b.count) } }
    try result.get()
}

/// Fills `out` with the UTF-8 of `text`.
func fillBuf(_ out: UnsafeMutablePointer<amber_buf>, _ text: String) throws(AmberError) {
    var text = text
    let result = text.withUTF8 { u in Result { () throws(AmberError) in try fill(out, UnsafeRawPointer(u.baseAddress), u.count) } }
    try result.get()
}

/// Releases a buffer. Backs `amber_buf_dispose`.
@c @implementation public func amber_buf_dispose(_ buf: UnsafeMutablePointer<amber_buf>?) {
    guard let buf else { return }
    free(buf.pointee.ptr)
    buf.pointee = amber_buf(ptr: nil, size: 0)
}
