/// A durable write in pieces, each piece's write-back to the device started as soon as it is
/// written (`system_start_write_back`), so that the device works while the next pieces are
/// copied into the page cache and the `fsync` that follows waits for less. Starting the
/// write-back is advisory: when it fails, the `fsync` still makes everything durable.
///
/// Kept because preservation needs it to stay within its target against Amber 0.1
/// (BENCHMARKS.md, "Amber 0.2 against 0.1").
enum PipelinedWrite {
    /// The bytes written before each write-back is started.
    static let pieceSize = 512 * 1024

    /// Writes all of `bytes` to `fd`, a new and empty file, in pieces of `pieceSize`.
    /// - Throws: `.io` naming `path` when a write fails.
    static func write(_ fd: Int32, _ bytes: [UInt8], _ path: String, pieceSize: Int = pieceSize) throws(AmberError) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + pieceSize, bytes.count)
            try FileSystem.writeAll(fd, bytes[offset ..< end], path)
            system_start_write_back(fd, offset, end - offset)
            offset = end
        }
    }
}
