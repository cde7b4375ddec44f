import AmberArchive
@testable import AmberCore
import Testing

/// `WrittenKeys`, the coder's memory of the keys it wrote (SPEC R5: a key is written once).
@Suite struct WrittenKeysTests {
    @Test func aKeyIsAdmittedOnceInTheListAndInTheSet() {
        var keys = WrittenKeys()
        for n in [3, 8, 9, 40] {  // below, at and past the list's eight
            keys.removeAll()
            let names = (0 ..< n).map { "key\($0)" }
            for name in names {
                let new = keys.insert(name, fingerprint: ArchiveKey.fingerprint(of: name))
                #expect(new, "R5 \(name) of \(n) is new")
            }
            for name in names {
                #expect(keys.contains(name, fingerprint: ArchiveKey.fingerprint(of: name)))
                let again = keys.insert(name, fingerprint: ArchiveKey.fingerprint(of: name))
                #expect(!again, "R5 \(name) of \(n) is written twice")
            }
            #expect(!keys.contains("other", fingerprint: ArchiveKey.fingerprint(of: "other")))
        }
    }

    @Test func equalFingerprintsAreComparedByTheKey() {
        var keys = WrittenKeys()
        let a = keys.insert("a", fingerprint: 7)
        let b = keys.insert("b", fingerprint: 7)
        let aAgain = keys.insert("a", fingerprint: 7)
        #expect(a && b, "R5 a different key with the same fingerprint is new")
        #expect(!aAgain)
    }

    @Test func removeAllForgetsEveryKey() {
        var keys = WrittenKeys()
        for i in 0 ..< 12 { _ = keys.insert("k\(i)", fingerprint: UInt64(i)) }
        keys.removeAll()
        #expect(!keys.contains("k0", fingerprint: 0))
        let inserted = keys.insert("k0", fingerprint: 0)
        #expect(inserted)
    }
}
