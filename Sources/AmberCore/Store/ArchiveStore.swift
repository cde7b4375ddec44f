/// Where the engine keeps the archive and the launch guard (SPEC R14, R19): a plug-in, so a
/// host can keep its state anywhere. `FileStore` is the default on disk, `MemoryStore` the one
/// for tests and for hosts that persist elsewhere.
///
/// Methods throw `AmberError` (`.io` for the operating system's refusals); the engine reports
/// what they throw and never traps on it.
public protocol ArchiveStore: AnyObject {
    /// The archive's bytes (as sealed by the envelope), or nil if there is none.
    func read() throws -> [UInt8]?
    /// Replaces the archive with `bytes`, atomically: afterwards the store holds the old archive
    /// or the new one, never a part of one.
    func write(_ bytes: [UInt8]) throws
    /// Removes the archive; nothing happens if there is none.
    func remove() throws
    /// Removes the archive a launch has consumed (restored or refused), so that no later launch
    /// restores it (SPEC R14); nothing happens if there is none. Like the launch guard, the
    /// removal must survive the death of the process (what it guards against: a crash while
    /// restoring, restored again and again), not a power failure: a power cut after the launch
    /// may give the archive back once more, which loses nothing. Default: `remove()`.
    func removeConsumed() throws
    /// The launch guard's count: how many launches in a row started restoring and did not
    /// complete (0 when there is no guard).
    func readGuard() throws -> Int
    /// Sets the launch guard's count, atomically and so that it survives the death of the
    /// process (what it guards against: a crash while restoring). Surviving a power failure is
    /// not required: that costs at most one restore attempt more or less.
    func writeGuard(_ count: Int) throws
    /// Removes the launch guard; nothing happens if there is none.
    func removeGuard() throws
    /// Removes what a process that died mid-save left behind (temporary files); returns how
    /// many items were removed. Called by the engine at each restore. Default: nothing.
    @discardableResult
    func removeStaleFiles() -> Int
}

extension ArchiveStore {
    public func removeConsumed() throws { try remove() }

    @discardableResult
    public func removeStaleFiles() -> Int { 0 }
}
