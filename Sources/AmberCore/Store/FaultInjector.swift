/// Makes the k-th file-system operation of durable writes fail, for the fault-injection tests of
/// SPEC R14 and R19: one-shot (only operation k fails), persistent (k and every later one fail,
/// as a disk that went away), or a set of one-shot operations (two faults far apart, which R14's
/// discard must survive). Counts every operation it sees, so a test can find how many a save has.
public final class FaultInjector: @unchecked Sendable {
    /// The operation that fails first (1-based); 0 never fails.
    public let failAt: Int
    /// Whether every operation after `failAt` fails too.
    public let persistent: Bool
    /// Further operations (1-based) that fail one by one, whatever `failAt` is.
    public let failing: Set<Int>
    /// The operations seen so far, by name ("create", "write", "fsync", "close", "rename",
    /// "fsync directory", "unlink"): those of a durable write, and those of the archive's
    /// removal (`FileStore.remove()`: "unlink", then "fsync directory").
    public private(set) var operations: [String] = []

    public init(failAt: Int = 0, persistent: Bool = false) {
        self.failAt = failAt
        self.persistent = persistent
        self.failing = []
    }

    /// An injector that fails each of `operations` (1-based) once, and nothing else.
    public init(failing operations: Set<Int>) {
        self.failAt = 0
        self.persistent = false
        self.failing = operations
    }

    /// Counts an operation, and fails it if it is the one.
    func step(_ operation: String, _ path: String) throws(AmberError) {
        operations.append(operation)
        let n = operations.count
        let fromFailAt = failAt > 0 && (n == failAt || (persistent && n > failAt))
        guard fromFailAt || failing.contains(n) else { return }
        throw AmberError(.io, "cannot \(operation) '\(path)': injected failure of operation \(n)")
    }
}
