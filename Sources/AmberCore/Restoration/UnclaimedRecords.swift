/// The records of a restoration that found no object, kept in memory after it for objects the
/// host creates later (SPEC R35), with the archive they are read from.
final class UnclaimedRecords {
    /// The restoration's session: its records, decoders and migrated states. Nil once dropped.
    private(set) var session: RestoreSession?
    /// The plain archive the session reads, sharing its storage: zeroed when the records are
    /// dropped, once nothing else holds it.
    private var plain: [UInt8]
    /// When the records are dropped, in monotonic seconds (`FileSystem.monotonicSeconds()`).
    let deadline: Double
    /// The kept records by restoration path.
    private(set) var byPath: [[PathComponent]: Int]
    /// Whether a save has carried them into its archive (SPEC R35): the restoration report
    /// says so once, not at every autosave.
    var wereCarried = false

    init(session: RestoreSession, plain: [UInt8], deadline: Double, records: [Int]) {
        self.session = session
        self.plain = plain
        self.deadline = deadline
        byPath = Dictionary(records.map { (session.paths.components($0), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The kept records, in archive order.
    var records: [Int] { byPath.values.sorted() }

    /// Whether record `i` is still kept.
    func isKept(_ i: Int) -> Bool {
        guard let session else { return false }
        return byPath[session.paths.components(i)] == i
    }

    /// Record `i` is claimed: no longer kept.
    func claim(_ i: Int) {
        guard let session else { return }
        byPath[session.paths.components(i)] = nil
    }

    /// Whether record `j` is under record `i` (its parent, or its recorded ancestor, or theirs).
    func isRecord(_ j: Int, under i: Int) -> Bool {
        guard let session else { return false }
        var above = session.records[j].above
        while above > i { above = session.records[above].above }
        return above == i
    }

    /// Lets the session go and zeroes the archive's bytes.
    func drop() {
        session?.endDecoding()
        session = nil
        byPath = [:]
        // Nothing else holds the storage now (unless a host kept a decoder past its callback):
        // the bytes are overwritten in place.
        FileSystem.zero(&plain)
        plain = []
    }
}
