/// What a preservation did (SPEC R2–R8).
public struct PreservationResult: CustomStringConvertible {
    /// Whether an archive was written; false when should-save declined (nothing is written).
    public var saved: Bool
    /// How many objects were recorded.
    public var objectCount: Int
    /// The size of what was written, in bytes (after the envelope).
    public var byteCount: Int
    /// The restoration paths that occurred more than once: the objects after the first with each
    /// were not preserved, nor anything under them (SPEC R3).
    public var duplicates: [[String]]

    /// Creates a result.
    public init(saved: Bool, objectCount: Int = 0, byteCount: Int = 0, duplicates: [[String]] = []) {
        self.saved = saved
        self.objectCount = objectCount
        self.byteCount = byteCount
        self.duplicates = duplicates
    }

    /// One line, plus a line per duplicate path.
    public var description: String {
        guard saved else { return "not saved: should-save declined" }
        var text = "saved \(objectCount) objects in \(byteCount) bytes"
        for d in duplicates { text += "\n  duplicate path, not preserved: /\(d.joined(separator: "/"))" }
        return text
    }
}
