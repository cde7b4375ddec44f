// amber/report.h — Preservation reports (SPEC R28).

import AmberCore
import CAmber

/// The preservation box of a live handle.
func preservationBox(_ handle: OpaquePointer?) throws(AmberError) -> PreservationBox {
    try HandleRegistry.shared.resolve(handle, .preservation, as: PreservationBox.self)
}

/// Backs `amber_engine_preservation`.
@c @implementation public func amber_engine_preservation(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let box = try engineBox(engine)
        guard let report = box.engine.lastPreservation else {
            throw AmberError(.notFound, "the engine has not preserved yet")
        }
        out.pointee = try HandleRegistry.shared.register(try PreservationBox(report), .preservation)
    }
}

/// Backs `amber_preservation_not_saved`.
@c @implementation public func amber_preservation_not_saved(_ report: OpaquePointer?) -> amber_not_saved {
    guarded(AMBER_NOT_SAVED_INVALID) { amber_not_saved(rawValue: try preservationBox(report).notSaved) }
}

/// Backs `amber_preservation_message`.
@c @implementation public func amber_preservation_message(_ report: OpaquePointer?) -> UnsafePointer<CChar>? {
    guarded(nil) { try preservationBox(report).message }
}

/// Backs `amber_preservation_size`.
@c @implementation public func amber_preservation_size(_ report: OpaquePointer?) -> UInt64 {
    guarded(0) { UInt64(try preservationBox(report).report.byteCount) }
}

/// Backs `amber_preservation_count`.
@c @implementation public func amber_preservation_count(_ report: OpaquePointer?) -> Int {
    guarded(0) { try preservationBox(report).count }
}

/// Backs `amber_preservation_entry_at`.
@c @implementation public func amber_preservation_entry_at(
    _ out: UnsafeMutablePointer<amber_preservation_entry>?, _ report: OpaquePointer?, _ index: Int
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let r = try preservationBox(report)
        try checkIndex(index, r.count, "entry", of: "the report")
        out.pointee = try r.entry(at: index)
    }
}

/// Backs `amber_preservation_entry_positions`.
@c @implementation public func amber_preservation_entry_positions(
    _ out: UnsafeMutablePointer<UnsafePointer<Int>?>?, _ report: OpaquePointer?, _ index: Int
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let r = try preservationBox(report)
        try checkIndex(index, r.count, "entry", of: "the report")
        out.pointee = try r.positions(at: index)
    }
}

/// Backs `amber_preservation_largest_count`.
@c @implementation public func amber_preservation_largest_count(_ report: OpaquePointer?) -> Int {
    guarded(0) { try preservationBox(report).largest.count }
}

/// Backs `amber_preservation_largest_at`.
@c @implementation public func amber_preservation_largest_at(
    _ out: UnsafeMutablePointer<amber_preservation_entry>?, _ report: OpaquePointer?, _ rank: Int
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let r = try preservationBox(report)
        let largest = r.largest
        try checkIndex(rank, largest.count, "rank", of: "the list of the largest objects")
        out.pointee = try r.entry(at: largest[rank])
    }
}

/// Backs `amber_preservation_format`.
@c @implementation public func amber_preservation_format(_ out: UnsafeMutablePointer<amber_buf>?, _ report: OpaquePointer?) -> CInt {
    guarded {
        let out = try outBuf(out)
        try fillBuf(out, try preservationBox(report).report.description)
    }
}

/// Backs `amber_preservation_free`.
@c @implementation public func amber_preservation_free(_ report: OpaquePointer?) {
    guard let report else { return }
    _ = guarded {
        _ = try preservationBox(report)
        HandleRegistry.shared.unregister(report)
    }
}

/// Backs `amber_preservation_largest_positions`.
@c @implementation public func amber_preservation_largest_positions(
    _ out: UnsafeMutablePointer<UnsafePointer<Int>?>?, _ report: OpaquePointer?, _ rank: Int
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        let r = try preservationBox(report)
        let largest = r.largest
        try checkIndex(rank, largest.count, "rank", of: "the list of the largest objects")
        out.pointee = try r.positions(at: largest[rank])
    }
}
