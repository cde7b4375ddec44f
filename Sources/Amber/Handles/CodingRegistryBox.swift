// The box behind an amber_coding_registry handle.

import AmberArchive
import AmberCore
import CAmber

/// The registry: the host's coding classes by name, and the codec's registry of the same
/// names, which decides what may be registered (each archiver and unarchiver builds its own
/// registry of the classes, with closures over itself).
final class CodingRegistryBox {
    var classes: [String: HostCodingClass] = [:]
    let names = ArchiveClassRegistry()
}

/// A weak reference the codec's @Sendable closures may hold (boxes are used by one thread at a
/// time, as the header says).
final class WeakBox<T: AnyObject>: @unchecked Sendable {
    weak var value: T?
    init(_ value: T) { self.value = value }
}
