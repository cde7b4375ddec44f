// The thread-local last error (amber_error_last) and the one helper every exported function
// runs through: Swift errors become a status code and a message; nothing throws or traps across
// the boundary.

import AmberArchive
import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// The last failure on one thread: its code and its message as a C string Amber owns.
final class ThreadError {
    var code: CInt = 0
    /// NUL-terminated UTF-8, kept until the next failure on the thread.
    var message: [CChar] = [0]

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            Unmanaged<ThreadError>.fromOpaque(raw).release()
        }
        return key
    }()

    /// This thread's record, made at first use and released when the thread ends.
    static var current: ThreadError {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<ThreadError>.fromOpaque(raw).takeUnretainedValue()
        }
        let state = ThreadError()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}

/// Records a failure on this thread and returns its code.
@discardableResult
func fail(_ code: CInt, _ message: String) -> CInt {
    let state = ThreadError.current
    state.code = code
    state.message = Array(message.utf8CString)
    return code
}

/// The status code of an error thrown inside Amber.
func status(of error: any Error) -> (CInt, String) {
    switch error {
    case let e as AmberError: return (CInt(e.code.rawValue), e.message)
    case let e as ArchiveError: return (CInt(AmberError(e).code.rawValue), e.message)
    case let e as HostFailure: return (e.code, e.message)
    default: return (CInt(AMBER_CALLBACK_FAILED.rawValue), "\(error)")
    }
}

/// A host callback returned a non-zero code: passed up unchanged.
struct HostFailure: Error {
    var code: CInt
    var message: String
}

/// Runs an exported function's body: returns AMBER_OK, or the status of what it threw with the
/// message recorded for amber_error_last().
@inline(__always)
func guarded(_ body: () throws -> Void) -> CInt {
    do {
        try body()
        return 0
    } catch {
        let (code, message) = status(of: error)
        return fail(code, message)
    }
}

func invalid(_ message: String) -> AmberError { AmberError(.invalidArgument, message) }
