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

    private(set) var source: Source
    weak var engine: EngineBox?

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
            if let engine = box.engine, engine.spareCoder == nil { engine.spareCoder = box }
        }
        return try withExtendedLifetime(box) { try body(handle) }
    }

    private func idle() -> AmberError { misuse("the coder is used outside its callback") }

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
