// amber/archive.h — Keyed archiving of the host's own data (SPEC R25, R26): coding registries,
// archivers, unarchivers.

import AmberArchive
import AmberCore
import CAmber

func codingRegistryBox(_ handle: OpaquePointer?) throws(AmberError) -> CodingRegistryBox {
    try HandleRegistry.shared.resolve(handle, .codingRegistry, as: CodingRegistryBox.self)
}

func archiverBox(_ handle: OpaquePointer?) throws(AmberError) -> ArchiverBox {
    try HandleRegistry.shared.resolve(handle, .archiver, as: ArchiverBox.self)
}

func unarchiverBox(_ handle: OpaquePointer?) throws(AmberError) -> UnarchiverBox {
    try HandleRegistry.shared.resolve(handle, .unarchiver, as: UnarchiverBox.self)
}

/// The classes of an optional registry handle.
private func classes(of registry: OpaquePointer?) throws(AmberError) -> [String: HostCodingClass] {
    guard let registry else { return [:] }
    return try codingRegistryBox(registry).classes
}

// MARK: Registries

/// Backs `amber_coding_registry_new`.
@c @implementation public func amber_coding_registry_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = try HandleRegistry.shared.register(CodingRegistryBox(), .codingRegistry)
    }
}

/// Backs `amber_coding_registry_free`.
@c @implementation public func amber_coding_registry_free(_ registry: OpaquePointer?) {
    guard let registry else { return }
    _ = guarded {
        _ = try codingRegistryBox(registry)
        HandleRegistry.shared.unregister(registry)
    }
}

/// Backs `amber_coding_registry_register`.
@c @implementation public func amber_coding_registry_register(
    _ registry: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ superclass_name: UnsafePointer<CChar>?,
    _ cls: UnsafePointer<amber_coding_class>?, _ ctx: UnsafeMutableRawPointer?,
    _ ctx_free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
) -> CInt {
    guarded {
        let box = try codingRegistryBox(registry)
        let n = try inputString(name, "name")
        let superclass = try optionalString(superclass_name, "superclass_name")
        guard let cls else { throw invalid("cls is NULL") }
        try checkVersion(cls.pointee.version, AMBER_CODING_CLASS_VERSION, "amber_coding_class")
        let name = ArchiveClass(name: n, superclassName: superclass, encode: { _, _ in }, make: { _ in HostDataObject(address: 0, className: "") })
        do throws(ArchiveError) { try box.names.register(name) } catch { throw AmberError(error) }
        box.classes[n] = HostCodingClass(name: n, superclassName: superclass, vtable: cls.pointee, context: HostContext(ctx, ctx_free))
    }
}

// MARK: Archivers

/// Backs `amber_archiver_new`.
@c @implementation public func amber_archiver_new(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ registry: OpaquePointer?) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let box = try ArchiverBox(classes: try classes(of: registry))
        box.handle = try HandleRegistry.shared.register(box, .archiver)
        out.pointee = box.handle
    }
}

/// Backs `amber_archiver_free`.
@c @implementation public func amber_archiver_free(_ archiver: OpaquePointer?) {
    guard let archiver else { return }
    _ = guarded {
        let box = try archiverBox(archiver)
        guard !box.data.isEncodingObject else { throw misuse("amber_archiver_free was called from one of the archiver's encode callbacks") }
        HandleRegistry.shared.unregister(archiver)
    }
}

/// Backs `amber_archiver_encode_values`: the values, read, go to the engine's archiver, which
/// writes them all or none (`DataArchiver.encodeValues`).
@c @implementation public func amber_archiver_encode_values(
    _ archiver: OpaquePointer?, _ values: UnsafePointer<amber_keyed_value>?, _ count: Int
) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let n = try inputCount(count, "count")
        guard n > 0 else { return }
        guard let values else { throw invalid("values is NULL and count is \(n)") }
        var read: [(key: String, value: ArchiveValue)] = []
        read.reserveCapacity(n)
        for i in 0 ..< n {
            do throws(AmberError) {
                read.append((try engineKey(values[i].key), try archiveValue(values[i])))
            } catch {
                throw AmberError(error.code, "\(keyedValueLabel(values, i)): \(error.message)")
            }
        }
        try box.data.encodeValues(read)
    }
}

/// The value of an amber_keyed_value, as an archive holds it.
private func archiveValue(_ v: amber_keyed_value) throws(AmberError) -> ArchiveValue {
    switch v.type {
    case AMBER_VALUE_BOOL: return .bool(v.int64_value != 0)
    case AMBER_VALUE_INT64: return .int(v.int64_value)
    case AMBER_VALUE_DOUBLE: return .double(v.double_value)
    case AMBER_VALUE_STRING: return .string(try inputString(v.string_value, "the string value"))
    case AMBER_VALUE_BYTES: return .data(try inputBytes(v.bytes_value, v.bytes_size))
    case AMBER_VALUE_DATE: return .date(v.double_value)
    default:
        throw notAnArchiveValue(v.type)
    }
}

/// The error for an amber_value_type an archive does not hold.
private func notAnArchiveValue(_ type: amber_value_type) -> AmberError {
    invalid("an archive holds bool, int64, double, string, bytes and date values, not type \(type.rawValue)")
}

/// Backs `amber_archiver_encode_object`.
@c @implementation public func amber_archiver_encode_object(
    _ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ class_name: UnsafePointer<CChar>?, _ object: UnsafeRawPointer?
) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let k = try engineKey(key)
        let c = try inputString(class_name, "class_name")
        let o = try object.map { p throws(AmberError) in try box.object(p, c) }
        try box.data.encodeObject(o, forKey: k)
    }
}

/// Backs `amber_archiver_encode_object_array`.
@c @implementation public func amber_archiver_encode_object_array(
    _ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ class_name: UnsafePointer<CChar>?,
    _ objects: UnsafePointer<UnsafeRawPointer?>?, _ count: Int
) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let k = try engineKey(key)
        let c = try inputString(class_name, "class_name")
        let n = try inputCount(count, "count")
        guard objects != nil || n == 0 else { throw invalid("objects is NULL and count is \(n)") }
        var list: [AnyObject] = []
        list.reserveCapacity(n)
        for i in 0 ..< n {
            guard let p = objects![i] else { throw invalid("objects[\(i)] is NULL: an array cannot hold nil") }
            list.append(try box.object(p, c))
        }
        try box.data.encodeObjects(list, forKey: k)
    }
}

/// Backs `amber_archiver_finish`.
@c @implementation public func amber_archiver_finish(_ out: UnsafeMutablePointer<amber_buf>?, _ archiver: OpaquePointer?) -> CInt {
    guarded {
        let out = try outBuf(out)
        try fillBuf(out, try archiverBox(archiver).data.finish())
    }
}

// MARK: Unarchivers

/// Backs `amber_unarchiver_new`.
@c @implementation public func amber_unarchiver_new(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ registry: OpaquePointer?, _ bytes: UnsafeRawPointer?, _ size: Int
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let box = try UnarchiverBox(bytes: try inputBytes(bytes, size), classes: try classes(of: registry))
        box.handle = try HandleRegistry.shared.register(box, .unarchiver)
        out.pointee = box.handle
    }
}

/// Backs `amber_unarchiver_free`.
@c @implementation public func amber_unarchiver_free(_ unarchiver: OpaquePointer?) {
    guard let unarchiver else { return }
    _ = guarded {
        let box = try unarchiverBox(unarchiver)
        guard box.callbackDepth == 0 else { throw misuse("amber_unarchiver_free was called from one of the unarchiver's callbacks") }
        HandleRegistry.shared.unregister(unarchiver)
    }
}

/// Backs `amber_unarchiver_contains`.
@c @implementation public func amber_unarchiver_contains(_ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded(0) { try unarchiverBox(unarchiver).unarchiver.containsValue(forKey: try inputKey(key)) ? 1 : 0 }
}

/// Runs a decoding of the value under a key into `out`.
private func decoding<T>(_ out: UnsafeMutablePointer<T>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                         _ body: (UnarchiverBox, String) throws -> T) -> CInt {
    guarded {
        let o = try outPointer(out)
        let box = try unarchiverBox(unarchiver)
        let k = try inputKey(key)
        do { o.pointee = try body(box, k) } catch let e as ArchiveError { throw AmberError(e) }
    }
}

/// Backs `amber_unarchiver_decode_values`: each element as its type reads; a missing key sets
/// `found` to 0.
@c @implementation public func amber_unarchiver_decode_values(
    _ values: UnsafeMutablePointer<amber_keyed_value>?, _ count: Int, _ unarchiver: OpaquePointer?
) -> CInt {
    guarded {
        let box = try unarchiverBox(unarchiver)
        let n = try inputCount(count, "count")
        guard n > 0 else { return }
        guard let values else { throw invalid("values is NULL and count is \(n)") }
        let u: KeyedUnarchiver = box.unarchiver
        for i in 0 ..< n {
            do throws(AmberError) {
                let k = try inputKey(values[i].key)
                guard u.containsValue(forKey: k) else {
                    guard (AMBER_VALUE_BOOL.rawValue ... AMBER_VALUE_DATE.rawValue).contains(values[i].type.rawValue) else {
                        throw notAnArchiveValue(values[i].type)
                    }
                    values[i].found = 0
                    continue
                }
                do {
                    switch values[i].type {
                    case AMBER_VALUE_BOOL: values[i].int64_value = try u.decodeBool(forKey: k) ? 1 : 0
                    case AMBER_VALUE_INT64: values[i].int64_value = try u.decodeInt64(forKey: k)
                    case AMBER_VALUE_DOUBLE: values[i].double_value = try u.decodeDouble(forKey: k)
                    case AMBER_VALUE_STRING: values[i].string_value = UnsafePointer(try box.arena.string(try u.decodeString(forKey: k)))
                    case AMBER_VALUE_BYTES:
                        let bytes = try u.decodeBytes(forKey: k)
                        values[i].bytes_value = UnsafeRawPointer(try box.arena.bytes(bytes))
                        values[i].bytes_size = bytes.count
                    case AMBER_VALUE_DATE: values[i].double_value = try u.decodeDate(forKey: k)
                    default:
                        throw notAnArchiveValue(values[i].type)
                    }
                } catch let e as ArchiveError {
                    throw AmberError(e)
                } catch let e as AmberError {
                    throw e
                } catch {
                    throw AmberError(.corrupt, "\(error)")
                }
                values[i].found = 1
            } catch {
                throw AmberError(error.code, "\(keyedValueLabel(UnsafePointer(values), i)): \(error.message)")
            }
        }
    }
}

/// Backs `amber_unarchiver_decode_object`.
@c @implementation public func amber_unarchiver_decode_object(
    _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?,
    _ classes: UnsafePointer<UnsafePointer<CChar>?>?, _ class_count: Int
) -> CInt {
    guarded {
        let allowed = try UnarchiverBox.allowed(classes, class_count)
        let code = decoding(out, unarchiver, key) { b, k in
            (try b.unarchiver.decodeObject(forKey: k, ofClasses: allowed) as? HostDataObject)?.pointer
        }
        if code != 0 { throw HostFailure(code: code, message: ThreadError.current.text) }
    }
}

/// Backs `amber_unarchiver_decode_object_array`.
@c @implementation public func amber_unarchiver_decode_object_array(
    _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ capacity: Int, _ out_length: UnsafeMutablePointer<Int>?,
    _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?,
    _ classes: UnsafePointer<UnsafePointer<CChar>?>?, _ class_count: Int
) -> CInt {
    guarded {
        let n = try outPointer(out_length)
        let cap = try inputCount(capacity, "capacity")
        guard out != nil || cap == 0 else { throw invalid("out is NULL and capacity is \(cap)") }
        let allowed = try UnarchiverBox.allowed(classes, class_count)
        let box = try unarchiverBox(unarchiver)
        let k = try inputKey(key)
        let objects: [AnyObject]
        do { objects = try box.unarchiver.decodeObjects(forKey: k, ofClasses: allowed) } catch let e as ArchiveError { throw AmberError(e) }
        for (i, o) in objects.prefix(cap).enumerated() { out![i] = (o as? HostDataObject)?.pointer }
        n.pointee = objects.count
    }
}
