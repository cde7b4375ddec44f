// amber/engine.h — Snapshots (SPEC R21): attached at preservation, carried and discarded with the
// archive, ignorable at the next launch.

import AmberCore
import CAmber

/// Backs `amber_engine_set_snapshot`.
@c @implementation public func amber_engine_set_snapshot(_ engine: OpaquePointer?, _ bytes: UnsafeRawPointer?, _ size: Int) -> CInt {
    guarded {
        let box = try engineBox(engine)
        guard let bytes else {
            guard size == 0 else { throw invalid("bytes is NULL and size is \(UInt(bitPattern: size))") }
            try box.engine.attachSnapshot(nil)
            return
        }
        // A size_t beyond Int.max makes no buffer; the engine checks the size before copying.
        guard size >= 0 else { throw invalid("size \(UInt(bitPattern: size)) is out of range") }
        try box.engine.attachSnapshot(copying: UnsafeRawBufferPointer(start: bytes, count: size))
    }
}

/// Backs `amber_engine_ignore_snapshot`.
@c @implementation public func amber_engine_ignore_snapshot(_ engine: OpaquePointer?) -> CInt {
    guarded { try engineBox(engine).engine.ignoreSnapshotOnNextLaunch() }
}

/// Backs `amber_engine_snapshot`.
@c @implementation public func amber_engine_snapshot(_ out: UnsafeMutablePointer<amber_buf>?, _ engine: OpaquePointer?) -> CInt {
    guarded {
        let out = try outBuf(out)
        let box = try engineBox(engine)
        guard let snapshot = try box.engine.archivedSnapshot() else { throw AmberError(.notFound, "there is no archive, so no snapshot") }
        if snapshot.isIgnored {
            throw AmberError(.notFound, "the archive's snapshot is ignored: the host asked to ignore it at this launch")
        }
        guard let bytes = snapshot.bytes else { throw AmberError(.notFound, "the archive has no snapshot") }
        try fillBuf(out, bytes)
    }
}
