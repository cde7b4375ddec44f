// The live handles of the process: what the C layer gave out and has not freed yet, so that a
// freed, foreign or wrong-kind handle is refused with AMBER_MISUSE instead of crashing.
//
// A handle is not an address but a token: a slot index, the slot's generation and the kind,
// packed into a pointer-sized value that C never dereferences. Freeing a handle bumps its
// slot's generation, so a stale handle stays detectable even after its slot is reused (until the
// same slot has been reused 2^32 times); a pointer that Amber never gave out is refused too.

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
    case preservation = "amber_preservation"

    /// The four low bits of a handle of this kind (never 0, so no handle is NULL).
    var tag: UInt {
        switch self {
        case .engine: 1
        case .object: 2
        case .coder: 3
        case .decoder: 4
        case .report: 5
        case .userInfo: 6
        case .notification: 7
        case .codingRegistry: 8
        case .archiver: 9
        case .unarchiver: 10
        case .preservation: 12
        }
    }

    init?(tag: UInt) {
        switch tag {
        case 1: self = .engine
        case 2: self = .object
        case 3: self = .coder
        case 4: self = .decoder
        case 5: self = .report
        case 6: self = .userInfo
        case 7: self = .notification
        case 8: self = .codingRegistry
        case 9: self = .archiver
        case 10: self = .unarchiver
        case 12: self = .preservation
        default: return nil
        }
    }
}

/// The live handles and their boxes, behind a lock: separate engines may be used from separate
/// threads.
final class HandleRegistry: @unchecked Sendable {
    static let shared = HandleRegistry()

    /// A slot holds a box while its handle is live; `generation` counts the handles it gave out.
    fileprivate struct Slot {
        var box: AnyObject?
        var kind: HandleKind
        var generation: UInt32
    }

    /// Bits of a handle: generation (32) | index (28) | kind tag (4).
    private static let indexBits: UInt = 28
    fileprivate static var indexBitsValue: UInt { indexBits }
    fileprivate static let maxSlots = 1 << 28

    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Everything the mutex guards, in one stored property: `locked` lends it whole.
    private var table: Table

    /// A coder or decoder lent to one callback (`lend`): the lender keeps the box alive for the
    /// loan, so the table holds it unretained, and a loan costs no allocation once the table
    /// has grown to the deepest nesting of callbacks.
    fileprivate struct LentSlot {
        var box: Unmanaged<AnyObject>?
        var generation: UInt32
        var kind: HandleKind
    }

    /// The handles' slots, used under the mutex only.
    fileprivate struct Table {
        var slots: [Slot] = []
        var freeSlots: [Int] = []
        /// The lent slots (coder and decoder handles index this table, every other kind `slots`).
        var lent: UnsafeMutablePointer<LentSlot>
        var lentCount = 0
        var lentCapacity = 16
        var lentFree: [Int] = []

        init() {
            lent = .allocate(capacity: lentCapacity)
            lentFree.reserveCapacity(lentCapacity)
        }
    }

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        table = Table()
    }

    /// Whether handles of a kind are lent for one callback (coders and decoders).
    @inline(__always)
    fileprivate static func isLent(_ kind: HandleKind) -> Bool { kind == .coder || kind == .decoder }

    /// Runs `body` on the table, under the mutex.
    private func locked<T>(_ body: (inout Table) throws(AmberError) -> T) throws(AmberError) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&table)
    }

    fileprivate static func token(_ index: Int, _ generation: UInt32, _ kind: HandleKind) -> UInt {
        (UInt(generation) << (indexBits + 4)) | (UInt(index) << 4) | kind.tag
    }

    /// The slot index, generation and kind a token names (nil for a value that is no token).
    fileprivate static func parse(_ token: UInt) -> (index: Int, generation: UInt32, kind: HandleKind)? {
        guard let kind = HandleKind(tag: token & 0xF) else { return nil }
        let index = Int((token >> 4) & ((1 << indexBits) - 1))
        let generation = UInt32(truncatingIfNeeded: token >> (indexBits + 4))
        return (index, generation, kind)
    }

    /// Keeps `box` alive and gives out its handle.
    /// - Throws: `.limitExceeded` when 2^28 handles are live at once.
    func register(_ box: AnyObject, _ kind: HandleKind) throws(AmberError) -> OpaquePointer {
        let token = try locked { (t: inout Table) throws(AmberError) -> UInt in
            let index: Int
            if let reused = t.freeSlots.popLast() {
                index = reused
                t.slots[index].box = box
                t.slots[index].kind = kind
            } else {
                guard t.slots.count < Self.maxSlots else {
                    throw AmberError(.limitExceeded, "too many live handles (\(Self.maxSlots))")
                }
                index = t.slots.count
                t.slots.append(Slot(box: box, kind: kind, generation: 1))
            }
            return Self.token(index, t.slots[index].generation, kind)
        }
        return OpaquePointer(bitPattern: token)!
    }

    /// Forgets a handle and releases its box; a handle that is not live is ignored.
    func unregister(_ handle: OpaquePointer) {
        let token = UInt(bitPattern: UnsafeMutableRawPointer(handle))
        if let kind = HandleKind(tag: token & 0xF), Self.isLent(kind) { return }  // loans end with endLoan
        let box: AnyObject? = try? locked { (t: inout Table) -> AnyObject? in
            guard let (index, generation, kind) = Self.parse(token), index < t.slots.count,
                t.slots[index].generation == generation, t.slots[index].kind == kind,
                let box = t.slots[index].box
            else { return nil }
            t.slots[index].box = nil
            t.slots[index].generation &+= 1
            if t.slots[index].generation == 0 { t.slots[index].generation = 1 }
            t.freeSlots.append(index)
            return box
        }
        _ = box  // released here, outside the lock: a box's deinit may call back into the registry
    }

    private func lookup(_ handle: OpaquePointer, _ kind: HandleKind) throws(AmberError) -> AnyObject {
        let token = UInt(bitPattern: UnsafeMutableRawPointer(handle))
        if let found = HandleKind(tag: token & 0xF), Self.isLent(found) {
            return try lentBox(token, found, kind, handle).takeUnretainedValue()
        }
        return try locked { (t: inout Table) throws(AmberError) -> AnyObject in
            guard let (index, generation, found) = Self.parse(token), index < t.slots.count,
                t.slots[index].generation == generation, let box = t.slots[index].box
            else {
                throw Self.notLive(handle, kind)
            }
            guard found == kind else {
                throw Self.wrongKind(handle, found, asked: kind)
            }
            return box
        }
    }

    /// The refusal of a handle that is not live, asked for as a `kind`.
    static func notLive(_ handle: OpaquePointer, _ kind: HandleKind) -> AmberError {
        misuse("the \(kind.rawValue) \(UnsafeMutableRawPointer(handle)) is not live: freed, closed, never given out by Amber, or (for a coder or decoder) used outside its callback")
    }

    /// The refusal of a live handle of kind `found` asked for as another kind.
    static func wrongKind(_ handle: OpaquePointer, _ found: HandleKind, asked kind: HandleKind) -> AmberError {
        misuse("the handle \(UnsafeMutableRawPointer(handle)) is an \(found.rawValue), not an \(kind.rawValue)")
    }

    /// The box of a live handle of a kind.
    /// - Throws: `.invalidArgument` for NULL; `.misuse` for a handle that is not live (freed,
    ///   closed, a coder after its callback, a pointer Amber never gave out) or of another kind.
    func resolve<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type) throws(AmberError) -> T {
        guard let handle else { throw invalid("the \(kind.rawValue) is NULL") }
        let box = try lookup(handle, kind)
        guard let typed = box as? T else {
            throw misuse("the \(kind.rawValue) \(UnsafeMutableRawPointer(handle)) holds an unexpected box")
        }
        return typed
    }
}

extension HandleRegistry {
    // MARK: Lent handles

    /// The loan made last on a thread and not ended yet: its token (0: none) and box. A call
    /// made on the thread during that loan (the amber_coder_* and amber_decoder_* calls of the
    /// callback it was lent to) finds the box here without taking the registry's lock. Only the
    /// lending thread writes it: `lend` sets it and `endLoan` (on the same thread: loans end
    /// where they were made) clears it, so a token found here is live.
    fileprivate struct ThreadLoan {
        var token: UInt
        var box: Unmanaged<AnyObject>?
    }

    fileprivate static let threadLoanKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in raw?.deallocate() }
        return key
    }()

    /// This thread's `ThreadLoan`, made at first use and freed when the thread ends.
    @inline(__always)
    fileprivate static func threadLoan() -> UnsafeMutablePointer<ThreadLoan> {
        if let raw = pthread_getspecific(threadLoanKey) { return raw.assumingMemoryBound(to: ThreadLoan.self) }
        let made = UnsafeMutablePointer<ThreadLoan>.allocate(capacity: 1)
        made.initialize(to: ThreadLoan(token: 0, box: nil))
        pthread_setspecific(threadLoanKey, made)
        return made
    }

    /// Lends `box` (a coder or decoder) for one callback: the caller keeps it alive until
    /// `endLoan`, after which the handle is refused as any freed handle is.
    /// - Throws: `.limitExceeded` when 2^28 loans are open at once.
    func lend(_ box: AnyObject, _ kind: HandleKind) throws(AmberError) -> OpaquePointer {
        let token = try locked { (t: inout Table) throws(AmberError) -> UInt in
            let index: Int
            if let reused = t.lentFree.popLast() {
                index = reused
            } else {
                guard t.lentCount < Self.maxSlots else {
                    throw AmberError(.limitExceeded, "too many coders and decoders lent at once (\(Self.maxSlots))")
                }
                if t.lentCount == t.lentCapacity {
                    let bigger = UnsafeMutablePointer<LentSlot>.allocate(capacity: t.lentCapacity * 2)
                    bigger.moveInitialize(from: t.lent, count: t.lentCount)
                    t.lent.deallocate()
                    t.lent = bigger
                    t.lentCapacity *= 2
                }
                index = t.lentCount
                (t.lent + index).initialize(to: LentSlot(box: nil, generation: 1, kind: kind))
                t.lentCount += 1
            }
            t.lent[index].box = Unmanaged.passUnretained(box)
            t.lent[index].kind = kind
            return Self.token(index, t.lent[index].generation, kind)
        }
        Self.threadLoan().pointee = ThreadLoan(token: token, box: Unmanaged.passUnretained(box))
        return OpaquePointer(bitPattern: token)!
    }

    /// Ends a loan: the handle is dead from now on. A handle that is not lent is ignored.
    func endLoan(_ handle: OpaquePointer) {
        let token = UInt(bitPattern: UnsafeMutableRawPointer(handle))
        guard let (index, generation, kind) = Self.parse(token), Self.isLent(kind) else { return }
        if let raw = pthread_getspecific(Self.threadLoanKey) {
            let loan = raw.assumingMemoryBound(to: ThreadLoan.self)
            if loan.pointee.token == token { loan.pointee = ThreadLoan(token: 0, box: nil) }
        }
        _ = try? locked { (t: inout Table) in
            guard index < t.lentCount, t.lent[index].generation == generation, t.lent[index].box != nil else { return }
            t.lent[index].box = nil
            t.lent[index].generation &+= 1
            if t.lent[index].generation == 0 { t.lent[index].generation = 1 }
            t.lentFree.append(index)
        }
    }

    /// The box of a live lent handle (a coder or decoder during its callback).
    /// - Throws: as `resolve`.
    @inline(__always)
    func resolveLent<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type) throws(AmberError) -> T {
        guard let handle else { throw invalid("the \(kind.rawValue) is NULL") }
        let token = UInt(bitPattern: UnsafeMutableRawPointer(handle))
        guard token & 0xF == kind.tag else { return try resolve(handle, kind, as: type) }  // for the message
        let box = try lentBox(token, kind, kind, handle).takeUnretainedValue()
        // Only a T is ever lent as `kind` (CoderBox as .coder, DecoderBox as .decoder).
        return unsafeDowncast(box, to: T.self)
    }

    /// As `resolveLent`, without taking a reference to the box: the lender keeps it alive until
    /// the loan ends (`lend`, `endLoan`), so a caller that uses it only during one call made
    /// during the loan (an amber_decoder_* function inside the callback) may use it unretained.
    @inline(__always)
    func resolveLentUnretained<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as type: T.Type) throws(AmberError) -> Unmanaged<T> {
        guard let handle else { throw invalid("the \(kind.rawValue) is NULL") }
        let token = UInt(bitPattern: UnsafeMutableRawPointer(handle))
        guard token & 0xF == kind.tag else { return Unmanaged.passUnretained(try resolve(handle, kind, as: type)) }  // for the message
        // The loan made last on this thread, live (see `ThreadLoan`): no lock.
        if let raw = pthread_getspecific(Self.threadLoanKey) {
            let loan = raw.assumingMemoryBound(to: ThreadLoan.self).pointee
            if loan.token == token, let box = loan.box { return Unmanaged<T>.fromOpaque(box.toOpaque()) }
        }
        let box = try lentBox(token, kind, kind, handle)
        // Only a T is ever lent as `kind` (CoderBox as .coder, DecoderBox as .decoder).
        return Unmanaged<T>.fromOpaque(box.toOpaque())
    }

    /// The box of lent handle `token` of kind `found`, asked for as a `kind`.
    /// Unretained: the lender holds the box for the loan.
    fileprivate func lentBox(_ token: UInt, _ found: HandleKind, _ kind: HandleKind, _ handle: OpaquePointer) throws(AmberError) -> Unmanaged<AnyObject> {
        let index = Int((token >> 4) & ((1 << Self.indexBitsValue) - 1))
        let generation = UInt32(truncatingIfNeeded: token >> (Self.indexBitsValue + 4))
        let box = try locked { (t: inout Table) -> Unmanaged<AnyObject>? in
            index < t.lentCount && t.lent[index].generation == generation && t.lent[index].kind == found ? t.lent[index].box : nil
        }
        guard let box else {
            throw Self.notLive(handle, kind)
        }
        guard found == kind else {
            throw Self.wrongKind(handle, found, asked: kind)
        }
        return box
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
