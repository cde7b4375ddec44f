// The box behind an amber_coder handle: valid during one callback.

import AmberCore
import CAmber

/// A coder lent to a host callback: an object's coder or the application coder.
final class CoderBox {
    enum Source {
        case state(StateCoder)
        case app(AppCoder)
        /// Between loans (a box is reused by its engine from one callback to the next).
        case idle
    }

    /// Unchecked for exclusive access at run time: each access is a plain read, or a write
    /// by `with` outside the callback.
    @exclusivity(unchecked) private(set) var source: Source
    /// The engine whose callback the coder serves. Unowned, as `DecoderBox.engine`: the engine's
    /// box holds its spare box, and a box made for a nested callback lives only during that
    /// callback, inside an engine operation, so a box never outlives its engine's box while
    /// lent (a handle kept past its callback is refused before this is read). A weak reference
    /// would give the engine's box a side table and slow its every retain and release.
    @exclusivity(unchecked) unowned(unsafe) var engine: EngineBox?

    init(_ source: Source, engine: EngineBox?) {
        self.source = source
        self.engine = engine
    }

    /// Lends a coder handle to `body`; the handle is dead once it returns. The engine's spare
    /// box is re-pointed rather than a box made per callback (a new one when callbacks nest).
    static func with<T>(_ source: Source, engine: EngineBox?, _ body: (OpaquePointer) throws -> T) throws -> T {
        let box: CoderBox
        if let engine, let spare = engine.spareCoder {
            engine.spareCoder = nil
            spare.source = source
            box = spare
        } else {
            box = CoderBox(source, engine: engine)
        }
        let handle = try HandleRegistry.shared.lend(box, .coder)
        defer {
            HandleRegistry.shared.endLoan(handle)
            box.source = .idle
            // The engine given: the caller holds it.
            if let engine, engine.spareCoder == nil { engine.spareCoder = box }
        }
        return try withExtendedLifetime(box) { try body(handle) }
    }

    private func idle() -> AmberError { misuse("the coder is used outside its callback") }

    /// Keys made from C strings, by length and first byte: a host writes the same few keys for
    /// every object, and comparing a short key's bytes is cheaper than making its string.
    /// No host code runs during an access, so it skips the run-time exclusivity check.
    @exclusivity(unchecked) private var keyCache = [String](repeating: "", count: 32)

    /// A coder key (as `inputKey`): short ASCII keys come from `keyCache`.
    @inline(__always)
    func key(_ p: UnsafePointer<CChar>?) throws(AmberError) -> String {
        guard let p else { return try inputKey(p) }
        let bytes = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self)
        var n = 0
        var high: UInt8 = 0
        while n < 16, bytes[n] != 0 {
            high |= bytes[n]
            n += 1
        }
        guard n > 0, n < 16, high < 0x80 else { return try inputKey(p) }
        let slot = (n &* 7 &+ Int(bytes[0])) & 31
        var cached = keyCache[slot]
        if cached.utf8.count == n {
            let same = cached.withUTF8 { c -> Bool in
                for i in 0 ..< n where c[i] != bytes[i] { return false }
                return true
            }
            if same { return cached }
        }
        let made = String(decoding: UnsafeBufferPointer(start: bytes, count: n), as: UTF8.self)
        keyCache[slot] = made
        return made
    }

    func encode(_ value: Bool, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(_ value: Int64, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(_ value: Double, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(_ value: String, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(utf8 value: Span<UInt8>, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(utf8: value, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(utf8: value, forKey: key)
        }
    }

    func encode(bytes: [UInt8], _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(bytes: bytes, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(bytes: bytes, forKey: key)
        }
    }

    func encode(date: Double, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(date: date, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(date: date, forKey: key)
        }
    }

    func encode(indexPath: [Int], _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(indexPath: indexPath, forKey: key)
        case .idle: throw idle()
        case .app(let c): try c.encode(indexPath: indexPath, forKey: key)
        }
    }
}
