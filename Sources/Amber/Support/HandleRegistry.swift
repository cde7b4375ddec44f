// The live handles of the process: what the C layer gave out and has not freed yet, so that a
// freed, foreign or wrong-kind handle is refused with AMBER_MISUSE instead of crashing.

import AmberCore
#if canImport(Glibc)
import Glibc
#endif

/// What a handle points to.
enum HandleKind: String {
    case engine = "amber_engine"
    case object = "amber_object"
    case coder = "amber_coder"
    case decoder = "amber_decoder"
    case report = "amber_report"
    case userInfo = "amber_user_info"
    case notification = "amber_notification"
    case codingRegistry = "amber_coding_registry"
    case archiver = "amber_archiver"
    case unarchiver = "amber_unarchiver"
}

/// The set of live handles (box addresses) and their kinds, behind a lock: separate engines may
/// be used from separate threads.
final class HandleRegistry: @unchecked Sendable {
    static let shared = HandleRegistry()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var live: [UInt: HandleKind] = [:]

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Retains `box` and gives out its handle.
    func register(_ box: AnyObject, _ kind: HandleKind) -> OpaquePointer {
        let raw = Unmanaged.passRetained(box).toOpaque()
        locked { live[UInt(bitPattern: raw)] = kind }
        return OpaquePointer(raw)
    }

    /// Forgets a handle and releases its box.
    func unregister(_ handle: OpaquePointer) {
        let raw = UnsafeMutableRawPointer(handle)
        let removed = locked { live.removeValue(forKey: UInt(bitPattern: raw)) }
        if removed != nil { Unmanaged<AnyObject>.fromOpaque(raw).release() }
    }

    /// Whether a handle is live and of a kind.
    func isLive(_ handle: OpaquePointer, _ kind: HandleKind) -> Bool {
        locked { live[UInt(bitPattern: UnsafeMutableRawPointer(handle))] == kind }
    }

    /// The box of a live handle of a kind.
    /// - Throws: `.invalidArgument` for NULL; `.misuse` for a handle that is not live (freed,
    ///   closed, a coder after its callback) or of another kind.
    func resolve<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type) throws(AmberError) -> T {
        guard let handle else { throw invalid("the \(kind.rawValue) is NULL") }
        let raw = UnsafeMutableRawPointer(handle)
        let found = locked { live[UInt(bitPattern: raw)] }
        guard let found else {
            throw misuse("the \(kind.rawValue) \(raw) is not live: freed, closed, or (for a coder or decoder) used outside its callback")
        }
        guard found == kind else { throw misuse("the handle \(raw) is an \(found.rawValue), not an \(kind.rawValue)") }
        return Unmanaged<T>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// A context pointer of the host and its ctx_free, called at most once.
final class HostContext {
    let ctx: UnsafeMutableRawPointer?
    private var free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?

    init(_ ctx: UnsafeMutableRawPointer?, _ free: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) {
        self.ctx = ctx
        self.free = free
    }

    /// Calls ctx_free, once.
    func release() {
        guard let f = free else { return }
        free = nil
        f(ctx)
    }
}
