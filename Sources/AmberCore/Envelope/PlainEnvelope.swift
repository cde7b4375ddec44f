/// The envelope that does nothing: the archive is stored as it is (a binary property list).
/// The default until encryption is configured.
public struct PlainEnvelope: ArchiveEnvelope, Sendable {
    /// Creates the envelope.
    public init() {}
    /// The archive itself.
    public func seal(_ archive: [UInt8]) throws -> [UInt8] { archive }
    /// The bytes themselves.
    public func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed }
}
