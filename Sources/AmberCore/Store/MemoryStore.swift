/// An archive store in memory: for tests, and for hosts that persist the bytes themselves.
public final class MemoryStore: ArchiveStore {
    /// The archive, if any.
    public var bytes: [UInt8]?
    /// The launch guard's count (0: none).
    public var guardCount: Int
    /// How many times an archive was written.
    public private(set) var writeCount = 0
    /// The key of the default protection of an engine on this store
    /// (`EngineConfiguration.defaultEnvelope`): random, and gone with the store, as its archive.
    public let key = EphemeralKeyProvider()

    /// Creates a store, empty or holding an archive and a guard.
    public init(bytes: [UInt8]? = nil, guardCount: Int = 0) {
        self.bytes = bytes
        self.guardCount = guardCount
    }

    /// The archive, if any.
    public func read() throws -> [UInt8]? { bytes }

    /// Replaces the archive.
    public func write(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        writeCount += 1
    }

    /// Removes the archive.
    public func remove() throws { bytes = nil }

    /// The launch guard's count.
    public func readGuard() throws -> Int { guardCount }

    /// Sets the launch guard's count.
    public func writeGuard(_ count: Int) throws { guardCount = count }

    /// Removes the launch guard.
    public func removeGuard() throws { guardCount = 0 }
}
