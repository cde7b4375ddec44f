// A host's coding class (SPEC R25) and the host objects archives hold.

import AmberArchive
import AmberCore
import CAmber

/// A coding class of the host: its callbacks and context. The context's ctx_free runs when the
/// last registry, archiver or unarchiver holding the class lets it go.
final class HostCodingClass: @unchecked Sendable {
    let name: String
    let superclassName: String?
    let vtable: amber_coding_class
    let context: HostContext

    init(name: String, superclassName: String?, vtable: amber_coding_class, context: HostContext) {
        self.name = name
        self.superclassName = superclassName
        self.vtable = vtable
        self.context = context
    }

    deinit { context.release() }
}

/// A host object in an archive: its address and the class that codes it.
final class HostDataObject: ArchiveClassNaming {
    let address: UInt
    let archiveClassName: String

    init(address: UInt, className: String) {
        self.address = address
        self.archiveClassName = className
    }

    var pointer: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: address) }
}
