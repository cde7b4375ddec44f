/// What a restoration did (SPEC R16): why the launch was fresh, or each archived object with its
/// outcome. UIKit fails silently; Amber never does.
///
/// A collection of its records, walkable by index in archive order (parents before children).
public struct RestorationReport: RandomAccessCollection, CustomStringConvertible {
    /// Why nothing was restored, or nil if the archive was restored (in whole or in part).
    public var freshLaunchReason: FreshLaunchReason?
    /// Each archived object and its outcome, in archive order.
    public var records: [RestorationRecord]
    /// Remarks on the restoration as a whole: a callback that failed outside any object (did
    /// decode), a launch guard or archive that could not be updated, an extension pending.
    public var notes: [String]
    /// Whether the archive is kept, waiting for extensions to complete (SPEC R15).
    public var isExtended: Bool

    /// Creates a report.
    public init(
        freshLaunchReason: FreshLaunchReason? = nil, records: [RestorationRecord] = [], notes: [String] = [],
        isExtended: Bool = false
    ) {
        self.freshLaunchReason = freshLaunchReason
        self.records = records
        self.notes = notes
        self.isExtended = isExtended
    }

    /// Whether the launch was fresh.
    public var isFresh: Bool { freshLaunchReason != nil }

    /// The index of the first record.
    public var startIndex: Int { records.startIndex }
    /// The index past the last record.
    public var endIndex: Int { records.endIndex }
    /// The record at an index.
    public subscript(index: Int) -> RestorationRecord { records[index] }

    /// How many records have an outcome.
    public func count(of outcome: RestorationOutcome) -> Int {
        records.reduce(0) { $0 + ($1.outcome == outcome ? 1 : 0) }
    }

    /// How many records were restored, migrated ones included (`RestorationOutcome.isRestored`).
    public var restoredCount: Int {
        records.reduce(0) { $0 + ($1.outcome.isRestored ? 1 : 0) }
    }

    /// The record of a restoration path, if the archive had one.
    public func record(forPath path: [String]) -> RestorationRecord? {
        records.first { $0.path == path }
    }

    /// The report's message about the launch as a whole, one item a line: why it was fresh
    /// (the reason alone, so that a host's own "fresh launch: …" says it once), then the
    /// notes. Backs `amber_report_message`.
    public var message: String {
        ((freshLaunchReason.map { ["\($0)"] } ?? []) + notes).joined(separator: "\n")
    }

    /// Several lines: a summary, then one line per record (`outcome  path  class`, with any
    /// note), then the notes.
    public var description: String {
        var lines: [String] = []
        if let reason = freshLaunchReason {
            lines.append("fresh launch: \(reason)")
        } else {
            lines.append("restored \(restoredCount) of \(records.count) archived objects\(isExtended ? " (extended)" : "")")
        }
        for r in records {
            var line = "  \(r.outcome)  \(PathComponent.describe(r.components))  \(r.className) (\(r.kind))"
            if let note = r.note { line += "  — \(note)" }
            lines.append(line)
            if !r.droppedModelIdentifiers.isEmpty {
                lines.append("    dropped model identifiers: \(r.droppedModelIdentifiers.joined(separator: ", "))")
            }
        }
        for note in notes { lines.append("  note: \(note)") }
        return lines.joined(separator: "\n")
    }
}
