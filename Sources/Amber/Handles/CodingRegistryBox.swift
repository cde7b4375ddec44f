// The box behind an amber_coding_registry handle.

import AmberArchive
import AmberCore
import CAmber

/// The registry: the host's coding classes by name.
final class CodingRegistryBox {
    var classes: [String: HostCodingClass] = [:]
}

/// A weak reference the codec's @Sendable closures may hold (boxes are used by one thread at a
/// time, as the header says).
final class WeakBox<T: AnyObject>: @unchecked Sendable {
    weak var value: T?
    init(_ value: T) { self.value = value }
}
