// The boxes behind amber_coding_registry, amber_archiver and amber_unarchiver (SPEC R25): the
// host's coding classes, and the codec's keyed archiver and unarchiver over them.

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

/// The registry: classes by name, in registration order.
final class CodingRegistryBox {
    var classes: [String: HostCodingClass] = [:]
}

/// A weak reference the codec's @Sendable closures may hold (boxes are used by one thread at a
/// time, as the header says).
final class WeakBox<T: AnyObject>: @unchecked Sendable {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

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

/// An unarchiver, the classes it was made with, and the strings and bytes it lent.
final class UnarchiverBox {
    private(set) var unarchiver: KeyedUnarchiver!
    var handle: OpaquePointer!
    let arena = CArena()
    /// Make and decode callbacks running.
    var callbackDepth = 0
    /// The classes, kept alive while the codec's closures may call them.
    let classes: [String: HostCodingClass]

    init(bytes: [UInt8], classes: [String: HostCodingClass]) throws(AmberError) {
        self.classes = classes
        let registry = ArchiveClassRegistry()
        let weakSelf = WeakBox<UnarchiverBox>(self)
        for cls in classes.values {
            let decode: (@Sendable (AnyObject, KeyedUnarchiver) throws -> Void)?
            if let d = cls.vtable.decode {
                decode = { object, _ in
                    guard let box = weakSelf.value, let o = object as? HostDataObject else { return }
                    box.callbackDepth += 1
                    defer { box.callbackDepth -= 1 }
                    try callHost("the decode callback of coding class \(cls.name)") { d(o.pointer, box.handle, cls.context.ctx) }
                }
            } else {
                decode = nil
            }
            let c = ArchiveClass(
                name: cls.name, superclassName: cls.superclassName,
                encode: { _, _ in throw AmberError(.misuse, "an unarchiver does not encode objects") },
                make: { _ in
                    guard let box = weakSelf.value else { throw AmberError(.misuse, "the unarchiver is gone") }
                    guard let make = cls.vtable.make else {
                        throw AmberError(.typeMismatch, "coding class \(cls.name) has no make callback")
                    }
                    var out: UnsafeMutableRawPointer?
                    box.callbackDepth += 1
                    defer { box.callbackDepth -= 1 }
                    try callHost("the make callback of coding class \(cls.name)") { make(&out, box.handle, cls.context.ctx) }
                    guard let out else {
                        throw AmberError(.callbackFailed, "the make callback of coding class \(cls.name) gave no object")
                    }
                    return HostDataObject(address: UInt(bitPattern: out), className: cls.name)
                },
                decode: decode)
            do { try registry.register(c) } catch { throw AmberError(error) }
        }
        do {
            unarchiver = try KeyedUnarchiver(bytes: bytes, registry: registry)
        } catch {
            throw AmberError(error)
        }
    }

    /// The allowed classes of a C list (nil for none given: every registered class).
    static func allowed(_ classes: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int) throws(AmberError) -> Set<String>? {
        let n = try inputCount(count, "class_count")
        if n == 0 { return nil }
        guard let classes else { throw invalid("classes is NULL and class_count is \(n)") }
        var set = Set<String>()
        for i in 0 ..< n { set.insert(try inputString(classes[i], "classes[\(i)]")) }
        return set
    }
}
