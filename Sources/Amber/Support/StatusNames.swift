// The static names of status codes (amber_status_string) and the version string, both taken
// from the header (amber/common.h: AMBER_STATUS_NAMES, AMBER_VERSION_*).

import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The names of the status codes, indexed by code.
let statusNames: [String] = AMBER_STATUS_NAMES.split(separator: " ").map(String.init)

/// The name of a code, or AMBER_UNKNOWN_STATUS.
func statusName(_ code: CInt) -> String {
    code >= 0 && Int(code) < statusNames.count ? statusNames[Int(code)] : "AMBER_UNKNOWN_STATUS"
}

/// A code for a message: `5 (AMBER_IO)` for one of Amber's, `host code 42` for any other (a
/// host callback's own code, passed up unchanged, which Amber has no name for).
func statusDescription(_ code: CInt) -> String {
    code >= 0 && Int(code) < statusNames.count ? "\(code) (\(statusNames[Int(code)]))" : "host code \(code)"
}

/// Static C strings: the status names, then AMBER_UNKNOWN_STATUS, "" and the version. Made once
/// (a global's initialisation is thread-safe) and never freed.
nonisolated(unsafe) let staticCStrings: [UnsafePointer<CChar>] =
    (statusNames + ["AMBER_UNKNOWN_STATUS", "", AMBER_VERSION_STRING]).map { UnsafePointer(strdup($0)!) }

/// The static C string of a status code's name.
func staticStatusName(_ code: CInt) -> UnsafePointer<CChar> {
    code >= 0 && Int(code) < statusNames.count ? staticCStrings[Int(code)] : staticCStrings[statusNames.count]
}

/// A static "".
var staticEmpty: UnsafePointer<CChar> { staticCStrings[statusNames.count + 1] }
