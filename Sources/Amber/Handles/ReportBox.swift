// The box behind an amber_report handle: a restoration report with its C strings.

import AmberCore
import CAmber

/// A restoration report (SPEC R16) in the C layout, owning every string it lends.
final class ReportBox {
    let freshReason: CInt
    let message: UnsafePointer<CChar>
    let records: [amber_report_record]
    let text: String
    /// How the archive was protected (the engine's envelope), in words.
    let protection: UnsafePointer<CChar>
    private let arena = CArena()

    init(_ report: RestorationReport, extraNotes: [String], protection: String) throws(AmberError) {
        self.protection = UnsafePointer(try arena.string(protection))
        var notes = report.notes + extraNotes
        if let reason = report.freshLaunchReason {
            freshReason = ReportBox.code(of: reason)
            notes.insert("fresh launch: \(reason)", at: 0)
        } else {
            freshReason = CInt(AMBER_FRESH_NONE.rawValue)
        }
        message = UnsafePointer(try arena.string(notes.joined(separator: "\n")))
        var text = report.description
        for n in extraNotes { text += "\n  note: \(n)" }
        text += "\n  archive protection: \(protection)"
        self.text = text
        var records: [amber_report_record] = []
        records.reserveCapacity(report.records.count)
        for r in report.records {
            var c = amber_report_record()
            c.path = UnsafePointer(try arena.stringArray(r.path))
            c.path_length = r.path.count
            c.class_name = UnsafePointer(try arena.string(r.className))
            c.kind = CInt(r.kind.rawValue)
            let (outcome, why) = ReportBox.outcome(of: r)
            c.outcome = outcome
            c.message = UnsafePointer(try arena.string(why))
            c.object = ObjectBox.of(r.object)?.handle
            records.append(c)
        }
        self.records = records
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
        case .unreadableArchive: c = AMBER_FRESH_STORE_ERROR
        case .authenticationFailed: c = AMBER_FRESH_AUTHENTICATION_FAILED
        case .discardedByHost: c = AMBER_FRESH_DISCARDED_BY_HOST
        case .restorationInProgress: c = AMBER_FRESH_IN_PROGRESS
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
        }
        return (CInt(c.rawValue), why)
    }
}
