import AmberArchive

/// The snapshot an archive carries (SPEC R21): the image bytes the host attached when it
/// preserved, unless it asked to ignore the snapshot at the next launch.
///
/// The snapshot lives inside the archive, as two keys of its top level beside `amber.format`:
/// `amber.snapshot` (NSData) and `amber.snapshotIgnored` (true when the host asked to ignore it;
/// the bytes are then not written at all). Inside the archive it is sealed by the same envelope
/// (the authenticated encryption of SPEC R20 seals the snapshot with the state), written by the
/// same atomic write, and discarded with the archive: no second file can outlive or contradict it.
public struct ArchivedSnapshot: Equatable, Sendable {
    static let bytesKey = "amber.snapshot"
    static let ignoredKey = "amber.snapshotIgnored"

    /// The image bytes, or nil if none was attached (or it was ignored).
    public var bytes: [UInt8]?
    /// Whether the host asked to ignore the snapshot at this launch.
    public var isIgnored: Bool

    /// Creates a snapshot description.
    public init(bytes: [UInt8]?, isIgnored: Bool) {
        self.bytes = bytes
        self.isIgnored = isIgnored
    }

    /// Reads the top level of an archive.
    /// - Throws: `.corrupt` if the keys hold values of other types.
    init(reading u: KeyedUnarchiver) throws(AmberError) {
        do {
            isIgnored = u.containsValue(forKey: Self.ignoredKey) ? try u.decodeBool(forKey: Self.ignoredKey) : false
            bytes = u.containsValue(forKey: Self.bytesKey) && !isIgnored ? try u.decodeBytes(forKey: Self.bytesKey) : nil
        } catch {
            throw AmberError(.corrupt, "the archive's snapshot is malformed: \(error.message)")
        }
    }
}
