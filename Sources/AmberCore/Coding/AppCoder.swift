import AmberArchive

/// The application-level coder at preservation (SPEC R5, R8): what the delegate's should-save
/// and will-encode callbacks write, beside the metadata the engine records (bundle version,
/// interface idiom, timestamp, system version), all readable at the next launch by
/// should-restore through `AppDecoder`.
///
/// The same rules as `StateCoder`: reserved keys (`ReservedKeys`) and keys written twice throw,
/// and the coder is valid only during the callback it was given to.
public final class AppCoder: KeyedStateCoder {
    init(archiver: KeyedArchiver) {
        super.init(core: EncoderCore(archiver: archiver, owner: .application))
    }
}
