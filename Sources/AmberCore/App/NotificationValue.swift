/// A value of a notification's user info (SPEC R24): one of the types a C host can pass.
public enum NotificationValue: Equatable, Sendable {
    case bool(Bool)
    case int64(Int64)
    case double(Double)
    case string(String)
    case bytes([UInt8])

    /// The type's name, for messages: "bool", "int64", "double", "string", "bytes".
    public var typeName: String {
        switch self {
        case .bool: "bool"
        case .int64: "int64"
        case .double: "double"
        case .string: "string"
        case .bytes: "bytes"
        }
    }
}
