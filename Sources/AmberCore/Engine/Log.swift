import Synchronization

/// How much a log line matters (SPEC R29).
public enum LogLevel: Int, Comparable, Sendable, CustomStringConvertible {
    /// Every decision of a preservation or restoration: what was left out and why, which step
    /// of the lookup chain found each object, sizes, timings.
    case debug = 0
    /// One line per preservation and per restoration.
    case info = 1
    /// Something went wrong that the host may want to know about; nothing was lost by it.
    case warn = 2

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// `debug`, `info` or `warn`.
    public var description: String {
        switch self {
        case .debug: return "debug"
        case .info: return "info"
        case .warn: return "warn"
        }
    }

    /// The level a name gives (`debug`, `info`, `warn`, as `AMBER_LOG` takes), or nil.
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warn", "warning": self = .warn
        default: return nil
        }
    }
}

/// A place log lines go: a function and the least level it takes.
public struct LogSink: Sendable {
    /// The least level passed on.
    public var level: LogLevel
    /// Takes one line (no trailing newline).
    public var write: @Sendable (LogLevel, String) -> Void

    /// Creates a sink.
    public init(level: LogLevel, write: @escaping @Sendable (LogLevel, String) -> Void) {
        self.level = level
        self.write = write
    }
}

/// The log (SPEC R29). A line goes to the engine's sink if it has one, else to the process-wide
/// sink; and, independently, to standard error when the environment variable `AMBER_LOG` names a
/// level (`debug`, `info`, `warn`) it reaches, as `amber: <level>: <message>`.
///
/// Lines name objects by restoration path and class, keys never, values never: nothing a host
/// archives (state values, key material) is ever logged. The message of a line is built only
/// when some sink takes its level.
public enum Log {
    private static let processSink = Mutex<LogSink?>(nil)

    /// The level `AMBER_LOG` names, read once (nil: unset or not a level).
    public static let environmentLevel: LogLevel? = {
        FileSystem.environment("AMBER_LOG").flatMap(LogLevel.init(name:))
    }()

    /// The process-wide sink: lines of every engine without a sink of its own.
    public static var processWide: LogSink? {
        get { processSink.withLock { $0 } }
        set { processSink.withLock { $0 = newValue } }
    }

    /// Writes a line at `level` to `engineSink` (else the process-wide sink) and to standard
    /// error if `AMBER_LOG` asks for it.
    static func write(_ level: LogLevel, _ engineSink: LogSink?, _ message: () -> String) {
        let sink = engineSink ?? processWide
        let toSink = sink.map { level >= $0.level } ?? false
        let toStandardError = environmentLevel.map { level >= $0 } ?? false
        guard toSink || toStandardError else { return }
        let text = message()
        if toSink { sink!.write(level, text) }
        if toStandardError { FileSystem.writeStandardError("amber: \(level): \(text)\n") }
    }

    /// Whether a line at `level` would go anywhere (to skip work that only feeds the log).
    static func isEnabled(_ level: LogLevel, _ engineSink: LogSink?) -> Bool {
        if let e = environmentLevel, level >= e { return true }
        guard let sink = engineSink ?? processWide else { return false }
        return level >= sink.level
    }
}
