// The box behind an amber_report handle: a restoration report with its C strings.

import AmberCore
import CAmber

/// A restoration report (SPEC R16) in the C layout, owning every string it lends.
///
/// A record's C form (its path, class name and message as C strings) is made the first time
/// the host reads it, and kept until the report is freed; the text of amber_report_format() is
/// made when asked for. A launch that restores a million objects does not pay for a million
/// C records nobody reads.
final class ReportBox {
    let freshReason: CInt
    let message: UnsafePointer<CChar>
    /// How the archive was protected (the engine's envelope), in words.
    let protection: UnsafePointer<CChar>
    /// The protection as Swift text, for `text`.
    private let protectionText: String
    private let report: RestorationReport
    /// The C records made so far (a record's `path` is NULL until it is made).
    private var made: [amber_report_record] = []
    /// Class names as C strings, one per distinct name.
    private var classNames: [String: UnsafePointer<CChar>] = [:]
    /// The positions arrays made so far, by record.
    private var madePositions: [Int: UnsafePointer<Int>] = [:]
    private let arena = ScratchArena()

    init(_ report: RestorationReport, protection: String) throws(AmberError) {
        self.protection = UnsafePointer(try arena.string(protection))
        self.protectionText = protection
        freshReason = report.freshLaunchReason.map(ReportBox.code(of:)) ?? CInt(AMBER_FRESH_NONE.rawValue)
        message = UnsafePointer(try arena.string(report.message))
        self.report = report
    }

    /// The number of records.
    var count: Int { report.records.count }

    /// Record `index` (in range) in the C layout; its pointers live as long as the report.
    func record(at index: Int) throws(AmberError) -> amber_report_record {
        if made.isEmpty { made = [amber_report_record](repeating: amber_report_record(), count: report.records.count) }
        if made[index].path != nil { return made[index] }
        let r = report.records[index]
        var c = amber_report_record()
        c.path = UnsafePointer(try arena.stringArray(r.path))
        c.path_length = r.path.count
        if let name = classNames[r.className] {
            c.class_name = name
        } else {
            let name = UnsafePointer(try arena.string(r.className))
            classNames[r.className] = name
            c.class_name = name
        }
        c.kind = amber_kind(rawValue: Int32(r.kind.rawValue))
        let (outcome, why) = ReportBox.outcome(of: r)
        c.outcome = amber_outcome(rawValue: UInt32(outcome))
        c.message = why.isEmpty ? staticEmpty : UnsafePointer(try arena.string(why))
        c.object = ObjectBox.of(r.object)?.handle
        c.position = r.position
        let dropped = r.droppedModelIdentifiers
        if !dropped.isEmpty {
            c.dropped_identifiers = UnsafePointer(try arena.stringArray(dropped))
            c.dropped_count = dropped.count
        }
        made[index] = c
        return c
    }

    /// The stack positions of record `index`'s path components (SPEC R3), made when first asked
    /// for (`amber_report_record_positions`): the record's C form has its last one only.
    func positions(at index: Int) throws(AmberError) -> UnsafePointer<Int> {
        if let made = madePositions[index] { return made }
        let made = UnsafePointer(try arena.sizes(report.records[index].components.map(\.position)))
        madePositions[index] = made
        return made
    }

    /// The whole report as text, one line per record.
    var text: String {
        var text = report.description
        text += "\n  archive protection: \(protectionText)"
        return text
    }

    /// The header's fresh-launch reason.
    static func code(of reason: FreshLaunchReason) -> CInt {
        let c: amber_fresh_reason
        switch reason {
        case .noArchive: c = AMBER_FRESH_NO_ARCHIVE
        case .shouldRestoreDeclined: c = AMBER_FRESH_DECLINED
        case .corruptArchive: c = AMBER_FRESH_CORRUPT
        case .crashLoop: c = AMBER_FRESH_CRASH_LOOP
        case .keyUnavailable: c = AMBER_FRESH_KEY_UNAVAILABLE
        case .unreadableArchive, .launchGuardUnusable: c = AMBER_FRESH_STORE_ERROR
        case .otherApplication: c = AMBER_FRESH_OTHER_APPLICATION
        case .authenticationFailed: c = AMBER_FRESH_AUTHENTICATION_FAILED
        case .discardedByHost: c = AMBER_FRESH_DISCARDED_BY_HOST
        case .restorationInProgress: c = AMBER_FRESH_IN_PROGRESS
        case .extendedRestorationUnfinished: c = AMBER_FRESH_EXTENSION_UNFINISHED
        }
        return CInt(c.rawValue)
    }

    /// The header's outcome and the record's message ("" for restored).
    static func outcome(of r: RestorationRecord) -> (CInt, String) {
        let c: amber_outcome
        var why = r.note ?? r.outcome.description
        switch r.outcome {
        case .restored:
            c = AMBER_OUTCOME_RESTORED
            why = ""
        case .declinedByClass: c = AMBER_OUTCOME_DECLINED_BY_CLASS
        case .notFound: c = AMBER_OUTCOME_NOT_FOUND
        case .classMismatch: c = AMBER_OUTCOME_CLASS_MISMATCH
        case .leftOut: c = AMBER_OUTCOME_LEFT_OUT
        case .decodeError(let m):
            c = AMBER_OUTCOME_DECODE_ERROR
            why = m
        case .duplicate: c = AMBER_OUTCOME_DUPLICATE
        case .migrated(let from, let to):
            c = AMBER_OUTCOME_MIGRATED
            why = "migrated from version \(from) to version \(to)"
        case .declinedVersion: c = AMBER_OUTCOME_DECLINED_VERSION
        }
        return (CInt(c.rawValue), why)
    }
}
