// The box behind an amber_unarchiver handle: the codec's keyed unarchiver over the host's classes.

import AmberArchive
import AmberCore
import CAmber

/// An unarchiver, the classes it was made with, and the strings and bytes it lent.
final class UnarchiverBox {
    private(set) var unarchiver: KeyedUnarchiver!
    var handle: OpaquePointer!
    let arena = ScratchArena()
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
