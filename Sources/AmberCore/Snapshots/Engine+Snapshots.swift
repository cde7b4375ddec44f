import AmberArchive

extension Engine {
    /// Attaches a snapshot (a PNG of the interface, say) for the next preservation that writes
    /// an archive (SPEC R21), replacing one attached before; nil removes it. Call it before
    /// `preserve()` or from one of its callbacks (will-encode, an encode callback). The
    /// snapshot belongs to that one archive: a later preservation carries none unless the host
    /// attaches another, so a stale image never outlives the state it showed.
    /// - Throws: `.limitExceeded` beyond `configuration.limits.maxValueLength` bytes.
    public func attachSnapshot(_ bytes: [UInt8]?) throws(AmberError) {
        if let bytes { try checkSnapshotSize(bytes.count) }
        snapshots.pending = bytes
    }

    /// Attaches a copy of `bytes` as the snapshot (as `attachSnapshot(_:)`), checking the size
    /// before copying, so that a buffer over the limit is neither read nor copied.
    /// - Throws: `.limitExceeded` beyond `configuration.limits.maxValueLength` bytes.
    public func attachSnapshot(copying bytes: UnsafeRawBufferPointer) throws(AmberError) {
        try checkSnapshotSize(bytes.count)
        snapshots.pending = Array(bytes)
    }

    /// The snapshot size rule (SPEC R21): at most the longest value an archive keeps.
    private func checkSnapshotSize(_ count: Int) throws(AmberError) {
        let limit = configuration.limits.maxValueLength
        guard count <= limit else { throw AmberError(.limitExceeded, "a snapshot of \(count) bytes; at most \(limit) are kept") }
    }

    /// Whether a snapshot is attached for the next preservation.
    public var hasAttachedSnapshot: Bool { snapshots.pending != nil }

    /// Asks that the snapshot not be used at the next launch (UIKit's
    /// ignoreSnapshotOnNextApplicationLaunch): the next archive written records that its snapshot
    /// is ignored and leaves the bytes out. Call it before or during the preservation it is for.
    public func ignoreSnapshotOnNextLaunch() {
        snapshots.ignoreNext = true
    }

    /// The snapshot of the archive there is (SPEC R21): the one being restored while
    /// restoration runs (so callbacks may read it), else the one in the store, read and opened
    /// (before launch, to show it while restoring). Nil when there is no archive. After a restore
    /// attempt the archive, and its snapshot, are gone (SPEC R14).
    /// - Throws: what the store and envelope throw (`.keyUnavailable` for a locked key);
    ///   `.corrupt` for an archive that cannot be read.
    public func archivedSnapshot() throws -> ArchivedSnapshot? {
        if activity == .restoring, let s = snapshots.restoring { return s }
        guard let sealed = try store.read() else { return nil }
        let plain = try configuration.envelope.open(sealed)
        let u: KeyedUnarchiver
        do {
            u = try KeyedUnarchiver(bytes: plain, limits: configuration.limits, registry: codingClasses)
        } catch {
            throw AmberError(.corrupt, "the archive cannot be read: \(AmberError(error).message)")
        }
        return try ArchivedSnapshot(reading: u)
    }
}
