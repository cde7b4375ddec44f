// The box behind an amber_archiver handle: the codec's keyed archiver over the host's classes.

import AmberArchive
import AmberCore
import CAmber

/// An archiver, the classes it was made with, and the state of its encoding.
final class ArchiverBox {
    let classes: [String: HostCodingClass]
    private(set) var archiver: KeyedArchiver!
    var handle: OpaquePointer!
    /// The host object of each address encoded, so that the same object is stored once.
    var objects: [UInt: HostDataObject] = [:]
    /// The keys written into each object open for encoding, innermost last.
    var keys: [Set<String>] = [[]]
    /// Encode callbacks running.
    var callbackDepth = 0
    var finished = false
    /// Why the archive cannot be finished (an encode callback failed inside it).
    var broken: String?

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
        archiver = KeyedArchiver(registry: registry)
    }

    private func runEncode(_ cls: HostCodingClass, _ object: HostDataObject) throws {
        guard let encode = cls.vtable.encode else {
            throw AmberError(.typeMismatch, "coding class \(cls.name) has no encode callback")
        }
        keys.append([])
        callbackDepth += 1
        defer {
            callbackDepth -= 1
            keys.removeLast()
        }
        do {
            try callHost("the encode callback of coding class \(cls.name)") {
                encode(UnsafeRawPointer(bitPattern: object.address), handle, cls.context.ctx)
            }
        } catch {
            if broken == nil { broken = "the encode callback of coding class \(cls.name) failed: \(status(of: error).1)" }
            throw error
        }
    }

    /// Checks that the archiver can take a value under `key`, and records the key.
    /// Checks that `keys` (distinct) may all be written into the current object, claiming none.
    func checkClaimable(_ newKeys: [String]) throws(AmberError) {
        guard !finished else { throw misuse("the archive was finished already") }
        if let broken { throw misuse("the archive is unusable (\(broken)): free it") }
        for key in newKeys where keys[keys.count - 1].contains(key) {
            throw AmberError(.duplicate, "key '\(key)' was written twice into the same object")
        }
    }

    func claim(_ key: String) throws(AmberError) {
        guard !finished else { throw misuse("the archive was finished already") }
        if let broken { throw misuse("the archive is unusable (\(broken)): free it") }
        guard keys[keys.count - 1].insert(key).inserted else {
            throw AmberError(.duplicate, "key '\(key)' was written twice into the same object")
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
