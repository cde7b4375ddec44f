/// The version of the state a class writes (SPEC R30), declared with
/// `Engine.registerStateVersion(className:version:migrate:)`: every record of an object of the
/// class is preserved with it, and a record of an older version is given to `migrate` at
/// restoration.
public struct StateVersion {
    /// Turns the state of an older version into the current one: reads `old` (the record's
    /// state as archived) and writes the current version's values into `new`, which the object's
    /// lookup and decode callbacks then read instead. Returns false to decline: the record and
    /// everything under it are then not restored, as for a restoration class that gives none.
    /// What it throws makes the record a decode error.
    public typealias Migrate = (_ new: MigrationCoder, _ old: StateDecoder, _ from: Int, _ to: Int) throws -> Bool

    /// The class the version is declared for: records archived with this class name.
    public var className: String
    /// The current version, 1 or more. A record without a version is of version 1.
    public var version: Int
    /// The migration of older records; nil: older records are declined.
    public var migrate: Migrate?

    /// Creates a declaration.
    public init(className: String, version: Int, migrate: Migrate?) {
        self.className = className
        self.version = version
        self.migrate = migrate
    }
}
