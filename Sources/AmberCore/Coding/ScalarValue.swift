import AmberArchive

/// A boolean, integer or double, as the coders' one path for the three writes takes it
/// (`KeyedStateCoder.encode(scalar:forKey:)`).
package enum ScalarValue {
    case bool(Bool)
    case int(Int64)
    case double(Double)

    /// The value as the archive's values are given.
    var archiveValue: ArchiveValue {
        switch self {
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        }
    }
}
