/// Bounds that reading enforces before it allocates or recurses (SPEC R22).
///
/// The defaults accept any archive a program of ordinary size writes, including a restoration
/// archive of a million objects, while keeping a hostile file from exhausting memory or stack.
public struct ArchiveLimits: Sendable, Equatable {
    /// The largest input, in bytes. Default 512 MiB.
    public var maxBytes: Int
    /// The most objects the property list may declare. Default 32 Mi.
    public var maxObjects: Int
    /// The deepest nesting of containers in the property list (arrays, sets, dictionaries), and
    /// of objects inside objects while decoding a keyed archive. Default 512.
    public var maxDepth: Int
    /// The longest string (in UTF-16 code units or ASCII bytes) or data value, in bytes. Default 64 MiB.
    public var maxValueLength: Int

    /// Creates limits; every parameter has the default described on its property.
    public init(
        maxBytes: Int = 512 << 20,
        maxObjects: Int = 32 << 20,
        maxDepth: Int = 512,
        maxValueLength: Int = 64 << 20
    ) {
        self.maxBytes = maxBytes
        self.maxObjects = maxObjects
        self.maxDepth = maxDepth
        self.maxValueLength = maxValueLength
    }

    /// The defaults.
    public static let `default` = ArchiveLimits()
}
