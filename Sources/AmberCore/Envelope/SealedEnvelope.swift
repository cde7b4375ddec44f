// The archive envelope (SPEC R20): authenticated encryption of the whole archive, with a header
// that is bound to the ciphertext as associated data.

import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the bytes inside an envelope are protected.
public enum EnvelopeAlgorithm: UInt8, Sendable, CustomStringConvertible {
    /// Not encrypted: an explicit choice of the host, shown by the report and `amber`.
    case none = 0
    /// AES-256-GCM under a per-archive key derived by HKDF-SHA256 from the master key and a
    /// random 32-byte salt, with a random 12-byte nonce.
    case aes256GCM = 1

    public var description: String {
        switch self {
        case .none: "none (not encrypted)"
        case .aes256GCM: "AES-256-GCM, HKDF-SHA256 per-archive key"
        }
    }
}

/// The header of an envelope, as read back.
public struct EnvelopeHeader: Equatable, Sendable {
    /// The envelope format version: 2 as written now, 1 as written by earlier releases (still
    /// read).
    public var formatVersion: UInt8
    /// How the payload is protected.
    public var algorithm: EnvelopeAlgorithm
    /// The bundle version of the application that wrote it.
    public var bundleVersion: String
    /// Where the payload starts (just after the bundle version).
    public var payloadOffset: Int
    /// The plaintext bytes of each sealed chunk (version 2, AES-256-GCM); nil otherwise.
    public var chunkSize: Int? = nil
}

/// The byte layout of an envelope, shared by sealing and opening.
///
/// ```
/// offset  size  field
/// 0       8     magic "AMBERENV"
/// 8       1     format version: 2 (written), 1 (still read)
/// 9       1     algorithm (EnvelopeAlgorithm)
/// 10      2     length L of the bundle version, big-endian, at most 1024
/// 12      L     bundle version, UTF-8
/// none (either version):
/// 12+L    n     the archive itself
/// aes256GCM, version 2 (chunked, the STREAM construction):
/// 12+L    32    salt of the per-archive key (HKDF info "amber archive key v2")
/// 44+L    1     chunk size exponent s, 6...24: each chunk holds 2^s plaintext bytes (written: 16, 64 KiB)
/// 45+L    7     nonce prefix P, random
/// 52+L    ...   chunks 0 ..< k, each its ciphertext then its 16-byte tag; every chunk but the last
///               holds 2^s bytes, the last 1...2^s (0 only when the archive is empty, k = 1)
/// aes256GCM, version 1 (one seal):
/// 12+L    32    salt of the per-archive key (HKDF info "amber archive key v1")
/// 44+L    12    nonce
/// 56+L    n     ciphertext
/// end-16  16    tag
/// ```
/// Version 2: chunk i is sealed with AES-256-GCM under the per-archive key with the nonce
/// P ‖ i (4 bytes, big-endian) ‖ f, f = 1 for the last chunk and 0 for the others, and the
/// header (bytes 0 ..< 52+L) as associated data. The key is fresh per archive (its salt), and
/// the index makes each chunk's nonce unique under it. The number of chunks follows from the
/// length; a length that leaves the last chunk fewer than 16 bytes, or an empty last chunk after
/// full ones (never written), is `.corrupt` before any decryption.
/// Editing a header byte fails authentication of every chunk; swapping, duplicating or removing
/// chunks changes their index, and cutting the envelope at a chunk boundary leaves a last chunk
/// that was sealed as not last: all fail authentication. (STREAM: Hoang, Reyhanitabar, Rogaway,
/// Vizár, "Online Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance", 2015; the
/// same nonce layout as Tink's AES-GCM-HKDF streaming AEAD.) Sealing and opening work chunk by
/// chunk into one preallocated output, so their peak is the input, the output and one chunk.
///
/// Version 1: everything before the ciphertext is the associated data.
public enum EnvelopeFormat {
    public static let magic: [UInt8] = Array("AMBERENV".utf8)
    /// The version written.
    public static let version: UInt8 = 2
    /// The versions read.
    public static let readableVersions: ClosedRange<UInt8> = 1 ... 2
    public static let maxBundleVersionBytes = 1024
    public static let saltBytes = 32
    /// The nonce of version 1.
    public static let nonceBytes = 12
    /// The random nonce prefix of version 2 (then a 4-byte chunk index and a 1-byte last flag).
    public static let noncePrefixBytes = 7
    public static let tagBytes = 16
    /// The chunk size exponents version 2 accepts: chunks of 64 bytes (tests, the fuzzer) to
    /// 16 MiB.
    public static let chunkShifts: ClosedRange<Int> = 6 ... 24
    /// The chunk size exponent written: 64 KiB chunks. swift-crypto returns each sealed chunk
    /// in buffers of its own (the ciphertext, then a copy with the nonce and tag), which are
    /// then copied into the envelope: at 64 KiB they are reused heap blocks that stay in the
    /// cache, where 1 MiB ones (written before) were fresh pages faulted in for every chunk.
    /// Each chunk's 16-byte tag and its AES-GCM setup are small beside encrypting 64 KiB; an
    /// archive of at most 64 KiB is one chunk, as in format 1. Envelopes of 1 MiB chunks still open
    /// (the size is in the header).
    public static let defaultChunkShift = 16
    static let infoV1: [UInt8] = Array("amber archive key v1".utf8)
    static let infoV2: [UInt8] = Array("amber archive key v2".utf8)

    /// Whether bytes start like an envelope (the magic), whatever else they hold.
    public static func looksLikeEnvelope(_ bytes: [UInt8]) -> Bool {
        bytes.count >= magic.count && Array(bytes[0 ..< magic.count]) == magic
    }

    /// The header of an envelope.
    /// - Throws: `.corrupt` for bytes that are not an envelope of a known version.
    public static func header(of bytes: [UInt8]) throws(AmberError) -> EnvelopeHeader {
        guard bytes.count >= 12 else {
            throw AmberError(.corrupt, "the archive is \(bytes.count) bytes long, shorter than an envelope header (12 bytes)")
        }
        guard looksLikeEnvelope(bytes) else {
            throw AmberError(.corrupt, "the archive does not start with the envelope magic \"AMBERENV\"")
        }
        let formatVersion = bytes[8]
        guard readableVersions.contains(formatVersion) else {
            throw AmberError(.corrupt, "envelope format version \(formatVersion) is not supported (expected \(readableVersions.lowerBound)...\(readableVersions.upperBound))")
        }
        guard let algorithm = EnvelopeAlgorithm(rawValue: bytes[9]) else {
            throw AmberError(.corrupt, "envelope algorithm \(bytes[9]) is unknown")
        }
        let length = Int(bytes[10]) << 8 | Int(bytes[11])
        guard length <= maxBundleVersionBytes, 12 + length <= bytes.count else {
            throw AmberError(.corrupt, "the envelope's bundle version length \(length) does not fit")
        }
        guard let bundleVersion = String(validating: bytes[12 ..< 12 + length], as: UTF8.self) else {
            throw AmberError(.corrupt, "the envelope's bundle version is not UTF-8")
        }
        var header = EnvelopeHeader(formatVersion: formatVersion, algorithm: algorithm, bundleVersion: bundleVersion,
                                    payloadOffset: 12 + length)
        if formatVersion >= 2 && algorithm == .aes256GCM {
            header.chunkSize = 1 << (try chunkShift(bytes, payloadOffset: header.payloadOffset))
        }
        return header
    }

    /// The chunk size exponent of a version 2 AES-256-GCM envelope, checked.
    static func chunkShift(_ bytes: [UInt8], payloadOffset: Int) throws(AmberError) -> Int {
        let at = payloadOffset + saltBytes
        guard at < bytes.count else {
            throw AmberError(.corrupt, "the encrypted archive is \(bytes.count) bytes long, shorter than its header")
        }
        let shift = Int(bytes[at])
        guard chunkShifts.contains(shift) else {
            throw AmberError(.corrupt, "the envelope's chunk size exponent \(shift) is outside \(chunkShifts.lowerBound)...\(chunkShifts.upperBound)")
        }
        return shift
    }

    static func prefix(_ algorithm: EnvelopeAlgorithm, _ bundleVersion: String) throws(AmberError) -> [UInt8] {
        let utf8 = Array(bundleVersion.utf8)
        guard utf8.count <= maxBundleVersionBytes else {
            throw AmberError(.limitExceeded, "the bundle version is \(utf8.count) bytes long, more than \(maxBundleVersionBytes)")
        }
        var out = magic
        out.append(version)
        out.append(algorithm.rawValue)
        out.append(UInt8(utf8.count >> 8))
        out.append(UInt8(utf8.count & 0xFF))
        out.append(contentsOf: utf8)
        return out
    }

    /// The nonce of chunk `index` of a version 2 envelope.
    static func chunkNonce(prefix: ArraySlice<UInt8>, index: Int, last: Bool) throws -> AES.GCM.Nonce {
        var bytes = Array(prefix)
        bytes.reserveCapacity(nonceBytes)
        let i = UInt32(index)
        bytes.append(UInt8(i >> 24))
        bytes.append(UInt8(i >> 16 & 0xFF))
        bytes.append(UInt8(i >> 8 & 0xFF))
        bytes.append(UInt8(i & 0xFF))
        bytes.append(last ? 1 : 0)
        return try AES.GCM.Nonce(data: bytes)
    }
}

/// Seals archives with authenticated encryption (SPEC R20), or, as an explicit choice, wraps them
/// unencrypted in the same header.
///
/// Opening checks that the stored algorithm is the configured one: an unencrypted archive given
/// to an encrypting envelope (a downgrade) and an encrypted one given to a plain envelope are
/// refused with `.authenticationFailed`.
public struct SealedEnvelope: ArchiveEnvelope {
    /// How archives are protected.
    public let algorithm: EnvelopeAlgorithm
    /// Where the master key comes from (unused for `.none`).
    public let keyProvider: (any KeyProvider)?
    /// The bundle version written into each header.
    public let bundleVersion: String
    /// The chunk size exponent written (`EnvelopeFormat.defaultChunkShift`; smaller ones for
    /// tests and the fuzzer). Opening reads it from each envelope.
    let chunkShift: Int

    /// An encrypting envelope.
    public init(keyProvider: any KeyProvider, bundleVersion: String) {
        self.init(algorithm: .aes256GCM, keyProvider: keyProvider, bundleVersion: bundleVersion,
                  chunkShift: EnvelopeFormat.defaultChunkShift)
    }

    /// An encrypting envelope that writes chunks of 2^`chunkShift` bytes (within
    /// `EnvelopeFormat.chunkShifts`): small ones make multi-chunk envelopes of small archives
    /// for tests and the fuzzer.
    package init(keyProvider: any KeyProvider, bundleVersion: String, chunkShift: Int) {
        precondition(EnvelopeFormat.chunkShifts.contains(chunkShift), "chunk size exponent \(chunkShift) out of range")
        self.init(algorithm: .aes256GCM, keyProvider: keyProvider, bundleVersion: bundleVersion, chunkShift: chunkShift)
    }

    /// The explicit choice not to encrypt: the header is still written (and shown by the report
    /// and `amber`), nothing is authenticated.
    public static func unencrypted(bundleVersion: String) -> SealedEnvelope {
        SealedEnvelope(algorithm: .none, keyProvider: nil, bundleVersion: bundleVersion,
                       chunkShift: EnvelopeFormat.defaultChunkShift)
    }

    private init(algorithm: EnvelopeAlgorithm, keyProvider: (any KeyProvider)?, bundleVersion: String, chunkShift: Int) {
        self.algorithm = algorithm
        self.keyProvider = keyProvider
        self.bundleVersion = bundleVersion
        self.chunkShift = chunkShift
    }

    public var protection: String { algorithm.description }

    /// The per-archive key. What the key provider throws (see `KeyProvider`): when sealing,
    /// passed up unchanged (a host callback's own code reaches the host); when opening,
    /// `.authenticationFailed` (the archive can never be opened) and `.keyUnavailable` as they
    /// are, and any other failure as `.keyUnavailable` naming the key provider, so that the
    /// engine keeps the archive and launches fresh (SPEC R20): a key provider that failed says
    /// nothing about the archive, which is not corrupt for it.
    private func archiveKey(_ purpose: KeyPurpose, salt: ArraySlice<UInt8>, info: [UInt8]) throws -> SymmetricKey {
        guard let keyProvider else { throw AmberError(.keyUnavailable, "no key provider") }
        let master: [UInt8]
        do { master = try keyProvider.masterKey(for: purpose) } catch {
            guard purpose == .open else { throw error }
            if let e = error as? AmberError {
                if e.code == .authenticationFailed || e.code == .keyUnavailable { throw e }
                throw AmberError(.keyUnavailable, "the key provider failed (\(e.code.rawValue)): \(e.message)")
            }
            throw AmberError(.keyUnavailable, "the key provider failed: \(error)")
        }
        guard master.count == 32 else {
            throw AmberError(.keyUnavailable, "the key provider gave \(master.count) bytes, not 32")
        }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: master), salt: salt, info: info, outputByteCount: 32)
    }

    public func seal(_ archive: [UInt8]) throws -> [UInt8] {
        var header = try EnvelopeFormat.prefix(algorithm, bundleVersion)
        switch algorithm {
        case .none:
            header.append(contentsOf: archive)
            return header
        case .aes256GCM:
            let salt = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            let key = try archiveKey(.seal, salt: salt[...], info: EnvelopeFormat.infoV2)
            header.append(contentsOf: salt)
            header.append(UInt8(chunkShift))
            header.append(contentsOf: AES.GCM.Nonce().prefix(EnvelopeFormat.noncePrefixBytes))
            let noncePrefix = header[(header.count - EnvelopeFormat.noncePrefixBytes)...]
            let chunk = 1 << chunkShift
            let chunks = max(1, (archive.count + chunk - 1) / chunk)
            guard chunks - 1 <= Int(UInt32.max) else {
                throw AmberError(.limitExceeded, "the archive is \(archive.count) bytes long, more than 2^32 chunks of \(chunk) bytes")
            }
            // One output, allocated once; the header (the associated data of every chunk) is
            // its own small array, so that appending to `out` never copies it.
            var out: [UInt8] = []
            out.reserveCapacity(header.count + archive.count + chunks * EnvelopeFormat.tagBytes)
            out.append(contentsOf: header)
            do {
                for i in 0 ..< chunks {
                    let start = i * chunk
                    let nonce = try EnvelopeFormat.chunkNonce(prefix: noncePrefix, index: i, last: i == chunks - 1)
                    let box = try AES.GCM.seal(archive[start ..< min(start + chunk, archive.count)],
                                               using: key, nonce: nonce, authenticating: header)
                    out.append(contentsOf: box.ciphertext)
                    out.append(contentsOf: box.tag)
                }
            } catch {
                throw AmberError(.io, "the archive could not be encrypted: \(error)")
            }
            return out
        }
    }

    public func open(_ sealed: [UInt8]) throws -> [UInt8] {
        let header = try EnvelopeFormat.header(of: sealed)
        guard header.algorithm == algorithm else {
            switch algorithm {
            case .none:
                throw AmberError(.authenticationFailed, "the archive is encrypted (\(header.algorithm)) but this engine was set up without encryption")
            case .aes256GCM:
                throw AmberError(.authenticationFailed, "the archive is not encrypted (\(header.algorithm)) but this engine requires \(algorithm): refused as a downgrade")
            }
        }
        switch algorithm {
        case .none:
            return Array(sealed[header.payloadOffset...])
        case .aes256GCM:
            return header.formatVersion == 1 ? try openVersion1(sealed, header) : try openVersion2(sealed, header)
        }
    }

    private static func notAuthentic() -> AmberError {
        AmberError(.authenticationFailed, "the archive does not authenticate: it was altered, or sealed with another key")
    }

    /// Opens a version 2 envelope chunk by chunk into one output: nothing is returned unless every
    /// chunk authenticates.
    private func openVersion2(_ sealed: [UInt8], _ header: EnvelopeHeader) throws -> [UInt8] {
        let start = header.payloadOffset
        let shift = try EnvelopeFormat.chunkShift(sealed, payloadOffset: start)
        let prefixStart = start + EnvelopeFormat.saltBytes + 1
        let chunksStart = prefixStart + EnvelopeFormat.noncePrefixBytes
        let minimum = chunksStart + EnvelopeFormat.tagBytes
        guard sealed.count >= minimum else {
            throw AmberError(.corrupt, "the encrypted archive is \(sealed.count) bytes long, shorter than its header, salt, nonce prefix and one tag (\(minimum))")
        }
        // The chunks' count and sizes follow from the length alone: every chunk but the last is
        // 2^s + 16 bytes, the last 16 ... 2^s + 16 (16, an empty chunk, only when it is the only one).
        let chunk = 1 << shift, stride = chunk + EnvelopeFormat.tagBytes
        let payload = sealed.count - chunksStart
        let full = payload / stride, rest = payload % stride
        guard rest == 0 || rest >= EnvelopeFormat.tagBytes else {
            throw AmberError(.corrupt, "the encrypted archive ends with \(rest) bytes, too short for a chunk's tag")
        }
        guard !(rest == EnvelopeFormat.tagBytes && full > 0) else {
            throw AmberError(.corrupt, "the encrypted archive ends with an empty chunk after \(full) full ones")
        }
        let chunks = full + (rest == 0 ? 0 : 1)
        guard chunks - 1 <= Int(UInt32.max) else {
            throw AmberError(.corrupt, "the encrypted archive has more than 2^32 chunks")
        }
        let key = try archiveKey(.open, salt: sealed[start ..< start + EnvelopeFormat.saltBytes], info: EnvelopeFormat.infoV2)
        let associated = sealed[0 ..< chunksStart]
        let noncePrefix = sealed[prefixStart ..< chunksStart]
        // At most the input's length: the size is what the input holds, never a declared one.
        var plain: [UInt8] = []
        plain.reserveCapacity(payload - chunks * EnvelopeFormat.tagBytes)
        do {
            for i in 0 ..< chunks {
                let cipherStart = chunksStart + i * stride
                let tagStart = i == chunks - 1 ? sealed.count - EnvelopeFormat.tagBytes : cipherStart + chunk
                let nonce = try EnvelopeFormat.chunkNonce(prefix: noncePrefix, index: i, last: i == chunks - 1)
                let box = try AES.GCM.SealedBox(
                    nonce: nonce, ciphertext: sealed[cipherStart ..< tagStart],
                    tag: sealed[tagStart ..< tagStart + EnvelopeFormat.tagBytes])
                plain.append(contentsOf: try AES.GCM.open(box, using: key, authenticating: associated))
            }
        } catch {
            throw Self.notAuthentic()
        }
        return plain
    }

    /// Opens a version 1 envelope (earlier releases): one seal of the whole archive.
    private func openVersion1(_ sealed: [UInt8], _ header: EnvelopeHeader) throws -> [UInt8] {
        let start = header.payloadOffset
        let minimum = start + EnvelopeFormat.saltBytes + EnvelopeFormat.nonceBytes + EnvelopeFormat.tagBytes
        guard sealed.count >= minimum else {
            throw AmberError(.corrupt, "the encrypted archive is \(sealed.count) bytes long, shorter than its header, salt, nonce and tag (\(minimum))")
        }
        let nonceStart = start + EnvelopeFormat.saltBytes
        let cipherStart = nonceStart + EnvelopeFormat.nonceBytes
        let tagStart = sealed.count - EnvelopeFormat.tagBytes
        let key = try archiveKey(.open, salt: sealed[start ..< nonceStart], info: EnvelopeFormat.infoV1)
        do {
            let nonce = try AES.GCM.Nonce(data: sealed[nonceStart ..< cipherStart])
            let box = try AES.GCM.SealedBox(
                nonce: nonce, ciphertext: sealed[cipherStart ..< tagStart], tag: sealed[tagStart...])
            let plain = try AES.GCM.open(box, using: key, authenticating: sealed[0 ..< cipherStart])
            return [UInt8](plain)
        } catch {
            throw Self.notAuthentic()
        }
    }
}
