import AmberArchive

/// A restoration archive read for inspection (`amber inspect`): its records as the engine reads
/// them at restoration (`RestoreSession`: every record checked, the archive rejected whole if one
/// is damaged), each with its restoration path; the application state's metadata; the snapshot.
/// Nothing is restored and no host code runs: the states are left in `unarchiver`, to be read by
/// UID with `KeyedUnarchiver.withObject(uid:_:)`.
public final class RestorationArchive {
    /// One archived object, in archive order (each parent before its children).
    public struct Record: Sendable {
        /// Its restoration path, from the root: the identifiers as set.
        public let path: [String]
        /// Its restoration path with each component's stack position (SPEC R3).
        public let components: [PathComponent]
        /// For a record without parent, the index of the record it is under (its nearest
        /// recorded ancestor, SPEC R4, R10), or nil.
        public let ancestor: Int?
        /// Whether its state was left out at preservation (its encode callback, or one above it,
        /// failed; SPEC R28).
        public let isOmitted: Bool
        /// Its class name.
        public let className: String
        /// Controller, view or plain object.
        public let kind: ObjectKind
        /// How it hangs from its parent.
        public let relation: ObjectRelation
        /// The index of the record it hangs from, or nil.
        public let parent: Int?
        /// Whether the preservation walk started from it.
        public let isRoot: Bool
        /// The restoration class that makes it at restoration, if it names one (SPEC R10).
        public let restorationClassName: String?
        /// The blueprint that makes it, if it names one (SPEC R10).
        public let blueprintIdentifier: String?
        /// The version of its state (SPEC R30): 1 when the record carries none.
        public let stateVersion: Int
        /// The UID of its state object (`AmberState`: what its encode callback wrote, and a
        /// view's standard state under `amber.view.*` keys).
        public let stateUID: Int
    }

    /// The class of a reference to a restorable object (SPEC R4) inside a state, and its one key:
    /// the index of the record it names.
    public static let referenceClassName = ArchiveLayout.referenceClass
    public static let referenceIndexKey = ArchiveLayout.referenceIndex
    /// The keys of the application state that the engine writes (SPEC R8), in this order; the
    /// application state's other keys are the host's.
    public static let metadataKeys = [
        ArchiveLayout.bundleVersion, ArchiveLayout.interfaceIdiom, ArchiveLayout.timestamp, ArchiveLayout.systemVersion,
        ArchiveLayout.uikitBundleVersion, ArchiveLayout.uikitInterfaceIdiom, ArchiveLayout.uikitTimestamp,
        ArchiveLayout.uikitSystemVersion, ArchiveLayout.applicationID,
    ]

    /// The archive, to read the states and the application state with.
    public let unarchiver: KeyedUnarchiver
    /// The archived objects, in archive order.
    public let records: [Record]
    /// The UID of each record's own object (`AmberObjectRecord`), in archive order: what
    /// `KeyedArchive.byteSize(ofUID:)` measures a record from.
    public let recordUIDs: [Int]
    /// The layout's format (`amber.format`).
    public let formatVersion: Int64
    /// The UID of the application state (`AmberAppState`).
    public let appUID: Int
    /// The metadata the engine recorded (SPEC R8), as `AppDecoder` reads it; nil when absent.
    public let bundleVersion: String?
    public let interfaceIdiom: String?
    /// When it was saved, in seconds since 2001-01-01T00:00:00Z.
    public let timestamp: Double?
    public let systemVersion: String?
    /// The id of the application that saved it; nil in an archive of 0.2 or earlier.
    public let applicationID: String?
    /// The snapshot the archive carries (SPEC R21); the bytes are nil when it is ignored.
    public let snapshot: ArchivedSnapshot

    /// Reads a restoration archive (the plain archive, out of its envelope).
    /// - Throws: `.corrupt` (or `.limitExceeded`) naming what is wrong, as restoration would.
    public init(bytes: [UInt8], limits: ArchiveLimits = .default) throws(AmberError) {
        let session: RestoreSession
        do {
            session = try RestoreSession(bytes: bytes, limits: limits, registry: ArchiveClassRegistry())
        } catch {
            // A keyed archive of another kind is named as such, not by the first key it lacks.
            if let u = try? KeyedUnarchiver(bytes: bytes, limits: limits), !u.containsValue(forKey: ArchiveLayout.formatKey) {
                throw AmberError(.corrupt, "not a restoration archive: a keyed archive without \(ArchiveLayout.formatKey) at its top level")
            }
            throw error
        }
        unarchiver = session.unarchiver
        records = session.records.indices.map { i in
            let r = session.records[i]
            let components = session.paths.components(i)
            return Record(
                path: components.map(\.identifier), components: components, ancestor: r.ancestor >= 0 ? r.ancestor : nil,
                isOmitted: r.isOmitted, className: r.className, kind: r.kind, relation: r.relation,
                parent: r.parent >= 0 ? r.parent : nil, isRoot: r.isRoot, restorationClassName: r.restorationClassName,
                blueprintIdentifier: r.blueprintIdentifier, stateVersion: r.version, stateUID: r.stateUID)
        }
        do {
            recordUIDs = try session.unarchiver.decodeObjectUIDs(forKey: ArchiveLayout.objectsKey)
        } catch {
            throw AmberError(error)
        }
        formatVersion = session.format
        appUID = session.app.core.uid
        bundleVersion = session.app.bundleVersion
        interfaceIdiom = session.app.interfaceIdiom
        timestamp = session.app.timestamp
        systemVersion = session.app.systemVersion
        applicationID = session.app.applicationID
        snapshot = try ArchivedSnapshot(reading: session.unarchiver)
    }
}
