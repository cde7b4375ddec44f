// The box behind an amber_coder handle: valid during one callback.

import AmberCore
import CAmber

/// A coder lent to a host callback: an object's coder or the application coder.
final class CoderBox {
    enum Source {
        case state(StateCoder)
        case app(AppCoder)
    }

    let source: Source
    weak var engine: EngineBox?

    init(_ source: Source, engine: EngineBox?) {
        self.source = source
        self.engine = engine
    }

    /// Lends a coder handle to `body`; the handle is dead once it returns.
    static func with<T>(_ source: Source, engine: EngineBox?, _ body: (OpaquePointer) throws -> T) throws -> T {
        let handle = try HandleRegistry.shared.register(CoderBox(source, engine: engine), .coder)
        defer { HandleRegistry.shared.unregister(handle) }
        return try body(handle)
    }

    func encode(_ value: Bool, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(_ value: Int64, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(_ value: Double, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(_ value: String, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(value, forKey: key)
        case .app(let c): try c.encode(value, forKey: key)
        }
    }

    func encode(bytes: [UInt8], _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(bytes: bytes, forKey: key)
        case .app(let c): try c.encode(bytes: bytes, forKey: key)
        }
    }

    func encode(date: Double, _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(date: date, forKey: key)
        case .app(let c): try c.encode(date: date, forKey: key)
        }
    }

    func encode(indexPath: [Int], _ key: String) throws(AmberError) {
        switch source {
        case .state(let c): try c.encode(indexPath: indexPath, forKey: key)
        case .app(let c): try c.encode(indexPath: indexPath, forKey: key)
        }
    }
}
