// amber/common.h — Versions, status codes and errors.

import AmberCore
import CAmber

/// The library's version number, AMBER_VERSION_NUMBER of the header it was built with. Backs
/// `amber_version_number`.
@c @implementation public func amber_version_number() -> CInt {
    CInt(AMBER_VERSION_MAJOR * 1_000_000 + AMBER_VERSION_MINOR * 1000 + AMBER_VERSION_PATCH)
}

/// The library's version as text, AMBER_VERSION_STRING. Backs `amber_version_string`.
@c @implementation public func amber_version_string() -> UnsafePointer<CChar>? {
    staticCStrings[statusNames.count + 2]
}

/// The last failure's message on this thread. Backs `amber_error_last`.
@c @implementation public func amber_error_last() -> UnsafePointer<CChar>? {
    ThreadError.current.message.map { UnsafePointer($0) } ?? staticEmpty
}

/// The last failure's code on this thread. Backs `amber_error_last_code`.
@c @implementation public func amber_error_last_code() -> CInt {
    ThreadError.current.code
}

/// Forgets the last failure on this thread. Backs `amber_error_clear`.
@c @implementation public func amber_error_clear() {
    ThreadError.current.set(0, nil)
}

/// Records a host callback's failure on this thread, for `hostFailure` to put after the code it
/// returns. Backs `amber_error_set`.
@c @implementation public func amber_error_set(_ code: CInt, _ message: UnsafePointer<CChar>?) -> CInt {
    if code == 0 {
        ThreadError.current.set(0, nil)
    } else {
        // String(cString:) repairs invalid UTF-8 rather than failing: the host's text is kept.
        ThreadError.current.set(code, message.map { String(cString: $0) } ?? "")
    }
    return code
}

/// The name of a status code. Backs `amber_status_string`.
@c @implementation public func amber_status_string(_ status: CInt) -> UnsafePointer<CChar>? {
    staticStatusName(status)
}

/// Checks the version of a struct or vtable the host gave: `expected` (the header's), else
/// `.invalidArgument` naming the struct.
func checkVersion(_ version: CUnsignedInt, _ expected: Int32, _ name: String) throws(AmberError) {
    guard version == CUnsignedInt(expected) else { throw unsupportedVersion(name, version, expected: "\(expected)") }
}

/// The error for a struct of a version Amber does not read: the one text every versioned struct
/// of the header gives, naming the struct, its version and the versions read (`expected`).
func unsupportedVersion(_ name: String, _ version: CUnsignedInt, expected: String) -> AmberError {
    invalid("\(name) version \(version) is not supported (expected \(expected))")
}
