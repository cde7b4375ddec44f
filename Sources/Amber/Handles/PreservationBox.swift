// The box behind an amber_preservation handle: a preservation report with its C strings.

import AmberCore
import CAmber

/// A preservation report (SPEC R28) in the C layout, owning every string it lends. An entry's C
/// form is made the first time the host reads it, and kept until the report is freed.
final class PreservationBox {
    let report: PreservationReport
    let notSaved: CInt
    let message: UnsafePointer<CChar>
    /// The C entries made so far (an entry's `class_name` is NULL until it is made).
    private var made: [amber_preservation_entry] = []
    /// The positions arrays made so far, by entry.
    private var madePositions: [Int: UnsafePointer<Int>] = [:]
    private let arena = ScratchArena()

    init(_ report: PreservationReport) throws(AmberError) {
        self.report = report
        let code: amber_not_saved
        switch report.notSaved {
        case nil: code = AMBER_NOT_SAVED_NONE
        case .noShouldSave: code = AMBER_NOT_SAVED_NO_SHOULD_SAVE
        case .shouldSaveDeclined: code = AMBER_NOT_SAVED_DECLINED
        case .failed: code = AMBER_NOT_SAVED_FAILED
        case .overBudget: code = AMBER_NOT_SAVED_OVER_BUDGET
        }
        notSaved = CInt(code.rawValue)
        if let notSaved = report.notSaved {
            message = UnsafePointer(try arena.string(notSaved.description))
        } else {
            message = staticEmpty
        }
    }

    var count: Int { report.count }

    /// The entry indices of the largest objects, the largest first (SPEC R31), found once.
    private(set) lazy var largest: [Int] = report.largestIndices

    /// Entry `index` (in range) in the C layout; its pointers live as long as the report.
    func entry(at index: Int) throws(AmberError) -> amber_preservation_entry {
        if made.isEmpty { made = [amber_preservation_entry](repeating: amber_preservation_entry(), count: count) }
        if made[index].class_name != nil { return made[index] }
        let e = report[index]
        var c = amber_preservation_entry()
        let path = e.path
        c.path = UnsafePointer(try arena.stringArray(path.map(\.identifier)))
        c.path_length = path.count
        c.class_name = UnsafePointer(try arena.string(e.className))
        c.kind = amber_kind(rawValue: Int32(e.kind.rawValue))
        c.left_out = PreservationBox.code(of: e.leftOut)
        if let reason = e.leftOut {
            c.message = UnsafePointer(try arena.string(reason.description))
        } else {
            c.message = staticEmpty
        }
        c.size = UInt64(e.byteCount)
        c.position = e.position
        made[index] = c
        return c
    }

    /// The stack positions of entry `index`'s path components (SPEC R3), made when first asked
    /// for (`amber_preservation_entry_positions`): the entry's C form has its last one only.
    func positions(at index: Int) throws(AmberError) -> UnsafePointer<Int> {
        if let made = madePositions[index] { return made }
        let made = UnsafePointer(try arena.sizes(report[index].path.map(\.position)))
        madePositions[index] = made
        return made
    }

    /// The header's code of a reason.
    static func code(of reason: PreservationReport.Reason?) -> amber_left_out {
        switch reason {
        case nil: return AMBER_LEFT_OUT_NONE
        case .noIdentifier: return AMBER_LEFT_OUT_NO_IDENTIFIER
        case .ancestorWithoutIdentifier: return AMBER_LEFT_OUT_ANCESTOR_WITHOUT_IDENTIFIER
        case .duplicatePath: return AMBER_LEFT_OUT_DUPLICATE_PATH
        case .encodeFailed: return AMBER_LEFT_OUT_ENCODE_FAILED
        case .underLeftOut: return AMBER_LEFT_OUT_UNDER_LEFT_OUT
        case .notReferenced: return AMBER_LEFT_OUT_NOT_REFERENCED
        case .tooDeep: return AMBER_LEFT_OUT_TOO_DEEP
        case .overBudget: return AMBER_LEFT_OUT_OVER_BUDGET
        case .carried: return AMBER_LEFT_OUT_CARRIED
        case .notCarried: return AMBER_LEFT_OUT_NOT_CARRIED
        }
    }
}
