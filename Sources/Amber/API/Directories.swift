// amber/app.h — Application directories and data files (SPEC R27).

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// Resolves and creates a directory. Backs `amber_app_directory`.
@c @implementation public func amber_app_directory(
    _ out: UnsafeMutablePointer<amber_buf>?, _ app_id: UnsafePointer<CChar>?, _ directory: amber_directory
) -> CInt {
    guarded {
        let out = try outBuf(out)
        let appID = try inputString(app_id, "app_id")
        guard let which = AppDirectory(rawValue: Int(directory.rawValue)) else {
            throw invalid("\(directory.rawValue) is not an amber_directory (0 to \(AppDirectory.allCases.count - 1))")
        }
        let path = try AppDirectories(appID: appID).directory(which)
        try fillBuf(out, path)
    }
}

/// Writes a file atomically. Backs `amber_file_write_atomic`.
@c @implementation public func amber_file_write_atomic(_ path: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?, _ size: Int) -> CInt {
    guarded {
        let p = try inputString(path, "path")
        try DataFile.write(try inputBytes(bytes, size), toPath: p)
    }
}

/// Reads a file. Backs `amber_file_read`.
@c @implementation public func amber_file_read(_ out: UnsafeMutablePointer<amber_buf>?, _ path: UnsafePointer<CChar>?) -> CInt {
    guarded {
        let out = try outBuf(out)
        let p = try inputString(path, "path")
        guard let bytes = try DataFile.read(path: p) else { throw AmberError(.notFound, "there is no file '\(p)'") }
        try fillBuf(out, bytes)
    }
}
