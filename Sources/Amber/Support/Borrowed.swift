// A reference used for the length of one call without a retain: the one place the C layer
// vouches for an object's lifetime instead of counting it.

/// A class instance used for one call without retaining it, because something else provably
/// holds it for that long: for instance a coder or decoder box, and the coder or decoder it
/// points at, are held by their lender (`HandleRegistry.lend` and the engine's callback) until
/// the host's callback returns, and every `amber_coder_*` and `amber_decoder_*` call runs inside
/// that callback. Each use names its holder in a comment.
///
/// Without it Swift retains and releases the object around the call (both atomic), once for
/// each value a host writes or reads. This type is the one place that vouches for a lifetime
/// instead of counting it. Kept because the C API needs it to stay within its target against
/// Amber 0.1 (BENCHMARKS.md, "Amber 0.2 against 0.1").
struct Borrowed<Object: AnyObject> {
    private let unmanaged: Unmanaged<Object>

    /// `unmanaged` must stay alive until every `with` on this value has returned.
    @inline(__always)
    init(_ unmanaged: Unmanaged<Object>) { self.unmanaged = unmanaged }

    /// Calls `body` with the object, borrowed for the call, and gives what it returns.
    @inline(__always)
    func with<T, E: Error>(_ body: (Object) throws(E) -> T) throws(E) -> T {
        let result = unmanaged._withUnsafeGuaranteedRef { object in Result { () throws(E) -> T in try body(object) } }
        return try result.get()
    }
}
