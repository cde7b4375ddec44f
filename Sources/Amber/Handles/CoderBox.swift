// The box behind an amber_coder handle: valid during one callback.

import AmberArchive
import AmberCore
import CAmber

/// A coder lent to a host callback: an object's coder or the application coder.
final class CoderBox {
    enum Source {
        case state(StateCoder)
        case app(AppCoder)
        /// The coder of a migrate callback (SPEC R30).
        case migration(MigrationCoder)
        /// Between loans (a box is reused by its engine from one callback to the next).
        case idle
    }

    /// The coder lent, unretained: the lender (`with`) holds it for the loan and clears it when
    /// the loan ends. Every kind is a `KeyedStateCoder`, which has every write.
    private var keyed: Unmanaged<KeyedStateCoder>?
    /// The engine whose callback the coder serves. Unowned, as `DecoderBox.engine`: the engine's
    /// box holds its spare box, and a box made for a nested callback lives only during that
    /// callback, inside an engine operation, so a box never outlives its engine's box while
    /// lent (a handle kept past its callback is refused before this is read).
    unowned var engine: EngineBox?

    init(engine: EngineBox?) {
        self.engine = engine
    }

    /// Points the box at `source`'s coder, unretained (the lender holds it), or at none.
    @inline(__always)
    private func point(at source: Source) {
        switch source {
        case .state(let c): keyed = .passUnretained(c)
        case .app(let c): keyed = .passUnretained(c)
        case .migration(let c): keyed = .passUnretained(c)
        case .idle: keyed = nil
        }
    }

    /// Calls `body` with the coder, borrowed (no retain: the lender holds it).
    @inline(__always)
    private func withCoder(_ body: (KeyedStateCoder) throws(AmberError) -> Void) throws(AmberError) {
        guard let keyed else { throw idle() }
        try Borrowed(keyed).with(body)  // held by the engine for the callback
    }

    /// Lends a coder handle to `body`; the handle is dead once it returns. `source`'s coder must
    /// stay alive until then (the caller holds it). The engine's spare box is re-pointed rather
    /// than a box made per callback (a new one when callbacks nest), reached without a retain:
    /// the engine's box holds it.
    static func with<T>(_ source: Source, engine: EngineBox?, _ body: (OpaquePointer) throws -> T) throws -> T {
        try with(source, engine: engine.map { Unmanaged.passUnretained($0) }, body)
    }

    /// As `with(_:engine:_:)`, the engine given unretained (the caller holds it).
    @inline(__always)
    static func with<T>(_ source: Source, engine: Unmanaged<EngineBox>?, _ body: (OpaquePointer) throws -> T) throws -> T {
        guard let engineRef = engine else { return try CoderBox(engine: nil).lend(source, body) }
        // The engine box is held by the host's engine handle, which the callback runs under;
        // the spare coder box by the engine box.
        return try Borrowed(engineRef).with { engine throws in
            guard !engine.spareCoderLent else { return try CoderBox(engine: engine).lend(source, body) }
            let spare: Unmanaged<CoderBox>
            if let made = engine.spareCoderRef {
                spare = made
            } else {
                let box = CoderBox(engine: engine)
                engine.spareCoder = box
                spare = .passUnretained(box)
                engine.spareCoderRef = spare
            }
            engine.spareCoderLent = true
            defer { engine.spareCoderLent = false }
            return try Borrowed(spare).with { box throws in try box.lend(source, body) }
        }
    }

    /// Lends this box, pointed at `source`, to `body`.
    @inline(__always)
    private func lend<T>(_ source: Source, _ body: (OpaquePointer) throws -> T) throws -> T {
        point(at: source)
        defer { point(at: .idle) }
        let handle = try HandleRegistry.shared.lend(self, .coder)
        defer { HandleRegistry.shared.endLoan(handle) }
        return try body(handle)
    }

    private func idle() -> AmberError { misuse("the coder is used outside its callback") }

    /// Marks a key sensitive (SPEC R34).
    func markSensitive(_ key: ArchiveKey) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.markSensitive(key.string) }
    }

    /// The keys the host gave, interned.
    private var keys = KeyInterner()

    /// A coder key (as `engineKey`), interned.
    @inline(__always)
    func key(_ p: UnsafePointer<CChar>?) throws(AmberError) -> ArchiveKey { try engineKey(p, interning: &keys) }

    /// Writes a boolean, integer or double (amber_coder_encode_bool, _int64, _double, and the
    /// batch's values of those types).
    func encode(scalar value: ScalarValue, _ key: ArchiveKey) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encode(scalar: value, forKey: key) }
    }

    func encode(_ value: String, _ key: ArchiveKey) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encode(value, forKey: key) }
    }

    func encode(utf8 value: Span<UInt8>, _ key: ArchiveKey) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encode(utf8: value, forKey: key) }
    }

    /// Scratch of `encodeValues`, kept from one call to the next (no allocation per call): the
    /// values' keys, what the engine is to check of each, and the length of each string value
    /// that is ASCII (-1 for another string).
    private var batchKeys: [ArchiveKey] = []
    private var batchChecks: [BatchValueCheck] = []
    private var batchLengths: [Int] = []

    /// Writes `n` values (amber_coder_encode_values): reads every one (`batchEntry`), has the
    /// engine check them all (`KeyedStateCoder.checkBatch`), and only then writes them, so
    /// that an error writes nothing.
    func encodeValues(_ values: UnsafePointer<amber_keyed_value>, _ n: Int) throws(AmberError) {
        // The scratch arrays are overwritten in place, and cut to `n` when a previous call left more.
        if batchKeys.count > n {
            batchKeys.removeLast(batchKeys.count - n)
            batchChecks.removeLast(batchChecks.count - n)
            batchLengths.removeLast(batchLengths.count - n)
        }
        for i in 0 ..< n {
            do throws(AmberError) { try batchEntry(values[i], i) } catch {
                throw AmberError(error.code, "\(keyedValueLabel(values, i)): \(error.message)")
            }
        }
        try withCoder { c throws(AmberError) in try c.checkBatch(batchKeys, batchChecks, label: { keyedValueLabel(values, $0) }) }
        for i in 0 ..< n { try write(values[i], batchKeys[i], i) }
    }

    /// Reads value `i` of a batch into the scratch arrays: its key, and what the engine is to
    /// check of it. A string that is ASCII is checked by its length, and its length kept for
    /// `write` (-1 otherwise).
    private func batchEntry(_ v: amber_keyed_value, _ i: Int) throws(AmberError) {
        let k = try key(v.key)
        var length = 0
        let check: BatchValueCheck
        switch v.type.rawValue {
        case AMBER_VALUE_BOOL.rawValue, AMBER_VALUE_INT64.rawValue, AMBER_VALUE_DOUBLE.rawValue:
            check = .scalar
        case AMBER_VALUE_DATE.rawValue:
            check = .date(v.double_value)
        case AMBER_VALUE_INDEX_PATH.rawValue:
            let count = try inputCount(v.index_path_value.length, "the index path's length")
            guard v.index_path_value.indexes != nil || count == 0 else {
                throw invalid("the index path's indexes are NULL and its length is \(count)")
            }
            let indexes = UnsafeBufferPointer(start: v.index_path_value.indexes, count: count)
            check = .length(count > 1 ? ArchiveLimits.storedLength(ofIndexPath: indexes.lazy.map { Int($0) }) : 0)
        case AMBER_VALUE_STRING.rawValue:
            guard let p = v.string_value else { throw invalid("the string value is NULL") }
            if let ascii = asciiBytes(p) {
                length = ascii.count
                check = .length(length)
            } else {
                guard let string = String(validatingCString: p) else { throw invalid("the string value is not valid UTF-8") }
                length = -1
                check = .string(utf8Count: string.utf8.count, utf16Count: string.utf16.count)
            }
        case AMBER_VALUE_BYTES.rawValue:
            let size = try inputCount(v.bytes_size, "bytes_size")
            guard v.bytes_value != nil || size == 0 else { throw invalid("bytes_value is NULL and bytes_size is \(size)") }
            check = .length(size)
        default:
            throw invalid("the type \(v.type.rawValue) is not an amber_value_type a coder writes")
        }
        if i < batchKeys.count {
            batchKeys[i] = k
            batchChecks[i] = check
            batchLengths[i] = length
        } else {
            batchKeys.append(k)
            batchChecks.append(check)
            batchLengths.append(length)
        }
    }

    /// Writes value `i` of a batch under `key`, which `batchEntry` read and the engine checked.
    private func write(_ v: amber_keyed_value, _ key: ArchiveKey, _ i: Int) throws(AmberError) {
        switch v.type.rawValue {
        case AMBER_VALUE_BOOL.rawValue: try encode(scalar: .bool(v.int64_value != 0), key)
        case AMBER_VALUE_DATE.rawValue: try encode(date: v.double_value, key.string)
        case AMBER_VALUE_INDEX_PATH.rawValue:
            let p = v.index_path_value
            let path = p.length == 0 ? [] : UnsafeBufferPointer(start: p.indexes, count: p.length).map { Int($0) }
            try encode(indexPath: path, key.string)
        case AMBER_VALUE_INT64.rawValue: try encode(scalar: .int(v.int64_value), key)
        case AMBER_VALUE_DOUBLE.rawValue: try encode(scalar: .double(v.double_value), key)
        case AMBER_VALUE_STRING.rawValue:
            let p = v.string_value!
            let length = batchLengths[i]
            if length >= 0 {
                let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: length)
                try encode(utf8: bytes.span, key)
            } else {
                try encode(String(cString: p), key)
            }
        default:
            let size = v.bytes_size
            let copy = size == 0 ? [] : Array(UnsafeRawBufferPointer(start: v.bytes_value, count: size))
            try encode(bytes: copy, key.string)
        }
    }

    func encode(bytes: [UInt8], _ key: String) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encode(bytes: bytes, forKey: key) }
    }

    func encode(date: Double, _ key: String) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encode(date: date, forKey: key) }
    }

    func encode(indexPath: [Int], _ key: String) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encode(indexPath: indexPath, forKey: key) }
    }

    /// A reference to a restorable object (SPEC R4), from an object's coder or the application
    /// coder.
    func reference(to object: RestorableObject?, _ key: String) throws(AmberError) {
        try withCoder { c throws(AmberError) in try c.encodeReference(to: object, forKey: key) }
    }
}
