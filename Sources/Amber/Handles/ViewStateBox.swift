// The box behind an amber_view_state handle: a view's standard state lent to one accessor call,
// owning the index paths and URLs it lends.

import AmberCore
import CAmber

/// A view state lent to a read accessor (writable) or an apply accessor (read-only).
final class ViewStateBox {
    var state: ViewState
    let writable: Bool
    /// What the getters lent; freed when the accessor returns.
    let arena = CArena()

    init(_ state: ViewState, writable: Bool) {
        self.state = state
        self.writable = writable
    }

    /// Lends a state handle to `body`; the handle is dead once it returns, and what the host set
    /// is copied back into `state`.
    static func with(_ state: inout ViewState, writable: Bool, _ body: (OpaquePointer) throws -> Void) throws {
        let box = ViewStateBox(state, writable: writable)
        let handle = try HandleRegistry.shared.register(box, .viewState)
        defer { HandleRegistry.shared.unregister(handle) }
        try body(handle)
        if writable { state = box.state }
    }

    /// Checks that a property may be set now.
    func settable(_ property: ViewProperty) throws(AmberError) {
        guard writable else { throw misuse("the view state of an apply accessor is read-only") }
        try state.require(property)
    }

    /// Checks that a property may be read, and gives its value or `.notFound`.
    func get<T>(_ property: ViewProperty, _ value: T?) throws(AmberError) -> T {
        try state.require(property)
        guard let value else {
            throw AmberError(.notFound, "the \(state.kind)'s \(property.rawValue) is not in its state (not archived, or restored as nothing)")
        }
        return value
    }

    /// A borrowed C index path.
    func cIndexPath(_ path: [Int]) throws(AmberError) -> amber_index_path {
        // malloc's alignment suits Int64.
        let raw = try arena.bytes([UInt8](repeating: 0, count: path.count * MemoryLayout<Int64>.stride))
        let p = UnsafeMutableRawPointer(raw).bindMemory(to: Int64.self, capacity: max(path.count, 1))
        for (i, v) in path.enumerated() { p[i] = Int64(v) }
        return amber_index_path(indexes: UnsafePointer(p), length: path.count)
    }
}
