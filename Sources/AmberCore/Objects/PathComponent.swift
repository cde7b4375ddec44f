/// One step of a restoration path (SPEC R3): an identifier exactly as the host set it, and its
/// position among the earlier children of a stack with the same identifier (0 for the first,
/// and everywhere outside a stack).
///
/// Paths are handed to host code as identifiers alone; the positions tell apart what those
/// identifiers alone cannot (two children `A` of one stack), so that no identifier is ever
/// rewritten and no identifier a host chooses collides with another.
public struct PathComponent: Hashable, Sendable, CustomStringConvertible {
    /// The restoration identifier.
    public var identifier: String
    /// The position among the earlier same-identifier children of a stack.
    public var position: Int

    /// Creates a component.
    public init(_ identifier: String, position: Int = 0) {
        self.identifier = identifier
        self.position = position
    }

    /// The identifier, followed by `[k]` for a position k ≥ 1 (for messages and reports only;
    /// never a path component).
    public var description: String { position == 0 ? identifier : "\(identifier)[\(position)]" }

    /// A path spelled for messages: `/A/B[1]/C`.
    public static func describe(_ path: some Collection<PathComponent>) -> String {
        "/" + joined(path)
    }

    /// A path's components joined with `/`, each with its position as in `description`:
    /// `A/B[1]/C`, the text form of a path given to hosts (`amber_object_path()`). Every
    /// position is shown, so the children `X` of two `A` of one stack read `A/X` and `A[1]/X`.
    public static func joined(_ path: some Collection<PathComponent>) -> String {
        path.map(\.description).joined(separator: "/")
    }
}
