import Testing
@testable import AmberCore

/// `PipelinedWrite`: a durable write in pieces, each piece's write-back started as it is
/// written, gives the same file as one write.
@Suite struct PipelinedWriteTests {
    /// Bytes that differ from one offset to the next, so a piece written twice, dropped or out of
    /// place changes what is read back.
    static func pattern(_ count: Int) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    // R19
    @Test(arguments: [0, 1, 4095, 4096, 4097, 3 * 4096 + 17])
    func piecesMakeTheWholeFile(count: Int) throws {
        let scratch = ScratchDirectory("pipelined")
        defer { scratch.cleanup() }
        try FileSystem.makeDirectories(scratch.path)
        let bytes = Self.pattern(count)
        let (fd, path) = try FileSystem.createTemporaryFile(directory: scratch.path, name: "file")
        try PipelinedWrite.write(fd, bytes, path, pieceSize: 4096)
        #expect(system_close(fd) == 0)
        #expect(try FileSystem.readFile(path, maxBytes: .max) == bytes)
    }

    // R19: the archive's durable replacement, with pieces of the size it uses
    @Test func durableReplacementOfAnArchiveLargerThanAPiece() throws {
        let scratch = ScratchDirectory("pipelined-archive")
        defer { scratch.cleanup() }
        let bytes = Self.pattern(2 * PipelinedWrite.pieceSize + 300_000)
        try FileSystem.writeFileAtomically(directory: scratch.path, name: "state.archive", bytes: Array("old".utf8))
        try FileSystem.writeFileAtomically(directory: scratch.path, name: "state.archive", bytes: bytes)
        #expect(try FileSystem.readFile(scratch.path + "/state.archive", maxBytes: .max) == bytes)
        #expect(FileSystem.directoryEntries(scratch.path) == ["state.archive"])
    }
}
