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
    /// NUL-terminated UTF-8 from malloc, kept until the next failure on the thread.
    private(set) var message: UnsafeMutablePointer<CChar>?

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<ThreadError>.fromOpaque(raw).release() }
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

    /// Clears this thread's failure (`set(0, nil)`).
    static func clearCurrent() {
        if let raw = pthread_getspecific(key) {
            // Held by the thread's key until the thread ends.
            Borrowed(Unmanaged<ThreadError>.fromOpaque(raw)).with { $0.set(0, nil) }
        } else {
            current.set(0, nil)
        }
    }

    /// The message as text ("" when none).
    var text: String { message.map { String(cString: $0) } ?? "" }

    /// Replaces the message (nil: none).
    func set(_ code: CInt, _ text: String?) {
        self.code = code
        free(message)
        message = text.map { mallocCString($0) } ?? nil
    }

    deinit { free(message) }
}

/// Records a failure on this thread and returns its code.
@discardableResult
func fail(_ code: CInt, _ message: String) -> CInt {
    ThreadError.current.set(code, message)
    return code
}

/// The header's status code of an engine error code.
func statusCode(_ code: AmberError.Code) -> CInt {
    let s: amber_status
    switch code {
    case .invalidArgument: s = AMBER_INVALID_ARGUMENT
    case .notFound: s = AMBER_NOT_FOUND
    case .typeMismatch: s = AMBER_TYPE_MISMATCH
    case .reservedKey: s = AMBER_RESERVED_KEY
    case .duplicate: s = AMBER_DUPLICATE
    case .io: s = AMBER_IO
    case .corrupt: s = AMBER_CORRUPT
    case .keyUnavailable: s = AMBER_KEY_UNAVAILABLE
    case .authenticationFailed: s = AMBER_AUTHENTICATION_FAILED
    case .limitExceeded: s = AMBER_LIMIT_EXCEEDED
    case .misuse: s = AMBER_MISUSE
    case .callbackFailed: s = AMBER_CALLBACK_FAILED
    }
    return CInt(s.rawValue)
}

/// The status code and message of an error thrown inside Amber.
func status(of error: any Error) -> (CInt, String) {
    switch error {
    case let e as HostFailure: return (e.code, e.message)
    case let e as AmberError: return (statusCode(e.code), e.message)
    case let e as ArchiveError:
        let a = AmberError(e)
        return (statusCode(a.code), a.message)
    default: return (CInt(AMBER_CALLBACK_FAILED.rawValue), "\(error)")
    }
}

/// A host callback returned a non-zero code: passed up unchanged.
struct HostFailure: Error, CustomStringConvertible {
    var code: CInt
    var message: String
    var description: String { message }
}

/// Runs a host callback that returns a status code; a non-zero code is thrown as `HostFailure`,
/// with the message the callback left on this thread (if it failed an Amber call with that code).
func callHost(_ what: @autoclosure () -> String, _ body: () -> CInt) throws {
    ThreadError.clearCurrent()
    let code = body()
    guard code != 0 else { return }
    throw hostFailure(what(), code)
}

/// The error for a host callback (`what`) that returned non-zero `code`, with the message the
/// callback left on this thread (if it failed an Amber call with that code). For a caller that
/// cleared the thread's error (`ThreadError.clearCurrent()`) before the callback, as `callHost`
/// does.
func hostFailure(_ what: String, _ code: CInt) -> HostFailure {
    let state = ThreadError.current
    var message = "\(what) returned \(statusDescription(code))"
    if state.code == code, !state.text.isEmpty { message += ": " + state.text }
    return HostFailure(code: code, message: message)
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

/// As `guarded`, for a function that returns a value: `fallback` on failure.
@inline(__always)
func guarded<T>(_ fallback: T, _ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        let (code, message) = status(of: error)
        fail(code, message)
        return fallback
    }
}

func invalid(_ message: String) -> AmberError { AmberError(.invalidArgument, message) }

/// Checks that `index` names one of the `count` items of a list: else `.notFound`, "record 7 is
/// past the end (the report has 3)", with `what` the item and `list` the list.
func checkIndex(_ index: Int, _ count: Int, _ what: String, of list: String) throws(AmberError) {
    guard index >= 0, index < count else {
        throw AmberError(.notFound, "\(what) \(UInt(bitPattern: index)) is past the end (\(list) has \(count))")
    }
}
func misuse(_ message: String) -> AmberError { AmberError(.misuse, message) }
