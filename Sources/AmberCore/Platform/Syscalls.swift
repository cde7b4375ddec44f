import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Every call AmberCore makes into the C library, one thin function each, as swift-system's
// Syscalls.swift does: `FileSystem` calls these and nothing else in AmberCore calls C. They pass
// their arguments and results through unchanged (errno included: read `system_errno` right
// after a call that failed).

/// The calling thread's errno.
var system_errno: Int32 { errno }

@discardableResult
func system_strerror(_ code: Int32) -> UnsafeMutablePointer<CChar>? { strerror(code) }

// MARK: Environment, users, clocks

@discardableResult
func system_getenv(_ name: String) -> UnsafeMutablePointer<CChar>? { getenv(name) }

@discardableResult
func system_getuid() -> uid_t { getuid() }

@discardableResult
func system_geteuid() -> uid_t { geteuid() }

@discardableResult
func system_getpwuid(_ uid: uid_t) -> UnsafeMutablePointer<passwd>? { getpwuid(uid) }

/// Zeroes memory in a way the compiler may not remove as a dead store.
func system_explicit_bzero(_ p: UnsafeMutableRawPointer, _ count: Int) { explicit_bzero(p, count) }

@discardableResult
func system_clock_gettime(_ clock: clockid_t, _ time: inout timespec) -> Int32 { clock_gettime(clock, &time) }

@discardableResult
func system_uname(_ names: inout utsname) -> Int32 { uname(&names) }

// MARK: Files

@discardableResult
func system_open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

@discardableResult
func system_close(_ fd: Int32) -> Int32 { close(fd) }

@discardableResult
func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

@discardableResult
func system_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

@discardableResult
func system_fsync(_ fd: Int32) -> Int32 { fsync(fd) }

/// Starts writing bytes `offset ..< offset + count` of `fd` back to the device without waiting
/// (Linux's `sync_file_range` with `SYNC_FILE_RANGE_WRITE`); elsewhere does nothing and gives 0.
@discardableResult
func system_start_write_back(_ fd: Int32, _ offset: Int, _ count: Int) -> Int32 {
    #if os(Linux)
    csystem_start_write_back(fd, Int64(offset), Int64(count))
    #else
    0
    #endif
}

@discardableResult
func system_fcntl(_ fd: Int32, _ command: Int32) -> Int32 { fcntl(fd, command) }

@discardableResult
func system_fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 { fcntl(fd, command, value) }

@discardableResult
func system_stat(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }

@discardableResult
func system_lstat(_ path: String, _ info: inout stat) -> Int32 { lstat(path, &info) }

@discardableResult
func system_fstat(_ fd: Int32, _ info: inout stat) -> Int32 { fstat(fd, &info) }

@discardableResult
func system_chmod(_ path: String, _ mode: mode_t) -> Int32 { chmod(path, mode) }

@discardableResult
func system_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

@discardableResult
func system_link(_ from: String, _ to: String) -> Int32 { link(from, to) }

@discardableResult
func system_unlink(_ path: String) -> Int32 { unlink(path) }

// MARK: Directories

@discardableResult
func system_mkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }

@discardableResult
func system_rmdir(_ path: String) -> Int32 { rmdir(path) }

@discardableResult
func system_opendir(_ path: String) -> OpaquePointer? { opendir(path) }

@discardableResult
func system_readdir(_ directory: OpaquePointer) -> UnsafeMutablePointer<dirent>? { readdir(directory) }

@discardableResult
func system_closedir(_ directory: OpaquePointer) -> Int32 { closedir(directory) }
