import AmberArchive

/// A keyed archiver of the host's own data objects (SPEC R25) that keeps the rules every host
/// gets: a key is not empty and is written once into each object, a batch of values is written all together or
/// not at all, an archive is finished once, never from inside one of its objects, and an
/// archive whose encoding failed part-way cannot be finished. Backs `amber_archiver`.
///
/// The codec's `KeyedArchiver` writes whatever it is given; this type decides. Encode the
/// contents of each object inside `encodingObject(_:)`, so that its keys are its own.
public final class DataArchiver {
    /// The codec's archiver this one writes through.
    public let archiver: KeyedArchiver
    /// The keys written into each object open for encoding, innermost last (`$top` first).
    private var keys: [Set<String>] = [[]]
    /// Whether `finish()` has run.
    public private(set) var isFinished = false
    /// Why the archive cannot be finished (an object's encoding failed part-way), if it cannot.
    public private(set) var brokenReason: String?

    /// An archiver over the coding classes of `registry`.
    public init(registry: ArchiveClassRegistry) {
        archiver = KeyedArchiver(registry: registry)
    }

    /// Whether an object's contents are being encoded (`encodingObject`).
    public var isEncodingObject: Bool { keys.count > 1 }

    /// Runs `body`, which encodes one object's contents: the keys it writes are that object's.
    /// If `body` throws, the archive is marked unusable, since what the object wrote part-way
    /// cannot be taken back; the reason names `what` failed and the error's text (`describe`).
    public func encodingObject(
        _ what: @autoclosure () -> String,
        describe: (any Error) -> String = { ($0 as? AmberError)?.message ?? "\($0)" },
        _ body: () throws -> Void
    ) throws {
        keys.append([])
        defer { keys.removeLast() }
        do {
            try body()
        } catch {
            if brokenReason == nil { brokenReason = "\(what()) failed: \(describe(error))" }
            throw error
        }
    }

    /// Writes values under their keys into the current object, all or nothing: an empty key, a
    /// key written before into this object, or one given twice, writes none of them.
    /// - Throws: `.invalidArgument`, `.duplicate`; `.misuse` once finished or broken.
    public func encodeValues(_ values: [(key: String, value: ArchiveValue)]) throws(AmberError) {
        try claim(values.map(\.key))
        for (key, value) in values { archiver.encode(value, forKey: key) }
    }

    /// Writes an object of a registered coding class (or nil) under `key`.
    /// - Throws: `.invalidArgument` for an empty key; `.duplicate` for a key written before into
    ///   this object; `.misuse` once finished or broken; what the object's class throws.
    public func encodeObject(_ object: AnyObject?, forKey key: String) throws {
        try claim([key])
        try archiver.encodeObject(object, forKey: key)
    }

    /// Writes an array of objects of registered coding classes under `key`.
    /// - Throws: as `encodeObject(_:forKey:)`.
    public func encodeObjects(_ objects: [AnyObject], forKey key: String) throws {
        try claim([key])
        try archiver.encodeObjects(objects, forKey: key)
    }

    /// Finishes the archive: its bytes.
    /// - Throws: `.misuse` from inside an object's encoding, a second time, or once broken;
    ///   the codec's errors.
    public func finish() throws(AmberError) -> [UInt8] {
        guard !isEncodingObject else { throw AmberError(.misuse, "the archive cannot be finished from one of its encode callbacks") }
        try checkUsable()
        isFinished = true
        do { return try archiver.finishEncoding() } catch { throw AmberError(error) }
    }

    /// Records `newKeys` as written into the current object, after checking that none is empty
    /// (as the engine's coder refuses one), was written before or is given twice; records none
    /// if one is.
    private func claim(_ newKeys: [String]) throws(AmberError) {
        try checkUsable()
        var current = keys[keys.count - 1]
        for key in newKeys {
            guard !key.isEmpty else { throw AmberError(.invalidArgument, "the key is empty") }
            guard current.insert(key).inserted else {
                throw AmberError(.duplicate, "key '\(key)' was written twice into the same object")
            }
        }
        keys[keys.count - 1] = current
    }

    private func checkUsable() throws(AmberError) {
        guard !isFinished else { throw AmberError(.misuse, "the archive was finished already") }
        if let brokenReason { throw AmberError(.misuse, "the archive is unusable (\(brokenReason)): free it") }
    }
}
