import AmberArchive

/// An error raised by the restoration engine: a code a program can switch on and a message a
/// person can read.
///
/// The codes are those of the C ABI's status codes (`AMBER_E*` in `include/amber.h`), so that
/// the C layer converts one into the other without loss. Errors of the codec (`ArchiveError`)
/// are converted with `init(_:)`; errors that host callbacks throw are passed up unchanged.
public struct AmberError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public enum Code: String, Sendable, CaseIterable {
        /// An argument is not acceptable (an empty name, a tree that would contain itself).
        case invalidArgument
        /// A key, object, class or file that was asked for does not exist.
        case notFound
        /// A value exists but is not of the type or class asked for.
        case typeMismatch
        /// Host code tried to write one of the engine's own keys (SPEC R7, see `ReservedKeys`).
        case reservedKey
        /// A restoration path or key occurs twice (SPEC R3).
        case duplicate
        /// The operating system refused a file operation.
        case io
        /// An archive is not well formed.
        case corrupt
        /// The key that opens the archive is not available (the device is locked).
        case keyUnavailable
        /// The archive does not authenticate (tampered, or sealed with another key).
        case authenticationFailed
        /// A limit on size, count or nesting was exceeded.
        case limitExceeded
        /// A call was made at a moment it is not allowed (a coder used after its callback returned,
        /// a token completed twice, a re-entrant preservation).
        case misuse
        /// A callback of the host reported a failure.
        case callbackFailed
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence naming the problem.
    public var message: String

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Converts an error of the codec: `corrupt` and `notKeyedArchive` become `.corrupt`,
    /// `limitExceeded` `.limitExceeded`, `keyNotFound` `.notFound`, `typeMismatch` and
    /// `classNotAllowed` (a class the caller did not allow, or one not registered: secure coding)
    /// `.typeMismatch`, `invalidValue` `.invalidArgument`, `callbackFailed` `.callbackFailed`.
    public init(_ error: ArchiveError) {
        let code: Code
        switch error.code {
        case .corrupt, .notKeyedArchive: code = .corrupt
        case .limitExceeded: code = .limitExceeded
        case .keyNotFound: code = .notFound
        case .typeMismatch, .classNotAllowed: code = .typeMismatch
        case .invalidValue: code = .invalidArgument
        case .duplicate: code = .duplicate
        case .callbackFailed: code = .callbackFailed
        }
        self.init(code, error.message)
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// Any error as an `AmberError`: itself, a converted `ArchiveError`, or `.callbackFailed`
    /// with the error's description for anything else (an error a host callback threw).
    public static func wrapping(_ error: any Error) -> AmberError {
        if let e = error as? AmberError { return e }
        if let e = error as? ArchiveError { return AmberError(e) }
        return AmberError(.callbackFailed, String(describing: error))
    }
}
