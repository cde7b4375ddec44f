import Testing
@testable import AmberArchive

/// `HeldKeys` and `KeyedArchiver.holdsKey`: whether the object being written holds a key
/// already, which the engine's coders refuse to write twice (SPEC R6).
@Suite struct HeldKeysTests {
    /// Writes `keys` into an object as a writer does, asking before each whether it is held.
    private func fill(_ held: inout HeldKeys, _ pairs: inout [Int32], start: Int, object: Int, keys: Range<Int32>) {
        for key in keys {
            let found = held.contains(key, in: pairs, start: start, object: object)
            #expect(!found, "R6 key \(key) is new")
            pairs.append(key)
            pairs.append(-key)  // a value reference equal to no key
        }
    }

    @Test func keysAreFoundBelowAtAndPastTheLinearLimit() {
        let limit = Int32(HeldKeys.linearLimit)
        for n in [3, limit, limit + 1, 4 * limit] {
            var held = HeldKeys()
            var pairs: [Int32] = []
            fill(&held, &pairs, start: 0, object: Int(n), keys: 1 ..< n + 1)
            for key in 1 ... n {
                let found = held.contains(key, in: pairs, start: 0, object: Int(n))
                #expect(found, "R6 key \(key) of \(n) is held")
            }
            let other = held.contains(n + 1, in: pairs, start: 0, object: Int(n))
            let value = held.contains(-1, in: pairs, start: 0, object: Int(n))
            #expect(!other)
            #expect(!value, "a value is not a key")
        }
    }

    @Test func anInnerObjectHoldsOnlyItsOwnKeys() {
        let many = Int32(2 * HeldKeys.linearLimit)
        var held = HeldKeys()
        var pairs: [Int32] = []
        fill(&held, &pairs, start: 0, object: 1, keys: 1 ..< many)
        let innerStart = pairs.count
        let outerKeyInInner = held.contains(1, in: pairs, start: innerStart, object: 2)
        #expect(!outerKeyInInner, "R6 the outer object's key is free in the inner one")
        fill(&held, &pairs, start: innerStart, object: 2, keys: 1 ..< many)
        let innerKey = held.contains(many - 1, in: pairs, start: innerStart, object: 2)
        #expect(innerKey)
        // The inner object closed: the outer one's keys are found again, and only they.
        pairs.removeSubrange(innerStart...)
        let outerKey = held.contains(many - 1, in: pairs, start: 0, object: 1)
        let other = held.contains(many, in: pairs, start: 0, object: 1)
        #expect(outerKey)
        #expect(!other)
    }

    @Test func keysTakenBackAreFreeAfterAReset() {
        var held = HeldKeys()
        var pairs: [Int32] = []
        let many = Int32(3 * HeldKeys.linearLimit)
        fill(&held, &pairs, start: 0, object: 1, keys: 1 ..< many)
        pairs.removeSubrange(2...)  // all but the first key taken back
        held.reset()
        let kept = held.contains(1, in: pairs, start: 0, object: 1)
        let takenBack = held.contains(many - 1, in: pairs, start: 0, object: 1)
        #expect(kept)
        #expect(!takenBack, "R6 a key taken back can be written again")
    }

    @Test func theArchiverAnswersForTheInnermostOpenObject() throws {
        let a = KeyedArchiver()
        let k = ArchiveKey("k")
        a.encode(Int64(1), forKey: "k")
        #expect(a.holdsKey(k) && a.holdsKey("k"))
        #expect(!a.holdsKey("other"))
        a.encodeObject(forKey: "state", className: "AmberState") { s in
            #expect(!s.holdsKey(k), "R6 a key of the enclosing object is free in a new one")
            let checkpoint = s.checkpoint()
            for i in 0 ... HeldKeys.linearLimit { s.encode(Int64(i), forKey: "key\(i)") }
            s.encode(true, forKey: k)
            #expect(s.holdsKey("key0") && s.holdsKey(k))
            #expect(s.rollBack(to: checkpoint))
            #expect(!s.holdsKey("key0") && !s.holdsKey(k), "R6 keys taken back are free")
            // A key beginning with `$` is escaped in the archive: not `$class`, which every object holds.
            #expect(!s.holdsKey("$class"))
        }
        #expect(a.holdsKey("state") && a.holdsKey(k))
        _ = try a.finishEncoding()
    }
}
