// amber/coder.h, amber/plugin.h — Coders (SPEC R6, R7, R4): write values during an encode
// callback.

import AmberCore
import CAmber

/// The coder box of a live handle.
func coderBox(_ handle: OpaquePointer?) throws(AmberError) -> CoderBox {
    try HandleRegistry.shared.resolveLent(handle, .coder, as: CoderBox.self)
}

/// Calls `body` with the coder box of a live handle, borrowed: the loan holds the box until the
/// callback returns, and these calls run inside it (no retain and release per call; as
/// `withDecoderBox`).
@inline(__always)
func withCoderBox(_ handle: OpaquePointer?, _ body: (CoderBox) throws(AmberError) -> Void) throws(AmberError) {
    let box = try HandleRegistry.shared.resolveLentUnretained(handle, .coder, as: CoderBox.self)
    try Borrowed(box).with(body)  // held by its loan
}

/// Backs `amber_coder_mark_sensitive`.
@c @implementation public func amber_coder_mark_sensitive(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> CInt {
    guarded {
        try withCoderBox(coder) { c throws(AmberError) in try c.markSensitive(try c.key(key)) }
    }
}

/// Backs `amber_coder_encode_bool`.
@c @implementation public func amber_coder_encode_bool(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: CInt) -> CInt {
    encodeScalar(coder, key, .bool(value != 0))
}

/// Backs `amber_coder_encode_int64`.
@c @implementation public func amber_coder_encode_int64(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int64) -> CInt {
    encodeScalar(coder, key, .int(value))
}

/// Backs `amber_coder_encode_double`.
@c @implementation public func amber_coder_encode_double(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Double) -> CInt {
    encodeScalar(coder, key, .double(value))
}

/// The one path of the three scalar writes: not inlined into each, so that a host writing all
/// three for every object runs one copy of the handle's and the key's reading.
@inline(never)
private func encodeScalar(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: ScalarValue) -> CInt {
    guarded {
        try withCoderBox(coder) { c throws(AmberError) in try c.encode(scalar: value, try c.key(key)) }
    }
}

/// Backs `amber_coder_encode_string`.
@c @implementation public func amber_coder_encode_string(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> CInt {
    guarded {
        try withCoderBox(coder) { c throws(AmberError) in
            let k = try c.key(key)
            // ASCII values are encoded from their bytes (no string is made); others validated.
            if let value, let bytes = asciiBytes(value) { return try c.encode(utf8: bytes.span, k) }
            try c.encode(try inputString(value, "value"), k)
        }
    }
}

/// `values[i]` of an amber_keyed_value array in messages: its index, and its key when that is
/// readable (for amber_coder_encode_values and amber_decoder_decode_values).
func keyedValueLabel(_ values: UnsafePointer<amber_keyed_value>, _ i: Int) -> String {
    guard let k = values[i].key, let s = String(validatingCString: k) else { return "values[\(i)]" }
    return "values[\(i)] (key '\(s)')"
}

/// Backs `amber_coder_encode_values`: every value is checked (arguments, UTF-8, keys) before
/// any is written, so that an error writes nothing (`CoderBox.encodeValues`).
@c @implementation public func amber_coder_encode_values(_ coder: OpaquePointer?, _ values: UnsafePointer<amber_keyed_value>?, _ count: Int) -> CInt {
    guarded {
        let n = try inputCount(count, "count")
        try withCoderBox(coder) { c throws(AmberError) in
            guard n > 0 else { return }
            guard let values else { throw invalid("values is NULL and count is \(n)") }
            try c.encodeValues(values, n)
        }
    }
}

/// Backs `amber_coder_encode_bytes`.
@c @implementation public func amber_coder_encode_bytes(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?, _ size: Int) -> CInt {
    guarded {
        let c = try coderBox(coder)
        let k = try engineKey(key)
        let n = try inputCount(size, "size")
        guard bytes != nil || n == 0 else { throw invalid("bytes is NULL and size is \(n)") }
        let copy = n == 0 ? [] : Array(UnsafeRawBufferPointer(start: bytes, count: n))
        try c.encode(bytes: copy, k)
    }
}

/// Backs `amber_coder_encode_date`.
@c @implementation public func amber_coder_encode_date(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ seconds: Double) -> CInt {
    guarded {
        let c = try coderBox(coder)
        try c.encode(date: seconds, try engineKey(key))
    }
}

/// Backs `amber_coder_encode_index_path`.
@c @implementation public func amber_coder_encode_index_path(
    _ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ indexes: UnsafePointer<Int64>?, _ length: Int
) -> CInt {
    guarded {
        let c = try coderBox(coder)
        let k = try engineKey(key)
        let n = try inputCount(length, "length")
        guard indexes != nil || n == 0 else { throw invalid("indexes is NULL and length is \(n)") }
        try c.encode(indexPath: n == 0 ? [] : UnsafeBufferPointer(start: indexes, count: n).map { Int($0) }, k)
    }
}

/// Backs `amber_coder_encode_object`.
@c @implementation public func amber_coder_encode_object(_ coder: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ object: OpaquePointer?) -> CInt {
    guarded {
        let c = try coderBox(coder)
        let k = try engineKey(key)
        guard let object else {
            try c.reference(to: nil, k)
            return
        }
        guard let engine = c.engine else { throw misuse("the coder's engine is closed") }
        try c.reference(to: try engine.object(object).object, k)
    }
}
