import AmberArchive

/// What an engine keeps about snapshots (SPEC R21): the snapshot attached for the next
/// preservation, whether the next archive should mark its snapshot ignored, and the snapshot of
/// the archive being restored.
final class SnapshotSlot {
    /// The bytes the next preservation that writes an archive takes.
    var pending: [UInt8]?
    /// Whether the next archive written marks its snapshot ignored (and leaves the bytes out).
    var ignoreNext = false
    /// The snapshot of the archive under restoration, while `restore()` runs.
    var restoring: ArchivedSnapshot?

    /// Writes the snapshot keys at the top level of an archive being made.
    func encode(into archiver: KeyedArchiver) {
        if ignoreNext {
            archiver.encode(true, forKey: ArchivedSnapshot.ignoredKey)
        } else if let bytes = pending {
            archiver.encode(bytes: bytes, forKey: ArchivedSnapshot.bytesKey)
        }
    }

    /// The archive was written: the snapshot and the request to ignore it belonged to it.
    func didWrite() {
        pending = nil
        ignoreNext = false
    }
}
