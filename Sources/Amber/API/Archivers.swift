// amber.h — Keyed archiving of the host's own data (SPEC R25, R26): coding registries,
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

/// Backs `amber_coding_class_init`.
@c @implementation public func amber_coding_class_init(_ cls: UnsafeMutablePointer<amber_coding_class>?, _ version: CUnsignedInt) -> CInt {
    guarded {
        guard let cls else { throw invalid("cls is NULL") }
        guard version == AMBER_CODING_CLASS_VERSION else {
            throw invalid("amber_coding_class version \(version) is not supported (expected \(AMBER_CODING_CLASS_VERSION))")
        }
        cls.pointee = amber_coding_class()
        cls.pointee.version = version
    }
}

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
        guard cls.pointee.version == AMBER_CODING_CLASS_VERSION else {
            throw invalid("amber_coding_class version \(cls.pointee.version) is not supported (expected \(AMBER_CODING_CLASS_VERSION))")
        }
        // The codec's own checks (an empty name, one of Foundation's classes).
        do throws(ArchiveError) {
            try ArchiveClassRegistry().register(ArchiveClass(name: n, encode: { _, _ in }, make: { _ in HostDataObject(address: 0, className: "") }))
        } catch {
            throw AmberError(.invalidArgument, error.message)
        }
        if let superclass, superclass.isEmpty || superclass == n {
            throw invalid("'\(superclass)' cannot be the superclass of '\(n)'")
        }
        guard box.classes[n] == nil else { throw AmberError(.duplicate, "coding class \(n) is registered already") }
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
        guard box.callbackDepth == 0 else { throw misuse("amber_archiver_free was called from one of the archiver's encode callbacks") }
        HandleRegistry.shared.unregister(archiver)
    }
}

/// Runs an encoding of a value under a key.
private func encoding(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ body: (KeyedArchiver, String) throws -> Void) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let k = try inputKey(key)
        try box.claim(k)
        try body(box.archiver, k)
    }
}

/// Backs `amber_archiver_encode_bool`.
@c @implementation public func amber_archiver_encode_bool(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: CInt) -> CInt {
    encoding(archiver, key) { a, k in a.encode(value != 0, forKey: k) }
}

/// Backs `amber_archiver_encode_int64`.
@c @implementation public func amber_archiver_encode_int64(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int64) -> CInt {
    encoding(archiver, key) { a, k in a.encode(value, forKey: k) }
}

/// Backs `amber_archiver_encode_double`.
@c @implementation public func amber_archiver_encode_double(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Double) -> CInt {
    encoding(archiver, key) { a, k in a.encode(value, forKey: k) }
}

/// Backs `amber_archiver_encode_string`.
@c @implementation public func amber_archiver_encode_string(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let s = try inputString(value, "value")
        let code = encoding(archiver, key) { a, k in a.encode(s, forKey: k) }
        if code != 0 { throw HostFailure(code: code, message: ThreadError.current.text) }
    }
}

/// Backs `amber_archiver_encode_bytes`.
@c @implementation public func amber_archiver_encode_bytes(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?, _ size: Int) -> CInt {
    guarded {
        let b = try inputBytes(bytes, size)
        let code = encoding(archiver, key) { a, k in a.encode(bytes: b, forKey: k) }
        if code != 0 { throw HostFailure(code: code, message: ThreadError.current.text) }
    }
}

/// Backs `amber_archiver_encode_date`.
@c @implementation public func amber_archiver_encode_date(_ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ seconds_since_2001: Double) -> CInt {
    encoding(archiver, key) { a, k in a.encode(date: seconds_since_2001, forKey: k) }
}

/// Backs `amber_archiver_encode_object`.
@c @implementation public func amber_archiver_encode_object(
    _ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ class_name: UnsafePointer<CChar>?, _ object: UnsafeRawPointer?
) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let k = try inputKey(key)
        let c = try inputString(class_name, "class_name")
        let o = try object.map { p throws(AmberError) in try box.object(p, c) }
        try box.claim(k)
        try box.archiver.encodeObject(o, forKey: k)
    }
}

/// Backs `amber_archiver_encode_object_array`.
@c @implementation public func amber_archiver_encode_object_array(
    _ archiver: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ class_name: UnsafePointer<CChar>?,
    _ objects: UnsafePointer<UnsafeRawPointer?>?, _ count: Int
) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let k = try inputKey(key)
        let c = try inputString(class_name, "class_name")
        let n = try inputCount(count, "count")
        guard objects != nil || n == 0 else { throw invalid("objects is NULL and count is \(n)") }
        var list: [AnyObject] = []
        list.reserveCapacity(n)
        for i in 0 ..< n {
            guard let p = objects![i] else { throw invalid("objects[\(i)] is NULL: an array cannot hold nil") }
            list.append(try box.object(p, c))
        }
        try box.claim(k)
        try box.archiver.encodeObjects(list, forKey: k)
    }
}

/// The finished archive's bytes.
private func finish(_ box: ArchiverBox) throws(AmberError) -> [UInt8] {
    guard box.callbackDepth == 0 else { throw misuse("the archive cannot be finished from one of its encode callbacks") }
    guard !box.finished else { throw misuse("the archive was finished already") }
    if let broken = box.broken { throw misuse("the archive is unusable (\(broken)): free it") }
    box.finished = true
    do { return try box.archiver.finishEncoding() } catch { throw AmberError(error) }
}

/// Backs `amber_archiver_finish`.
@c @implementation public func amber_archiver_finish(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int>?, _ archiver: OpaquePointer?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        guard let out_size else { throw invalid("out_size is NULL") }
        out_size.pointee = 0
        let bytes = try finish(try archiverBox(archiver))
        out.pointee = try newBytes(bytes)
        out_size.pointee = bytes.count
    }
}

/// Backs `amber_archiver_write_file`.
@c @implementation public func amber_archiver_write_file(_ archiver: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let box = try archiverBox(archiver)
        let p = try inputString(path, "path")
        try DataFile.write(try finish(box), toPath: p)
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

/// Backs `amber_unarchiver_open_file`.
@c @implementation public func amber_unarchiver_open_file(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ registry: OpaquePointer?, _ path: UnsafePointer<CChar>?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let p = try inputString(path, "path")
        let c = try classes(of: registry)
        guard let bytes = try DataFile.read(path: p, maxBytes: ArchiveLimits.default.maxBytes) else {
            throw AmberError(.notFound, "there is no file '\(p)'")
        }
        let box: UnarchiverBox
        do throws(AmberError) { box = try UnarchiverBox(bytes: bytes, classes: c) } catch {
            throw AmberError(error.code, "'\(p)': \(error.message)")
        }
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

/// Backs `amber_unarchiver_decode_bool`.
@c @implementation public func amber_unarchiver_decode_bool(_ out: UnsafeMutablePointer<CInt>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    decoding(out, unarchiver, key) { b, k in try b.unarchiver.decodeBool(forKey: k) ? 1 : 0 }
}

/// Backs `amber_unarchiver_decode_int64`.
@c @implementation public func amber_unarchiver_decode_int64(_ out: UnsafeMutablePointer<Int64>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    decoding(out, unarchiver, key) { b, k in try b.unarchiver.decodeInt64(forKey: k) }
}

/// Backs `amber_unarchiver_decode_double`.
@c @implementation public func amber_unarchiver_decode_double(_ out: UnsafeMutablePointer<Double>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    decoding(out, unarchiver, key) { b, k in try b.unarchiver.decodeDouble(forKey: k) }
}

/// Backs `amber_unarchiver_decode_string`.
@c @implementation public func amber_unarchiver_decode_string(
    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> CInt {
    decoding(out, unarchiver, key) { b, k in UnsafePointer(try b.arena.string(try b.unarchiver.decodeString(forKey: k))) }
}

/// Backs `amber_unarchiver_decode_bytes`.
@c @implementation public func amber_unarchiver_decode_bytes(
    _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int>?,
    _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> CInt {
    guarded {
        let s = try outPointer(out_size)
        var n = 0
        let code = decoding(out, unarchiver, key) { b, k in
            let bytes = try b.unarchiver.decodeBytes(forKey: k)
            n = bytes.count
            return UnsafePointer(try b.arena.bytes(bytes))
        }
        if code != 0 { throw HostFailure(code: code, message: ThreadError.current.text) }
        s.pointee = n
    }
}

/// Backs `amber_unarchiver_decode_date`.
@c @implementation public func amber_unarchiver_decode_date(_ out: UnsafeMutablePointer<Double>?, _ unarchiver: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    decoding(out, unarchiver, key) { b, k in try b.unarchiver.decodeDate(forKey: k) }
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
