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
    /// The envelope format version (1).
    public var formatVersion: UInt8
    /// How the payload is protected.
    public var algorithm: EnvelopeAlgorithm
    /// The bundle version of the application that wrote it.
    public var bundleVersion: String
    /// Where the payload starts.
    public var payloadOffset: Int
}

/// The byte layout of an envelope, shared by sealing and opening.
///
/// ```
/// offset  size  field
/// 0       8     magic "AMBERENV"
/// 8       1     format version: 1
/// 9       1     algorithm (EnvelopeAlgorithm)
/// 10      2     length L of the bundle version, big-endian, at most 1024
/// 12      L     bundle version, UTF-8
/// aes256GCM only:
/// 12+L    32    salt of the per-archive key
/// 44+L    12    nonce
/// 56+L    n     ciphertext
/// end-16  16    tag
/// none: 12+L    the archive itself
/// ```
/// Everything before the ciphertext is the associated data: editing a header byte (the version,
/// the algorithm, the salt, the nonce, the bundle version) fails authentication.
public enum EnvelopeFormat {
    public static let magic: [UInt8] = Array("AMBERENV".utf8)
    public static let version: UInt8 = 1
    public static let maxBundleVersionBytes = 1024
    public static let saltBytes = 32
    public static let nonceBytes = 12
    public static let tagBytes = 16
    static let info: [UInt8] = Array("amber archive key v1".utf8)

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
        guard bytes[8] == version else {
            throw AmberError(.corrupt, "envelope format version \(bytes[8]) is not supported (expected \(version))")
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
        return EnvelopeHeader(formatVersion: version, algorithm: algorithm, bundleVersion: bundleVersion,
                              payloadOffset: 12 + length)
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

    /// An encrypting envelope.
    public init(keyProvider: any KeyProvider, bundleVersion: String) {
        self.algorithm = .aes256GCM
        self.keyProvider = keyProvider
        self.bundleVersion = bundleVersion
    }

    /// The explicit choice not to encrypt: the header is still written (and shown by the report
    /// and `amber`), nothing is authenticated.
    public static func unencrypted(bundleVersion: String) -> SealedEnvelope {
        SealedEnvelope(algorithm: .none, keyProvider: nil, bundleVersion: bundleVersion)
    }

    private init(algorithm: EnvelopeAlgorithm, keyProvider: (any KeyProvider)?, bundleVersion: String) {
        self.algorithm = algorithm
        self.keyProvider = keyProvider
        self.bundleVersion = bundleVersion
    }

    public var protection: String { algorithm.description }

    private func archiveKey(_ purpose: KeyPurpose, salt: [UInt8]) throws(AmberError) -> SymmetricKey {
        guard let keyProvider else { throw AmberError(.keyUnavailable, "no key provider") }
        let master = try keyProvider.masterKey(for: purpose)
        guard master.count == 32 else {
            throw AmberError(.keyUnavailable, "the key provider gave \(master.count) bytes, not 32")
        }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: master), salt: salt, info: EnvelopeFormat.info, outputByteCount: 32)
    }

    public func seal(_ archive: [UInt8]) throws -> [UInt8] {
        var out = try EnvelopeFormat.prefix(algorithm, bundleVersion)
        switch algorithm {
        case .none:
            out.append(contentsOf: archive)
            return out
        case .aes256GCM:
            let salt = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            let key = try archiveKey(.seal, salt: salt)
            let nonce = AES.GCM.Nonce()
            out.append(contentsOf: salt)
            out.append(contentsOf: nonce)
            let box: AES.GCM.SealedBox
            do {
                box = try AES.GCM.seal(archive, using: key, nonce: nonce, authenticating: out)
            } catch {
                throw AmberError(.io, "the archive could not be encrypted: \(error)")
            }
            out.reserveCapacity(out.count + archive.count + EnvelopeFormat.tagBytes)
            out.append(contentsOf: box.ciphertext)
            out.append(contentsOf: box.tag)
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
        let start = header.payloadOffset
        switch algorithm {
        case .none:
            return Array(sealed[start...])
        case .aes256GCM:
            let minimum = start + EnvelopeFormat.saltBytes + EnvelopeFormat.nonceBytes + EnvelopeFormat.tagBytes
            guard sealed.count >= minimum else {
                throw AmberError(.corrupt, "the encrypted archive is \(sealed.count) bytes long, shorter than its header, salt, nonce and tag (\(minimum))")
            }
            let salt = Array(sealed[start ..< start + EnvelopeFormat.saltBytes])
            let nonceStart = start + EnvelopeFormat.saltBytes
            let cipherStart = nonceStart + EnvelopeFormat.nonceBytes
            let tagStart = sealed.count - EnvelopeFormat.tagBytes
            let key = try archiveKey(.open, salt: salt)
            do {
                let nonce = try AES.GCM.Nonce(data: sealed[nonceStart ..< cipherStart])
                let box = try AES.GCM.SealedBox(
                    nonce: nonce, ciphertext: sealed[cipherStart ..< tagStart], tag: sealed[tagStart...])
                let plain = try AES.GCM.open(box, using: key, authenticating: sealed[0 ..< cipherStart])
                return [UInt8](plain)
            } catch {
                throw AmberError(.authenticationFailed, "the archive does not authenticate: it was altered, or sealed with another key")
            }
        }
    }
}
