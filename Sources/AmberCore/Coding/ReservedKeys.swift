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
///   `UIApplicationStateRestorationSystemVersion`, `UIStateRestorationViewControllerStoryboardKey`),
///   so that code ported from UIKit cannot shadow them;
/// - every key beginning with `amber.` (the engine's own namespace, kept for later use).
public enum ReservedKeys {
    /// The reserved keys, the `amber.` prefix aside.
    public static let names: Set<String> = [
        "bundleVersion", "interfaceIdiom", "timestamp", "systemVersion",
        "blueprint", "restorationClass", "restorationPath", "className", "kind",
        "UIApplicationStateRestorationBundleVersion", "UIApplicationStateRestorationUserInterfaceIdiom",
        "UIApplicationStateRestorationTimestamp", "UIApplicationStateRestorationSystemVersion",
        "UIStateRestorationViewControllerStoryboardKey",
    ]
    /// Every key with this prefix is reserved.
    public static let prefix = "amber."

    /// Whether host code is refused the key.
    @inline(__always)
    public static func contains(_ key: String) -> Bool {
        // Most keys start with a letter no reserved key starts with: one byte decides.
        switch key.utf8.first {
        case UInt8(ascii: "a"): return key.hasPrefix(prefix)
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "t"), UInt8(ascii: "s"),
             UInt8(ascii: "r"), UInt8(ascii: "c"), UInt8(ascii: "k"), UInt8(ascii: "U"):
            return names.contains(key)
        default: return false
        }
    }
}
