import AmberArchive

/// A coder key checked once for what `EncoderCore.admit` asks of every key written under it:
/// whether it is reserved (`ReservedKeys`), and a fingerprint that tells most different keys
/// apart without comparing them. For hosts that write the same few keys for every object (the
/// C layer keeps one per key it has seen): admitting it repeats neither the reserved-key
/// lookup nor a string comparison per key already written, and refuses exactly what its
/// string would be refused for.
///
/// It also keeps the key as prepared in the last archiver it was written to
/// (`KeyedArchiver.key(_:)`), so that a write under it skips the archiver's lookup of the key.
/// A class for that (not shared between threads: it is not `Sendable`).
public final class CoderKey {
    /// The key.
    public let string: String
    /// `ReservedKeys.contains(string)`.
    let isReserved: Bool
    /// `fingerprint(of: string)`.
    let fingerprint: UInt64
    /// The `serial` of the archiver `archiverKey` was prepared in (0: none yet).
    private var archiverSerial: UInt64 = 0
    private var archiverKey = KeyedArchiver.Key?.none

    /// The key `string`, checked.
    public init(_ string: String) {
        self.string = string
        isReserved = ReservedKeys.contains(string)
        fingerprint = Self.fingerprint(of: string)
    }

    /// The key prepared in `archiver`: made there the first time, then kept while the key is
    /// written to the same archiver.
    @inline(__always)
    func prepared(in archiver: KeyedArchiver) -> KeyedArchiver.Key {
        if archiverSerial == archiver.serial, let k = archiverKey { return k }
        let k = archiver.key(string)
        archiverSerial = archiver.serial
        archiverKey = k
        return k
    }

    /// A hash of the key's UTF-8 bytes (FNV-1a): equal keys have equal fingerprints.
    static func fingerprint(of key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}
