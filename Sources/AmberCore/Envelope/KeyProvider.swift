// Where the master key of the envelope comes from (SPEC R20).

import Crypto

/// Why a key is asked for.
public enum KeyPurpose: Sendable {
    /// To seal a new archive: a provider may create its key now.
    case seal
    /// To open an archive found at launch.
    case open
}

/// A source of the 32-byte master key.
///
/// `masterKey(for:)` throws `AmberError(.keyUnavailable)` when the key cannot be had now (the
/// device is locked). What the envelope (`SealedEnvelope`) does with what it throws:
/// - sealing (a save): the error is passed up unchanged, whatever its type (a host callback's
///   own code reaches the host's call unchanged), and the previous archive is kept;
/// - opening (a launch): `AmberError(.authenticationFailed)` says the archive can never be
///   opened (its key is gone): the engine discards it. Anything else, `.keyUnavailable` or any
///   other failure of the provider, keeps the archive and launches fresh with the reason "key
///   unavailable", naming the key provider and its failure (SPEC R20): a provider that failed
///   says nothing about the archive.
public protocol KeyProvider {
    func masterKey(for purpose: KeyPurpose) throws -> [UInt8]
}

/// A fixed key, for tests and for hosts that keep their key elsewhere.
public struct FixedKeyProvider: KeyProvider, Sendable {
    let key: [UInt8]

    /// - Throws: `.invalidArgument` unless the key is 32 bytes.
    public init(key: [UInt8]) throws(AmberError) {
        guard key.count == 32 else { throw AmberError(.invalidArgument, "a fixed key must be 32 bytes, not \(key.count)") }
        self.key = key
    }

    public func masterKey(for purpose: KeyPurpose) throws(AmberError) -> [UInt8] { key }
}

/// A random key that lives as long as the provider: for archives that never outlive the
/// process (the memory store).
public final class EphemeralKeyProvider: KeyProvider, @unchecked Sendable {
    let key: [UInt8] = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }

    public init() {}

    public func masterKey(for purpose: KeyPurpose) throws(AmberError) -> [UInt8] { key }
}

/// A key given by a closure (the host's callback): it returns the key, or throws
/// `.keyUnavailable`, or any error of its own (passed up unchanged by a save; see
/// `KeyProvider`).
public struct ClosureKeyProvider: KeyProvider {
    let body: (KeyPurpose) throws -> [UInt8]

    public init(_ body: @escaping (KeyPurpose) throws -> [UInt8]) {
        self.body = body
    }

    public func masterKey(for purpose: KeyPurpose) throws -> [UInt8] { try body(purpose) }
}

/// The default provider: a key file of 32 random bytes, created owner-only (0600) on first use
/// by a seal, and refused with `.keyUnavailable`, for a seal as for an open, if it is a
/// symbolic link or not a regular file (a FIFO, a directory, a socket, a device: never opened
/// so that it blocks, never read, left as it is), if it is not this user's, if group or others
/// may read or write it, or if it does not hold exactly 32 bytes. A system error reading it is
/// `.io` for a seal, `.keyUnavailable` for an open (the archive is kept).
public struct KeyFileProvider: KeyProvider, Sendable {
    /// The default key file's name in the state directory.
    public static let defaultName = "archive.key"

    public let directory: String
    public let name: String

    public init(directory: String, name: String = KeyFileProvider.defaultName) {
        self.directory = directory
        self.name = name
    }

    public var path: String { directory + "/" + name }

    public func masterKey(for purpose: KeyPurpose) throws(AmberError) -> [UInt8] {
        if let key = try read(purpose) { return key }
        switch purpose {
        case .open:
            // The archive was sealed with a key that is gone: it can never be opened.
            throw AmberError(.authenticationFailed, "the key file '\(path)' does not exist, so the archive cannot be opened")
        case .seal:
            let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            if try FileSystem.createFileExclusively(directory: directory, name: name, bytes: fresh) { return fresh }
            // Another process created it first: use theirs.
            guard let key = try read(purpose) else { throw AmberError(.io, "the key file '\(path)' vanished while it was created") }
            return key
        }
    }

    /// Removes what a save killed while it created the key file left behind: its temporary
    /// files `.<name>.<hex>.tmp` beside the key file, one of which may be a second hard link of
    /// the live key (the key stays under its name). The engine calls it at each restore, beside the
    /// store's `removeStaleFiles()`. Returns how many were
    /// removed.
    @discardableResult
    public func removeStaleFiles() -> Int {
        FileSystem.removeStaleTemporaryFiles(directory: directory, name: name)
    }

    /// The key in the file, nil if there is none. A file unfit to be a key (see the type) is
    /// "unavailable"; one the system cannot read is an I/O error when sealing, and
    /// "unavailable" when opening, so that the archive is kept, not discarded.
    private func read(_ purpose: KeyPurpose) throws(AmberError) -> [UInt8]? {
        let file: FileSystem.PrivateFile?
        do { file = try FileSystem.readPrivateFile(path, maxBytes: 64) } catch {
            if purpose == .seal || error.code == .keyUnavailable { throw error }
            throw AmberError(.keyUnavailable, "the key file cannot be used: \(error.message)")
        }
        guard let file else { return nil }
        guard file.ownedByUs else {
            throw AmberError(.keyUnavailable, "the key file '\(path)' belongs to another user; refused")
        }
        guard file.mode & 0o077 == 0 else {
            let octal = String(file.mode, radix: 8)
            throw AmberError(.keyUnavailable, "the key file '\(path)' has mode \(octal): group or others may use it; refused (make it 0600)")
        }
        guard file.bytes.count == 32 else {
            throw AmberError(.keyUnavailable, "the key file '\(path)' holds \(file.bytes.count) bytes, not 32; refused")
        }
        return file.bytes
    }
}
