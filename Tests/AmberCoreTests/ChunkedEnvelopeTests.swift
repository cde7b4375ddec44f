// The chunked envelope, format version 2 (SPEC R20, R22): round trips at chunk boundaries,
// version 1 envelopes of earlier releases still open, and every edit of a multi-chunk envelope
// (bit flips, truncations, chunks swapped, duplicated, removed, cut at a chunk boundary) is
// rejected with a typed error.

@testable import AmberCore
import Crypto
import Testing

private let key = [UInt8](repeating: 0xA5, count: 32)

/// An envelope that writes chunks of 2^`shift` bytes.
private func envelope(shift: Int = EnvelopeFormat.defaultChunkShift) throws -> SealedEnvelope {
    SealedEnvelope(keyProvider: try FixedKeyProvider(key: key), bundleVersion: "2.1", chunkShift: shift)
}

/// Bytes that are not all alike, so that a chunk moved elsewhere is not the same chunk.
private func pattern(_ count: Int) -> [UInt8] {
    (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
}

/// The header's length in a version 2 AES-256-GCM envelope with bundle version "2.1".
private let headerBytes = 12 + 3 + 32 + 1 + 7

/// A version 1 envelope, sealed as earlier releases did: one AES-256-GCM seal of the whole
/// archive under HKDF-SHA256(master, salt, "amber archive key v1"), everything before the
/// ciphertext as associated data.
private func sealedVersion1(_ archive: [UInt8], bundleVersion: String = "1.9") throws -> [UInt8] {
    let salt = [UInt8](repeating: 0x3C, count: 32)
    let nonce = AES.GCM.Nonce()
    let utf8 = Array(bundleVersion.utf8)
    var out = Array("AMBERENV".utf8) + [1, 1, UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
    out += salt
    out += Array(nonce)
    let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key), salt: salt,
                                         info: Array("amber archive key v1".utf8), outputByteCount: 32)
    let box = try AES.GCM.seal(archive, using: derived, nonce: nonce, authenticating: out)
    return out + Array(box.ciphertext) + Array(box.tag)
}

/// The error code opening gives, or nil if it opened.
private func rejection(_ bytes: [UInt8], _ opener: SealedEnvelope) -> AmberError.Code? {
    do {
        _ = try opener.open(bytes)
        return nil
    } catch {
        return code(error) ?? .io
    }
}

@Suite struct ChunkedEnvelopeTests {
    // R20: sizes around the chunk size, with small chunks, the 64 KiB ones written and 1 MiB ones (written before)
    @Test(arguments: [6, EnvelopeFormat.defaultChunkShift, 20])
    func roundTripsAtChunkBoundaries(shift: Int) throws {
        let chunk = 1 << shift
        let sealer = try envelope(shift: shift)
        let opener = try envelope()  // the chunk size is read from each envelope
        for size in [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk, 4 * chunk + 17] {
            let archive = pattern(size)
            let bytes = try sealer.seal(archive)
            let chunks = max(1, (size + chunk - 1) / chunk)
            #expect(bytes.count == headerBytes + size + 16 * chunks, "size \(size)")
            let header = try EnvelopeFormat.header(of: bytes)
            #expect(header.formatVersion == 2 && header.chunkSize == chunk)
            #expect(try opener.open(bytes) == archive, "size \(size), chunks of \(chunk)")
        }
    }

    // R20: an archive written by the previous release (format 1) still opens
    @Test func version1EnvelopesStillOpen() throws {
        let opener = try envelope()
        for size in [0, 1, 100, 5000] {
            let archive = pattern(size)
            let bytes = try sealedVersion1(archive)
            let header = try EnvelopeFormat.header(of: bytes)
            #expect(header.formatVersion == 1 && header.bundleVersion == "1.9" && header.chunkSize == nil)
            #expect(try opener.open(bytes) == archive)
        }
        // and is still authenticated: every flip and truncation of a small one is rejected
        let bytes = try sealedVersion1(pattern(40))
        var accepted = 0
        for i in 0 ..< bytes.count {
            for bit in 0 ..< 8 {
                var copy = bytes
                copy[i] ^= UInt8(1 << bit)
                if rejection(copy, opener) == nil { accepted += 1 }
            }
        }
        for length in 0 ..< bytes.count where rejection(Array(bytes.prefix(length)), opener) == nil { accepted += 1 }
        #expect(accepted == 0)
        // An unencrypted version 1 envelope opens too.
        let plain = Array("AMBERENV".utf8) + [1, 0, 0, 1, UInt8(ascii: "7")] + pattern(30)
        #expect(try SealedEnvelope.unencrypted(bundleVersion: "7").open(plain) == pattern(30))
    }

    // R20, R22: every bit flip and every truncation of a five-chunk envelope is rejected
    @Test func everyFlipAndTruncationOfAMultiChunkEnvelopeIsRejected() throws {
        let bytes = try envelope(shift: 6).seal(pattern(4 * 64 + 10))
        #expect(bytes.count == headerBytes + 4 * 64 + 10 + 5 * 16)
        let opener = try envelope()
        var accepted: [String] = []
        var codes: Set<AmberError.Code> = []
        for i in 0 ..< bytes.count {
            for bit in 0 ..< 8 {
                var copy = bytes
                copy[i] ^= UInt8(1 << bit)
                if let c = rejection(copy, opener) { codes.insert(c) } else { accepted.append("flip \(i).\(bit)") }
            }
        }
        for length in 0 ..< bytes.count {
            if let c = rejection(Array(bytes.prefix(length)), opener) { codes.insert(c) } else { accepted.append("prefix \(length)") }
        }
        #expect(accepted.isEmpty, "accepted: \(accepted.prefix(10))")
        #expect(codes.isSubset(of: [.corrupt, .authenticationFailed]), "\(codes)")
        #expect(try opener.open(bytes) == pattern(4 * 64 + 10))
    }

    // R20, R22: chunks swapped, duplicated, removed, added, or the envelope cut at a chunk boundary
    @Test(arguments: [4 * 64 + 10, 4 * 64])  // a short last chunk, a full one
    func chunkEditsAreRejected(size: Int) throws {
        let stride = 64 + 16
        let bytes = try envelope(shift: 6).seal(pattern(size))
        let header = Array(bytes.prefix(headerBytes))
        var chunks: [[UInt8]] = []
        var at = headerBytes
        while at < bytes.count {
            chunks.append(Array(bytes[at ..< min(at + stride, bytes.count)]))
            at += stride
        }
        #expect(chunks.count == (size + 63) / 64)
        func assemble(_ parts: [[UInt8]]) -> [UInt8] { header + parts.flatMap { $0 } }
        #expect(assemble(chunks) == bytes)
        let last = chunks.count - 1
        var swapped = chunks
        swapped.swapAt(1, 2)
        var swappedWithLast = chunks
        swappedWithLast.swapAt(0, last)
        var duplicated = chunks
        duplicated.insert(chunks[1], at: 2)
        var removed = chunks
        removed.remove(at: 1)
        var lastDuplicated = chunks
        lastDuplicated.append(chunks[last])
        let cases: [(String, [UInt8])] = [
            ("chunks 1 and 2 swapped", assemble(swapped)),
            ("the first and last chunks swapped", assemble(swappedWithLast)),
            ("chunk 1 duplicated", assemble(duplicated)),
            ("chunk 1 removed", assemble(removed)),
            ("the last chunk removed (cut at a chunk boundary)", assemble(Array(chunks.dropLast()))),
            ("cut after the first chunk", assemble([chunks[0]])),
            ("the last chunk duplicated", assemble(lastDuplicated)),
            ("chunk 0 appended", assemble(chunks + [chunks[0]])),
            ("an empty chunk appended", assemble(chunks + [Array(chunks[last].suffix(16))])),
            ("the chunks alone, no header", chunks.flatMap { $0 }),
            ("only the header", header),
        ]
        let opener = try envelope()
        for (name, edited) in cases {
            let c = rejection(edited, opener)
            #expect(c == .authenticationFailed || c == .corrupt, "\(name): \(String(describing: c))")
        }
        // The same chunks under another archive's header (another salt and nonce prefix).
        let other = try envelope(shift: 6).seal(pattern(size))
        #expect(rejection(Array(other.prefix(headerBytes)) + chunks.flatMap { $0 }, opener) == .authenticationFailed)
    }

    // R22: the chunk size byte is checked and authenticated; nothing is allocated by a declared size
    @Test func chunkSizeByteIsCheckedAndAuthenticated() throws {
        let bytes = try envelope(shift: 6).seal(pattern(200))
        let at = headerBytes - 8  // the chunk size exponent
        #expect(bytes[at] == 6)
        let opener = try envelope()
        for shift in [0, 5, 25, 63, 255] {
            var edited = bytes
            edited[at] = UInt8(shift)
            #expect(rejection(edited, opener) == .corrupt, "exponent \(shift)")
            #expect(throws: AmberError.self) { try EnvelopeFormat.header(of: edited) }
        }
        for shift in [7, 8, 20, 24] {  // valid exponents that the tag does not cover
            var edited = bytes
            edited[at] = UInt8(shift)
            #expect(rejection(edited, opener) == .authenticationFailed, "exponent \(shift)")
        }
        // A header that declares 16 MiB chunks over a 100-byte input opens nothing and allocates
        // no more than the input holds.
        var big = try envelope(shift: 24).seal(pattern(20))
        big[big.count - 1] ^= 1
        #expect(rejection(big, opener) == .authenticationFailed)
    }
}
