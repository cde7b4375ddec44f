/// The layout of a restoration archive inside the NSKeyedArchiver layout (one keyed archive for
/// the whole state):
///
/// ```text
/// $top = {
///   amber.format: 3,              (1 and 2: written by earlier releases, still read)
///   app: AmberAppState { bundleVersion, interfaceIdiom, timestamp (NSDate), systemVersion,
///                        amber.appID (the saving application's id; absent before 0.3),
///                        the same four under UIKit's names (UIApplicationStateRestoration…Key),
///                        …the keys should-save and will-encode wrote },
///   objects: NSArray of AmberObjectRecord {
///     class: NSString,            the object's class name
///     kind: int,                  ObjectKind (1 view, 2 plain object); absent: 0, a
///                                 controller (format 1: always present)
///     id: NSString,               its restoration identifier
///     position: int,              in a stack, k ≥ 1 for the k-th later child with the same id
///                                 (absent: 0); the identifier itself is never rewritten
///                                 (formats 1 and 2 spelled the path component `id#k`)
///     parent: int,                the index in `objects` of the record it hangs from (always
///                                 lower than its own); absent when not recorded
///     relation: int,              ObjectRelation (0 none, 1 child, 2 presented, 3 view,
///                                 4 plain object); absent: 1 (child) for a record with a
///                                 parent, 0 (none) for one without (format 1: always present)
///     path: NSArray of NSString,  the whole restoration path (identifiers), only for records
///                                 without parent
///     pathPositions: NSArray of int, the stack position of each of `path`, only when one is
///                                 not 0
///     ancestor: int,              for a record without parent, the index of the record of its
///                                 nearest recorded ancestor (an object recorded by reference
///                                 whose parent is not recorded, SPEC R4): it is under that
///                                 record at restoration (SPEC R10)
///     omitted: true,              its encode callback, or one above it, failed: the state is
///                                 empty and the record is not looked up (SPEC R28)
///     overBudget: int,            beside `omitted`, when the record was left out for taking more
///                                 than the budget per object (SPEC R31): the bytes it took
///     root: true,                 only for the roots the walk started from
///     amber.version: int,         the version of its state (SPEC R30), when its class declares
///                                 one above 1; absent: 1 (so every archive of Amber 0.2 is
///                                 version 1)
///     restorationClass: NSString, blueprint: NSString   (when the object has them)
///     state: AmberState { …what the object's encode callback wrote }
///   }
///   amber.snapshot: NSData,       the snapshot attached at preservation (SPEC R21), if any
///   amber.snapshotIgnored: true,  when the host asked to ignore it at the next launch (the
///                                 bytes are then left out)
/// }
/// ```
///
/// A view's record's state also holds its standard state under `amber.view.*` keys
/// (`ViewStateArchive`, SPEC R17, R18).
///
/// A record's path is its parent's path followed by its own component, so each record stores
/// one identifier, not its whole path. A reference (SPEC R4) is an `AmberReference { index }`
/// object naming a record. Records are in walk order: each parent before its children.
enum ArchiveLayout {
    static let formatKey = "amber.format"
    /// The format written. Format 2 leaves out a record's kind and relation when they are the
    /// usual ones (a controller; a child of its parent, or none without a parent): two entries
    /// fewer in most records, to write and to read.
    /// Format 3 keeps identifiers as set (a stack position beside the path, never in it) and
    /// adds `pathPositions`, `ancestor` and `omitted`.
    static let formatVersion: Int64 = 3
    /// The formats read.
    static let readableFormats: ClosedRange<Int64> = 1 ... 3

    /// The kind a format 2 record without one has.
    static let usualKind = ObjectKind.controller
    /// The relation a format 2 record without one has.
    @inline(__always)
    static func usualRelation(hasParent: Bool) -> ObjectRelation { hasParent ? .child : .none }

    static let appKey = "app"
    static let appClass = "AmberAppState"
    static let bundleVersion = "bundleVersion"
    static let interfaceIdiom = "interfaceIdiom"
    static let timestamp = "timestamp"
    static let systemVersion = "systemVersion"
    /// The id of the application that saved the archive (`EngineConfiguration.appID`): an
    /// engine restores only its own application's archives (SPEC R9). In the engine's reserved
    /// `amber.` namespace, so no host key can forge or shadow it; absent from archives of 0.2
    /// and earlier, which any application reads as before.
    static let applicationID = "amber.appID"
    /// The same metadata under the names of UIKit's constants, recorded beside Amber's so that
    /// code ported from UIKit reads it as it did there (SPEC R8).
    static let uikitBundleVersion = "UIApplicationStateRestorationBundleVersionKey"
    static let uikitInterfaceIdiom = "UIApplicationStateRestorationUserInterfaceIdiomKey"
    static let uikitTimestamp = "UIApplicationStateRestorationTimestampKey"
    static let uikitSystemVersion = "UIApplicationStateRestorationSystemVersionKey"

    static let objectsKey = "objects"
    static let recordClass = "AmberObjectRecord"
    static let className = "class"
    static let kind = "kind"
    static let identifier = "id"
    static let position = "position"
    static let parent = "parent"
    static let relation = "relation"
    static let path = "path"
    static let pathPositions = "pathPositions"
    static let ancestor = "ancestor"
    static let omitted = "omitted"
    static let overBudget = "overBudget"
    static let version = "amber.version"
    static let root = "root"
    static let restorationClass = "restorationClass"
    static let blueprint = "blueprint"
    static let state = "state"
    static let stateClass = "AmberState"

    static let referenceClass = "AmberReference"
    static let referenceIndex = "index"
}
