// The box behind an amber_archiver handle: the codec's keyed archiver over the host's classes.

import AmberArchive
import AmberCore
import CAmber

/// An archiver (the engine's `DataArchiver`, which keeps its rules), the classes it was made
/// with, and the host objects it met.
final class ArchiverBox {
    let classes: [String: HostCodingClass]
    private(set) var data: DataArchiver!
    var handle: OpaquePointer!
    /// The host object of each address encoded, so that the same object is stored once.
    var objects: [UInt: HostDataObject] = [:]

    init(classes: [String: HostCodingClass]) throws(AmberError) {
        self.classes = classes
        let registry = ArchiveClassRegistry()
        let weakSelf = WeakBox<ArchiverBox>(self)
        for cls in classes.values {
            let c = ArchiveClass(
                name: cls.name, superclassName: cls.superclassName,
                encode: { object, _ in
                    guard let box = weakSelf.value, let o = object as? HostDataObject else {
                        throw AmberError(.misuse, "the archiver is gone")
                    }
                    try box.runEncode(cls, o)
                },
                make: { _ in throw AmberError(.misuse, "an archiver does not make objects") })
            do { try registry.register(c) } catch { throw AmberError(error) }
        }
        data = DataArchiver(registry: registry)
    }

    private func runEncode(_ cls: HostCodingClass, _ object: HostDataObject) throws {
        guard let encode = cls.vtable.encode else {
            throw AmberError(.typeMismatch, "coding class \(cls.name) has no encode callback")
        }
        let what = "the encode callback of coding class \(cls.name)"
        try data.encodingObject(what, describe: { status(of: $0).1 }) {
            try callHost(what) { encode(UnsafeRawPointer(bitPattern: object.address), handle, cls.context.ctx) }
        }
    }

    /// The host object for an address, coded by `className`.
    func object(_ address: UnsafeRawPointer, _ className: String) throws(AmberError) -> HostDataObject {
        guard let cls = classes[className] else {
            throw AmberError(.typeMismatch, "coding class \(className) is not registered")
        }
        guard cls.vtable.encode != nil else { throw AmberError(.typeMismatch, "coding class \(className) has no encode callback") }
        let a = UInt(bitPattern: address)
        if let o = objects[a] {
            guard o.archiveClassName == className else {
                throw invalid("the object \(address) was encoded as \(o.archiveClassName) before, not as \(className)")
            }
            return o
        }
        let o = HostDataObject(address: a, className: className)
        objects[a] = o
        return o
    }
}
