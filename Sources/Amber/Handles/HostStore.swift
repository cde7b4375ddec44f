// An archive store of the host (amber_store): the engine's ArchiveStore over its function
// pointers.

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The largest archive a host store may hand over (as FileStore's default).
private let hostStoreMaxBytes = 1 << 30

/// The allocator given to the store's read callback: malloc, refusing sizes over the limit.
private let hostStoreAlloc: @convention(c) (Int, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { size, _ in
    size < 0 || size > 1 << 30 ? nil : malloc(max(size, 1))
}

/// The host's store, called through its vtable (copied).
final class HostStore: ArchiveStore {
    let vtable: amber_store
    let context: HostContext

    /// - Throws: `.invalidArgument` for an unknown version or a missing function.
    init(_ vtable: amber_store, context: HostContext) throws(AmberError) {
        try checkVersion(vtable.version, AMBER_STORE_VERSION, "amber_store")
        guard vtable.read != nil, vtable.write != nil, vtable.remove != nil, vtable.read_guard != nil,
              vtable.write_guard != nil
        else { throw invalid("an amber_store needs all of read, write, remove, read_guard and write_guard") }
        self.vtable = vtable
        self.context = context
    }

    func read() throws -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var found: CInt = 0
        defer { free(out) }
        try callHost("the store's read callback") { vtable.read!(hostStoreAlloc, nil, &out, &size, &found, context.ctx) }
        guard found != 0 else { return nil }
        guard size >= 0, size <= hostStoreMaxBytes else {
            throw AmberError(.limitExceeded, "the store's read callback gave \(UInt(bitPattern: size)) bytes; at most \(hostStoreMaxBytes) are read")
        }
        guard let out else {
            if size == 0 { return [] }
            throw AmberError(.callbackFailed, "the store's read callback found an archive of \(size) bytes but gave no buffer")
        }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { b in
            try callHost("the store's write callback") { vtable.write!(b.baseAddress, b.count, context.ctx) }
        }
    }

    func remove() throws {
        try callHost("the store's remove callback") { vtable.remove!(context.ctx) }
    }

    func readGuard() throws -> Int {
        var count: CInt = 0
        try callHost("the store's read_guard callback") { vtable.read_guard!(&count, context.ctx) }
        return Int(max(0, count))
    }

    func writeGuard(_ count: Int) throws {
        let c = CInt(clamping: count)
        try callHost("the store's write_guard callback") { vtable.write_guard!(c, context.ctx) }
    }

    func removeGuard() throws { try writeGuard(0) }
}
