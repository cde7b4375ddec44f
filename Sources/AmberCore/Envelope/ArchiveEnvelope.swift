/// What wraps the archive's bytes between the codec and the store (SPEC R20): sealing before a
/// write, opening after a read. The seam where authenticated encryption goes.
///
/// `open` signals a key that is not available with `AmberError(.keyUnavailable)` (the engine
/// then keeps the archive and launches fresh), and an archive that does not authenticate with
/// `.authenticationFailed` (the engine discards it).
public protocol ArchiveEnvelope {
    /// The bytes to store for an archive.
    func seal(_ archive: [UInt8]) throws -> [UInt8]
    /// The archive inside stored bytes.
    func open(_ sealed: [UInt8]) throws -> [UInt8]
    /// How archives are protected, in words (shown by reports).
    var protection: String { get }
}

extension ArchiveEnvelope {
    public var protection: String { "none (stored without an envelope)" }
}
