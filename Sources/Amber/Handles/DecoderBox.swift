// The box behind an amber_decoder handle: valid during one callback, owning the strings and
// bytes it lent.

import AmberArchive
import AmberCore
import CAmber
#if canImport(Glibc)
import Glibc
#endif

/// A decoder lent to a host callback: an object's decoder or the application decoder.
final class DecoderBox {
    enum Source {
        case state(StateDecoder)
        case app(AppDecoder)
        /// Between loans (a box is reused by its engine from one callback to the next).
        case idle
    }

    private(set) var source: Source {
        didSet { keyed = Self.keyed(source) }
    }
    /// The decoder `source` holds (nil when idle), unretained: `source` holds it.
    private var keyed: Unmanaged<KeyedStateDecoder>?
    /// The engine whose spare box this is (unowned: the engine's box holds its spare, and a box
    /// made for a nested callback lives only during that callback, inside an engine operation;
    /// so it never outlives the engine's box).
    unowned var engine: EngineBox?
    /// What decode_string and decode_bytes lent; invalid once the callback returns.
    let arena = ScratchArena()

    init(_ source: Source, engine: EngineBox?) {
        self.source = source
        self.engine = engine
        keyed = Self.keyed(source)
    }

    private static func keyed(_ source: Source) -> Unmanaged<KeyedStateDecoder>? {
        switch source {
        case .state(let d): return Unmanaged.passUnretained(d)
        case .app(let d): return Unmanaged.passUnretained(d)
        case .idle: return nil
        }
    }

    /// Lends a decoder handle to `body`; the handle is dead once it returns. The engine's spare
    /// box is re-pointed rather than a box made per callback (a new one when callbacks nest).
    static func with<T>(_ source: Source, engine: EngineBox?, _ body: (OpaquePointer) throws -> T) throws -> T {
        let box: DecoderBox
        if let engine, let spare = engine.spareDecoder {
            engine.spareDecoder = nil
            spare.source = source
            box = spare
        } else {
            box = DecoderBox(source, engine: engine)
        }
        let handle = try HandleRegistry.shared.lend(box, .decoder)
        defer {
            HandleRegistry.shared.endLoan(handle)
            box.source = .idle
            // Every loan is zeroed, so that a sensitive value (SPEC R34) never outlives its
            // callback: cheaper than looking up, per state, whether it holds one.
            box.arena.reset(wiping: true)
            // `engine` is the box's own (a spare's, or the one a new box was made with).
            if let engine, engine.spareDecoder == nil { engine.spareDecoder = box }
        }
        return try withExtendedLifetime(box) { try body(handle) }
    }

    private func idle() -> AmberError { misuse("the decoder is used outside its callback") }

    /// Calls `body` with the decoder read, borrowed (no retain: `source` holds it).
    @inline(__always)
    private func withDecoder<T>(_ body: (KeyedStateDecoder) throws(AmberError) -> T) throws(AmberError) -> T {
        guard let keyed else { throw idle() }
        return try Borrowed(keyed).with(body)  // held by the engine for the callback
    }

    /// The keys the host gave, interned.
    private var keys = KeyInterner()

    /// A decoder key (as `engineKey`), interned.
    @inline(__always)
    func key(_ p: UnsafePointer<CChar>?) throws(AmberError) -> ArchiveKey { try engineKey(p, interning: &keys) }

    func contains(_ key: ArchiveKey) -> Bool { (try? withDecoder { d in d.containsValue(forKey: key) }) ?? false }
    func bool(_ key: ArchiveKey) throws(AmberError) -> Bool { try withDecoder { d throws(AmberError) in try d.decodeBool(forKey: key) } }
    func int64(_ key: ArchiveKey) throws(AmberError) -> Int64 { try withDecoder { d throws(AmberError) in try d.decodeInt64(forKey: key) } }
    func double(_ key: ArchiveKey) throws(AmberError) -> Double { try withDecoder { d throws(AmberError) in try d.decodeDouble(forKey: key) } }

    /// A string lent to the host, copied from the archive into the arena (nil: out of memory).
    func cString(_ key: ArchiveKey) throws(AmberError) -> UnsafePointer<CChar> {
        let arena = self.arena
        let p = try withDecoder { d throws(AmberError) in
            try d.withDecodedString(forKey: key) { bytes -> UnsafeMutablePointer<CChar>? in
                guard let raw = try? arena.allocate(bytes.count + 1) else { return nil }
                bytes.withUnsafeBufferPointer { b in if let base = b.baseAddress { memcpy(raw, base, b.count) } }
                raw.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
                return raw.assumingMemoryBound(to: CChar.self)
            }
        }
        guard let p else { throw AmberError(.limitExceeded, "out of memory for a string") }
        return UnsafePointer(p)
    }

    func bytes(_ key: String) throws(AmberError) -> [UInt8] {
        switch source {
        case .state(let d): return try d.decodeBytes(forKey: key)
        case .idle: throw idle()
        case .app(let d): return try d.decodeBytes(forKey: key)
        }
    }

    func date(_ key: String) throws(AmberError) -> Double {
        switch source {
        case .state(let d): return try d.decodeDate(forKey: key)
        case .idle: throw idle()
        case .app(let d): return try d.decodeDate(forKey: key)
        }
    }

    func indexPath(_ key: String) throws(AmberError) -> [Int] {
        switch source {
        case .state(let d): return try d.decodeIndexPath(forKey: key)
        case .idle: throw idle()
        case .app(let d): return try d.decodeIndexPath(forKey: key)
        }
    }

    /// An index path as C reads it, its indexes copied into the arena: lent until the callback
    /// returns (`amber_decoder_decode_index_path`, `amber_decoder_decode_values`).
    func lent(indexPath path: [Int]) throws(AmberError) -> amber_index_path {
        guard !path.isEmpty else { return amber_index_path(indexes: nil, length: 0) }
        let bytes = try arena.allocate(path.count * MemoryLayout<Int64>.stride)
        let p = bytes.bindMemory(to: Int64.self, capacity: path.count)
        for (i, x) in path.enumerated() { p[i] = Int64(x) }
        return amber_index_path(indexes: UnsafePointer(p), length: path.count)
    }

    /// A reference (SPEC R4), from an object's decoder or the application decoder.
    func reference(_ key: String) throws(AmberError) -> RestorableObject? {
        try withDecoder { d throws(AmberError) in try d.decodeReference(forKey: key) }
    }

    /// A reference to an object of one of `classes` (SPEC R4, R12).
    func reference(_ key: String, ofClasses classes: Set<String>) throws(AmberError) -> RestorableObject? {
        try withDecoder { d throws(AmberError) in try d.decodeReference(forKey: key, ofClasses: classes) }
    }
}
