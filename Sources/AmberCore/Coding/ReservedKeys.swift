/// The keys that belong to the engine and that host code cannot write (SPEC R7).
///
/// Every coder (each object's `StateCoder` and the application's `AppCoder`) refuses them with
/// `AmberError(.reservedKey)` rather than overwriting anything:
/// - the application metadata the engine records beside what the host writes (SPEC R8):
///   `bundleVersion`, `interfaceIdiom`, `timestamp`, `systemVersion`;
/// - `blueprint`, `restorationClass`, `restorationPath`, `className` and `kind`, which name
///   what the engine records for each object;
/// - UIKit's names for the same things (`UIApplicationStateRestorationBundleVersion`,
///   `UIApplicationStateRestorationUserInterfaceIdiom`, `UIApplicationStateRestorationTimestamp`,
///   `UIApplicationStateRestorationSystemVersion`, each also with `Key` appended as UIKit's
///   constants are named, `UIStateRestorationViewControllerStoryboardKey`), so that code ported
///   from UIKit cannot shadow them; the metadata is recorded under the `…Key` names too
///   (`ArchiveLayout.uikitMetadata`);
/// - every key beginning with `amber.` (the engine's own namespace, kept for later use).
public enum ReservedKeys {
    /// The reserved keys, the `amber.` prefix aside.
    public static let names: Set<String> = [
        "bundleVersion", "interfaceIdiom", "timestamp", "systemVersion",
        "blueprint", "restorationClass", "restorationPath", "className", "kind",
        "UIApplicationStateRestorationBundleVersion", "UIApplicationStateRestorationUserInterfaceIdiom",
        "UIApplicationStateRestorationTimestamp", "UIApplicationStateRestorationSystemVersion",
        "UIApplicationStateRestorationBundleVersionKey", "UIApplicationStateRestorationUserInterfaceIdiomKey",
        "UIApplicationStateRestorationTimestampKey", "UIApplicationStateRestorationSystemVersionKey",
        "UIStateRestorationViewControllerStoryboardKey",
    ]
    /// Every key with this prefix is reserved.
    public static let prefix = "amber."

    /// For each first byte, a bit per length (63: 63 bytes or more) of the names: most keys
    /// differ from every name in their first byte or length, which decides without hashing.
    private static let shapes: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 256)
        for name in names {
            guard let first = name.utf8.first else { continue }
            table[Int(first)] |= 1 << UInt64(min(name.utf8.count, 63))
        }
        return table
    }()

    /// Whether host code is refused the key.
    @inline(__always)
    public static func contains(_ key: String) -> Bool {
        guard let first = key.utf8.first else { return false }
        if first == UInt8(ascii: "a") { return key.hasPrefix(prefix) || names.contains(key) }
        guard shapes[Int(first)] & (1 << UInt64(min(key.utf8.count, 63))) != 0 else { return false }
        for name in byFirstByte[Int(first)] where name == key { return true }
        return false
    }

    /// The names by their first byte: a key of a name's shape is compared with the few names
    /// beginning like it rather than hashed.
    private static let byFirstByte: [[String]] = {
        var table = [[String]](repeating: [], count: 256)
        for name in names {
            guard let first = name.utf8.first else { continue }
            table[Int(first)].append(name)
        }
        return table
    }()
}
