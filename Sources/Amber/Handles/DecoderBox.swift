// The box behind an amber_decoder handle: valid during one callback, owning the strings and
// bytes it lent.

import AmberCore
import CAmber

/// A decoder lent to a host callback: an object's decoder or the application decoder.
final class DecoderBox {
    enum Source {
        case state(StateDecoder)
        case app(AppDecoder)
    }

    let source: Source
    weak var engine: EngineBox?
    /// What decode_string and decode_bytes lent; freed when the callback returns.
    let arena = CArena()

    init(_ source: Source, engine: EngineBox?) {
        self.source = source
        self.engine = engine
    }

    /// Lends a decoder handle to `body`; the handle is dead once it returns.
    static func with<T>(_ source: Source, engine: EngineBox?, _ body: (OpaquePointer) throws -> T) throws -> T {
        let handle = try HandleRegistry.shared.register(DecoderBox(source, engine: engine), .decoder)
        defer { HandleRegistry.shared.unregister(handle) }
        return try body(handle)
    }

    func contains(_ key: String) -> Bool {
        switch source {
        case .state(let d): return d.containsValue(forKey: key)
        case .app(let d): return d.containsValue(forKey: key)
        }
    }

    func bool(_ key: String) throws(AmberError) -> Bool {
        switch source {
        case .state(let d): return try d.decodeBool(forKey: key)
        case .app(let d): return try d.decodeBool(forKey: key)
        }
    }

    func int64(_ key: String) throws(AmberError) -> Int64 {
        switch source {
        case .state(let d): return try d.decodeInt64(forKey: key)
        case .app(let d): return try d.decodeInt64(forKey: key)
        }
    }

    func double(_ key: String) throws(AmberError) -> Double {
        switch source {
        case .state(let d): return try d.decodeDouble(forKey: key)
        case .app(let d): return try d.decodeDouble(forKey: key)
        }
    }

    func string(_ key: String) throws(AmberError) -> String {
        switch source {
        case .state(let d): return try d.decodeString(forKey: key)
        case .app(let d): return try d.decodeString(forKey: key)
        }
    }

    func bytes(_ key: String) throws(AmberError) -> [UInt8] {
        switch source {
        case .state(let d): return try d.decodeBytes(forKey: key)
        case .app(let d): return try d.decodeBytes(forKey: key)
        }
    }

    func date(_ key: String) throws(AmberError) -> Double {
        switch source {
        case .state(let d): return try d.decodeDate(forKey: key)
        case .app(let d): return try d.decodeDate(forKey: key)
        }
    }

    func indexPath(_ key: String) throws(AmberError) -> [Int] {
        switch source {
        case .state(let d): return try d.decodeIndexPath(forKey: key)
        case .app(let d): return try d.decodeIndexPath(forKey: key)
        }
    }
}
