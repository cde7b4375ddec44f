import AmberArchive

/// The coder a migrate callback writes the migrated state into (SPEC R30): the current
/// version's values of one record, which its object's lookup and decode callbacks then read
/// in place of the archived ones.
///
/// The same rules as `StateCoder` (reserved keys and keys written twice throw; valid only during
/// the callback), except that it cannot record references to restorable objects (SPEC R4):
/// those are made at preservation, and a migration runs before the objects exist.
public final class MigrationCoder: KeyedStateCoder {
    init(archiver: KeyedArchiver, session: RestoreSession, record: Int, limits: ArchiveLimits) {
        super.init(core: EncoderCore(
            archiver: archiver, owner: .migrating(session, record), limits: limits,
            // The migrated state stays in memory: a key marked sensitive in it (SPEC R34) is
            // recorded, so that its decoder's loans are zeroed after the decode callback.
            sensitive: SensitiveValues(encrypts: true),
            references: { (_: RestorableObject) throws(AmberError) -> Int in
                throw AmberError(.invalidArgument, "a migrate callback cannot write a reference to a restorable object")
            }))
    }
}
