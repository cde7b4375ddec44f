/// What one preservation knows of sensitive values (SPEC R34), shared by its coders: whether
/// the engine encrypts its archives, and, if a coder was asked to mark a key sensitive though
/// it does not, why the preservation must write nothing.
final class SensitiveValues {
    /// The reserved key, in the state of a record (or the application state), under which the
    /// names of its sensitive keys are recorded, so that `amber inspect` and `amber dump` can
    /// hide their values.
    static let key = "amber.sensitive"

    /// Whether the archive will be encrypted (AES-256-GCM).
    let encrypts: Bool
    /// Set when a key was marked sensitive without encryption: the preservation then fails
    /// with `.keyUnavailable` and this message, writing nothing.
    var refusal: String?

    init(encrypts: Bool) { self.encrypts = encrypts }

    /// Whether `envelope` encrypts what it seals.
    static func encrypts(_ envelope: any ArchiveEnvelope) -> Bool {
        (envelope as? SealedEnvelope)?.algorithm == .aes256GCM
    }
}
