// The static names of status codes (amber_status_string) and the version string.

#if canImport(Glibc)
import Glibc
#endif

/// The names of the status codes, indexed by code.
let statusNames = [
    "AMBER_OK", "AMBER_INVALID_ARGUMENT", "AMBER_NOT_FOUND", "AMBER_TYPE_MISMATCH", "AMBER_RESERVED_KEY",
    "AMBER_DUPLICATE", "AMBER_IO", "AMBER_CORRUPT", "AMBER_KEY_UNAVAILABLE", "AMBER_AUTHENTICATION_FAILED",
    "AMBER_LIMIT_EXCEEDED", "AMBER_MISUSE", "AMBER_CALLBACK_FAILED",
]

/// The name of a code, or AMBER_UNKNOWN_STATUS.
func statusName(_ code: CInt) -> String {
    code >= 0 && Int(code) < statusNames.count ? statusNames[Int(code)] : "AMBER_UNKNOWN_STATUS"
}

/// Static C strings: the status names, then AMBER_UNKNOWN_STATUS, "" and the version. Made once
/// (a global's initialisation is thread-safe) and never freed.
nonisolated(unsafe) let staticCStrings: [UnsafePointer<CChar>] =
    (statusNames + ["AMBER_UNKNOWN_STATUS", "", amberVersionString]).map { UnsafePointer(strdup($0)!) }

/// The static C string of a status code's name.
func staticStatusName(_ code: CInt) -> UnsafePointer<CChar> {
    code >= 0 && Int(code) < statusNames.count ? staticCStrings[Int(code)] : staticCStrings[statusNames.count]
}

/// A static "".
var staticEmpty: UnsafePointer<CChar> { staticCStrings[statusNames.count + 1] }

let amberVersionMajor = 0
let amberVersionMinor = 1
let amberVersionPatch = 0
let amberVersionString = "\(amberVersionMajor).\(amberVersionMinor).\(amberVersionPatch)"
