/// A key interned once, for code that writes and reads the same few keys for thousands of
/// objects (the engine's coders, the C API): the key's string, a fingerprint of it, and what the
/// key is in the last archive it was written to or read from.
///
/// Archives store each key's string once and refer to it from every object that uses the key,
/// so a key found once in an archive is then found by that reference alone:
/// - written (`KeyedArchiver.encode(_:forKey:)` with an `ArchiveKey`), it skips the archiver's
///   lookup of the key's string;
/// - read (`KeyedUnarchiver.field(forKey:)`), it compares references, not bytes, and looks first
///   where the key was in the object before (objects of one kind list their keys in one order).
///
/// What it remembers belongs to one archiver and one unarchiver at a time, told apart by their
/// `serial`, so a key used with another one simply finds itself again there. An `ArchiveKey` is
/// used by one thread at a time (it is not `Sendable`).
public final class ArchiveKey {
    /// The key.
    public let string: String
    /// `ArchiveKey.fingerprint(of: string)`.
    public let fingerprint: UInt64
    /// What the key's user found the key to be, worked out once and kept with it (0: nothing
    /// yet): the engine's coders keep here that host code may write the key
    /// (`EncoderCore.admit`), as an interned key is written for thousands of objects. The codec
    /// neither sets nor reads it.
    public var verdict: UInt8 = 0

    /// The archiver `writerRef` belongs to (0: none yet), and the object table reference of the
    /// key's string there.
    private var writerSerial: UInt64 = 0
    private var writerRef: Int32 = -1

    /// The unarchiver the reader fields belong to (0: none yet), the object table reference of
    /// the key's string there, and the key's position in the last object it was found in.
    private var readerSerial: UInt64 = 0
    private var readerRef = -1
    private var readerPosition = 0

    /// The key `string`.
    public init(_ string: String) {
        self.string = string
        fingerprint = Self.fingerprint(of: string)
    }

    /// A hash of the key's UTF-8 bytes (FNV-1a): equal keys have equal fingerprints, and most
    /// different keys different ones.
    public static func fingerprint(of key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// The key's string reference in `archiver`: looked up the first time, then remembered.
    @inline(__always)
    func ref(in archiver: KeyedArchiver) -> Int32 {
        if writerSerial == archiver.serial { return writerRef }
        writerRef = archiver.state.w.keyRef(string)
        writerSerial = archiver.serial
        return writerRef
    }

    /// Where the key was last found in `unarchiver` (its string's reference and its position in
    /// the object), if it was found there.
    @inline(__always)
    func lastFound(in unarchiver: KeyedUnarchiver) -> (ref: Int, position: Int)? {
        readerSerial == unarchiver.serial ? (readerRef, readerPosition) : nil
    }

    /// Remembers where the key was found in `unarchiver`.
    @inline(__always)
    func found(in unarchiver: KeyedUnarchiver, ref: Int, position: Int) {
        readerSerial = unarchiver.serial
        readerRef = ref
        readerPosition = position
    }
}
