import AmberArchive

/// The application-level coder at preservation (SPEC R5, R8): what the delegate's should-save
/// and will-encode callbacks write, beside the metadata the engine records (bundle version,
/// interface idiom, timestamp, system version), all readable at the next launch by
/// should-restore through `AppDecoder`.
///
/// The same rules as `StateCoder`: reserved keys (`ReservedKeys`) and keys written twice throw,
/// and the coder is valid only during the callback it was given to. References to restorable
/// objects (SPEC R4) are recorded by `references`, which walks the trees first if they have not
/// been walked yet.
public final class AppCoder: KeyedStateCoder {
    init(
        archiver: KeyedArchiver, limits: ArchiveLimits, sensitive: SensitiveValues,
        references: @escaping (RestorableObject) throws(AmberError) -> Int
    ) {
        super.init(core: EncoderCore(
            archiver: archiver, owner: .application, limits: limits, sensitive: sensitive, references: references))
    }
}
