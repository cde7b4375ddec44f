/// Makes the k-th file-system operation of durable writes fail, for the fault-injection tests of
/// SPEC R19: one-shot (only operation k fails) or persistent (k and every later one fail, as a
/// disk that went away). Counts every operation it sees, so a test can find how many a save has.
public final class FaultInjector: @unchecked Sendable {
    /// The operation that fails first (1-based); 0 never fails.
    public let failAt: Int
    /// Whether every operation after `failAt` fails too.
    public let persistent: Bool
    /// The operations seen so far, by name ("create", "write", "fsync", "close", "rename",
    /// "fsync directory", "unlink"): those of a durable write, and those of the archive's
    /// removal (`FileStore.remove()`: "unlink", then "fsync directory").
    public private(set) var operations: [String] = []

    public init(failAt: Int = 0, persistent: Bool = false) {
        self.failAt = failAt
        self.persistent = persistent
    }

    /// Counts an operation, and fails it if it is the one.
    func step(_ operation: String, _ path: String) throws(AmberError) {
        operations.append(operation)
        let n = operations.count
        guard failAt > 0, n == failAt || (persistent && n > failAt) else { return }
        throw AmberError(.io, "cannot \(operation) '\(path)': injected failure of operation \(n)")
    }
}
