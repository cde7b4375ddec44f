// amber/report.h — Restoration reports (SPEC R16).

import AmberCore
import CAmber

/// The report box of a live handle.
func reportBox(_ handle: OpaquePointer?) throws(AmberError) -> ReportBox {
    try HandleRegistry.shared.resolve(handle, .report, as: ReportBox.self)
}

/// Backs `amber_report_fresh_reason`.
@c @implementation public func amber_report_fresh_reason(_ report: OpaquePointer?) -> amber_fresh_reason {
    guarded(AMBER_FRESH_INVALID) { amber_fresh_reason(rawValue: try reportBox(report).freshReason) }
}

/// Backs `amber_report_message`.
@c @implementation public func amber_report_message(_ report: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(nil) { try reportBox(report).message }
}

/// Backs `amber_report_protection`.
@c @implementation public func amber_report_protection(_ report: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(nil) { try reportBox(report).protection }
}

/// Backs `amber_report_count`.
@c @implementation public func amber_report_count(_ report: OpaquePointer?) -> Int {
    guarded(0) { try reportBox(report).count }
}

/// Backs `amber_report_record_at`.
@c @implementation public func amber_report_record_at(_ out: UnsafeMutablePointer<amber_report_record>?, _ report: OpaquePointer?, _ index: Int) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let r = try reportBox(report)
        try checkIndex(index, r.count, "record", of: "the report")
        out.pointee = try r.record(at: index)
    }
}

/// Backs `amber_report_record_positions`.
@c @implementation public func amber_report_record_positions(
    _ out: UnsafeMutablePointer<UnsafePointer<Int>?>?, _ report: OpaquePointer?, _ index: Int
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let r = try reportBox(report)
        try checkIndex(index, r.count, "record", of: "the report")
        out.pointee = try r.positions(at: index)
    }
}

/// Backs `amber_report_format`.
@c @implementation public func amber_report_format(_ out: UnsafeMutablePointer<amber_buf>?, _ report: OpaquePointer?) -> CInt {
    guarded {
        let out = try outBuf(out)
        try fillBuf(out, try reportBox(report).text)
    }
}

/// Backs `amber_report_free`.
@c @implementation public func amber_report_free(_ report: OpaquePointer?) {
    guard let report else { return }
    _ = guarded {
        _ = try reportBox(report)
        HandleRegistry.shared.unregister(report)
    }
}
