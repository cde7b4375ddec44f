import AmberArchive

/// The coder of one object at preservation (SPEC R6): what the object's encode callback writes
/// is its own nested state in the archive, so keys never collide between objects.
///
/// Every method throws rather than write something wrong: `.reservedKey` for the engine's keys
/// (`ReservedKeys`, SPEC R7), `.duplicate` for a key written twice in this coder, `.misuse` once
/// the callback the coder was given to has returned. A coder is valid only during its callback.
public final class StateCoder: KeyedStateCoder {
    let pass: PreservationPass
    /// The object whose state this coder holds. (Unchecked for exclusive access at run time:
    /// every access is a plain read or, by the engine between callbacks, a write.)
    public private(set) var object: RestorableObject

    init(archiver: KeyedArchiver, pass: PreservationPass, record: Int, object: RestorableObject) {
        self.pass = pass
        self.object = object
        super.init(core: EncoderCore(
            archiver: archiver, owner: .preserving(pass, record), limits: pass.limits, sensitive: pass.sensitive,
            references: pass.reference(to:)))
    }

    /// Points the coder at another record of the same pass, as if new: the engine reuses a
    /// coder that nothing else holds once its callback has returned.
    func reuse(record: Int, object: RestorableObject) {
        self.object = object
        core.reset(record: record)
    }
}
