/// The host's callbacks of one restorable object (SPEC R1). Each is optional.
///
/// The C layer fills these with trampolines to the host's function pointers; the host's context
/// pointer travels in the C layer's subclass of `RestorableObject`.
public struct RestorableCallbacks {
    /// Writes the object's state into its own coder at preservation (SPEC R6). Nil: the object
    /// is recorded with an empty state. An error thrown here stops the preservation and is
    /// thrown, unchanged, by `Engine.preserve()`.
    public var encode: ((RestorableObject, StateCoder) throws -> Void)?
    /// Reads the object's state back at restoration, after every object exists (SPEC R12). An
    /// error thrown here is reported as the object's `decodeError` outcome.
    public var decode: ((RestorableObject, StateDecoder) throws -> Void)?
    /// Called on every restored object once all have been decoded (SPEC R13).
    public var finishedRestoring: ((RestorableObject) -> Void)?

    /// Creates a set of callbacks; each defaults to none.
    public init(
        encode: ((RestorableObject, StateCoder) throws -> Void)? = nil,
        decode: ((RestorableObject, StateDecoder) throws -> Void)? = nil,
        finishedRestoring: ((RestorableObject) -> Void)? = nil
    ) {
        self.encode = encode
        self.decode = decode
        self.finishedRestoring = finishedRestoring
    }
}
