// amber/coder.h, amber/plugin.h — Decoders (SPEC R12): read values during a decode (or make) callback.

import AmberCore
import CAmber

/// The decoder box of a live handle.
func decoderBox(_ handle: OpaquePointer?) throws(AmberError) -> DecoderBox {
    try HandleRegistry.shared.resolveLent(handle, .decoder, as: DecoderBox.self)
}

/// Calls `body` with the decoder box of a live handle, borrowed: the loan holds the box until
/// the callback returns, and these calls run inside it (no retain and release per call).
@inline(__always)
func withDecoderBox<T>(_ handle: OpaquePointer?, _ body: (DecoderBox) throws(AmberError) -> T) throws(AmberError) -> T {
    let box = try HandleRegistry.shared.resolveLentUnretained(handle, .decoder, as: DecoderBox.self)
    return try Borrowed(box).with(body)  // held by its loan
}

/// Checks an out pointer and clears nothing (the value is written on success only).
func outPointer<T>(_ out: UnsafeMutablePointer<T>?) throws(AmberError) -> UnsafeMutablePointer<T> {
    guard let out else { throw invalid("out is NULL") }
    return out
}

/// Backs `amber_decoder_decode_bool`.
@c @implementation public func amber_decoder_decode_bool(_ out: UnsafeMutablePointer<CInt>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try withDecoderBox(decoder) { d throws(AmberError) in
            try d.bool(try d.key(key))
        } ? 1 : 0
    }
}

/// Backs `amber_decoder_decode_int64`.
@c @implementation public func amber_decoder_decode_int64(_ out: UnsafeMutablePointer<Int64>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try withDecoderBox(decoder) { d throws(AmberError) in
            try d.int64(try d.key(key))
        }
    }
}

/// Backs `amber_decoder_decode_double`.
@c @implementation public func amber_decoder_decode_double(_ out: UnsafeMutablePointer<Double>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try withDecoderBox(decoder) { d throws(AmberError) in
            try d.double(try d.key(key))
        }
    }
}

/// Backs `amber_decoder_decode_string`; the string lives until the callback returns.
@c @implementation public func amber_decoder_decode_string(_ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try withDecoderBox(decoder) { d throws(AmberError) in
            try d.cString(try d.key(key))
        }
    }
}

/// Backs `amber_decoder_decode_bytes`; the bytes live until the callback returns.
@c @implementation public func amber_decoder_decode_bytes(
    _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int>?,
    _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> CInt {
    guarded {
        let o = try outPointer(out)
        let s = try outPointer(out_size)
        let d = try decoderBox(decoder)
        let bytes = try d.bytes(try engineKey(key))
        o.pointee = UnsafePointer(try d.arena.bytes(bytes))
        s.pointee = bytes.count
    }
}

/// Backs `amber_decoder_decode_date`.
@c @implementation public func amber_decoder_decode_date(_ out: UnsafeMutablePointer<Double>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let o = try outPointer(out)
        o.pointee = try withDecoderBox(decoder) { d throws(AmberError) in try d.date(try engineKey(key)) }
    }
}

/// Backs `amber_decoder_decode_index_path`; the indexes live until the callback returns.
@c @implementation public func amber_decoder_decode_index_path(
    _ out: UnsafeMutablePointer<amber_index_path>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> CInt {
    guarded {
        let o = try outPointer(out)
        let d = try decoderBox(decoder)
        o.pointee = try d.lent(indexPath: try d.indexPath(try engineKey(key)))
    }
}

/// Backs `amber_decoder_decode_values`: each element as the decoder of its type reads it; a
/// missing key sets `found` to 0 and leaves the value fields alone.
@c @implementation public func amber_decoder_decode_values(_ values: UnsafeMutablePointer<amber_keyed_value>?, _ count: Int, _ decoder: OpaquePointer?) -> CInt {
    guarded {
        let n = try inputCount(count, "count")
        try withDecoderBox(decoder) { d throws(AmberError) in
            guard n > 0 else { return }
            guard let values else { throw invalid("values is NULL and count is \(n)") }
            for i in 0 ..< n {
                do throws(AmberError) {
                    try decodeValue(&values[i], d)
                } catch {
                    throw AmberError(error.code, "\(keyedValueLabel(UnsafePointer(values), i)): \(error.message)")
                }
            }
        }
    }
}

/// Fills one element of `amber_decoder_decode_values`.
@inline(__always)
private func decodeValue(_ v: inout amber_keyed_value, _ d: DecoderBox) throws(AmberError) {
    let type = v.type.rawValue
    guard (AMBER_VALUE_BOOL.rawValue ... AMBER_VALUE_INDEX_PATH.rawValue).contains(type) else {
        throw invalid("the type \(type) is not an amber_value_type a decoder reads")
    }
    do throws(AmberError) {
        if type == AMBER_VALUE_DATE.rawValue {
            v.double_value = try d.date(try engineKey(v.key))
        } else if type == AMBER_VALUE_INDEX_PATH.rawValue {
            v.index_path_value = try d.lent(indexPath: try d.indexPath(try engineKey(v.key)))
        } else if type == AMBER_VALUE_BYTES.rawValue {
            let bytes = try d.bytes(try engineKey(v.key))
            v.bytes_value = UnsafeRawPointer(try d.arena.bytes(bytes))
            v.bytes_size = bytes.count
        } else {
            let k = try d.key(v.key)
            switch type {
            case AMBER_VALUE_BOOL.rawValue: v.int64_value = try d.bool(k) ? 1 : 0
            case AMBER_VALUE_INT64.rawValue: v.int64_value = try d.int64(k)
            case AMBER_VALUE_DOUBLE.rawValue: v.double_value = try d.double(k)
            default: v.string_value = try d.cString(k)
            }
        }
        v.found = 1
    } catch where error.code == .notFound {
        v.found = 0
    }
}

/// Backs `amber_decoder_decode_object`: any class with no classes given, else secure decoding.
@c @implementation public func amber_decoder_decode_object(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?,
    _ classes: UnsafePointer<UnsafePointer<CChar>?>?, _ class_count: Int
) -> CInt {
    guarded {
        let o = try outPointer(out)
        let d = try decoderBox(decoder)
        let k = try engineKey(key)
        let n = try inputCount(class_count, "class_count")
        guard n > 0 else {
            o.pointee = ObjectBox.of(try d.reference(k))?.handle
            return
        }
        guard let classes else { throw invalid("classes is NULL and class_count is \(n)") }
        var allowed = Set<String>()
        for i in 0 ..< n {
            allowed.insert(try inputString(classes[i], "class name \(i)"))
        }
        o.pointee = ObjectBox.of(try d.reference(k, ofClasses: allowed))?.handle
    }
}

/// Backs `amber_decoder_contains`.
@c @implementation public func amber_decoder_contains(_ decoder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded(0) {
        return try withDecoderBox(decoder) { d throws(AmberError) in
            d.contains(try d.key(key))
        } ? 1 : 0
    }
}

/// Backs `amber_decoder_record`.
@c @implementation public func amber_decoder_record(_ out: UnsafeMutablePointer<amber_record_info>?, _ decoder: OpaquePointer?) -> CInt {
    guarded {
        let o = try outPointer(out)
        let d = try decoderBox(decoder)
        guard case .state(let s) = d.source else { throw invalid("the application decoder reads no object's record") }
        try s.requireActive()
        var info = amber_record_info()
        info.kind = amber_kind(rawValue: Int32(s.recordKind.rawValue))
        info.class_name = UnsafePointer(try d.arena.string(s.recordClassName))
        info.blueprint = try s.recordBlueprint.map { b throws(AmberError) in UnsafePointer(try d.arena.string(b)) }
        info.position = s.recordPosition
        o.pointee = info
    }
}

/// Backs `amber_decoder_path_positions`.
@c @implementation public func amber_decoder_path_positions(
    _ out: UnsafeMutablePointer<UnsafePointer<Int>?>?, _ length: UnsafeMutablePointer<Int>?, _ decoder: OpaquePointer?
) -> CInt {
    guarded {
        let o = try outPointer(out)
        let n = try outPointer(length)
        let d = try decoderBox(decoder)
        guard case .state(let s) = d.source else { throw invalid("the application decoder reads no object's record") }
        try s.requireActive()
        let positions = s.restorationComponents.map(\.position)
        o.pointee = UnsafePointer(try d.arena.sizes(positions))
        n.pointee = positions.count
    }
}
