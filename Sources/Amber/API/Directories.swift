// amber.h — Application directories and data files (SPEC R27).

import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// Resolves and creates a directory. Backs `amber_app_directory`.
@c @implementation public func amber_app_directory(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ app_id: UnsafePointer<CChar>?, _ directory: CInt
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        let appID = try inputString(app_id, "app_id")
        guard let which = AppDirectory(rawValue: Int(directory)) else {
            throw invalid("\(directory) is not an amber_directory (0 to \(AppDirectory.allCases.count - 1))")
        }
        let path = try AppDirectories(appID: appID).directory(which)
        out.pointee = try newCString(path)
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
@c @implementation public func amber_file_read(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int>?,
    _ path: UnsafePointer<CChar>?
) -> CInt {
    guarded {
        guard let out else { throw invalid("out is NULL") }
        out.pointee = nil
        guard let out_size else { throw invalid("out_size is NULL") }
        out_size.pointee = 0
        let p = try inputString(path, "path")
        guard let bytes = try DataFile.read(path: p) else { throw AmberError(.notFound, "there is no file '\(p)'") }
        out.pointee = try newBytes(bytes)
        out_size.pointee = bytes.count
    }
}

/// Frees bytes Amber gave out. Backs `amber_bytes_free`.
@c @implementation public func amber_bytes_free(_ bytes: UnsafeMutablePointer<UInt8>?) {
    free(bytes)
}
