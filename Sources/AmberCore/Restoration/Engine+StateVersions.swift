extension Engine {
    /// Declares the version of the state that objects of class `className` write (SPEC R30).
    /// From now on their records are preserved with this version; at restoration a record of
    /// that class name with an older version goes to `migrate` before its object is looked up,
    /// and a record with a newer version than `version` is declined (`declinedVersion`), it and
    /// everything under it, as by a restoration class that gives none. A record written without
    /// a version (before any was declared, or by Amber 0.2) is of version 1.
    ///
    /// The declaration is by class name, so it covers objects made by a restoration class, given
    /// by the delegate, found by implicit lookup or made by a blueprint factory alike. Backs
    /// `amber_engine_register_state_version`.
    /// - Throws: `.invalidArgument` for an empty class name or a version below 1; `.duplicate`
    ///   if the class has a version already.
    public func registerStateVersion(className: String, version: Int, migrate: StateVersion.Migrate?) throws(AmberError) {
        guard !className.isEmpty else { throw AmberError(.invalidArgument, "the class name is empty") }
        guard version >= 1, version <= Int(UInt32.max) else {
            throw AmberError(.invalidArgument, "the state version of class \(className) is \(version); a version is 1 or more")
        }
        if let existing = stateVersions[className] {
            throw AmberError(.duplicate, "class \(className) has a state version already (\(existing.version))")
        }
        stateVersions[className] = StateVersion(className: className, version: version, migrate: migrate)
    }

    /// The state version declared for class `className`: 1 if none was.
    public func stateVersion(ofClass className: String) -> Int {
        stateVersions[className]?.version ?? 1
    }
}
