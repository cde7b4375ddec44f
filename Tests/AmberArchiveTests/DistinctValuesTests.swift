import Testing
@testable import AmberArchive

/// What decoding values makes of an object the archive refers to many times (SPEC R22, issue 42:
/// memory bounded by the archive's objects): `decodeDistinctValues(forKey:maxCount:)` reads an
/// array as a set of the objects it refers to, and a long string met again shares its storage.
@Suite struct DistinctValuesTests {
    private func unarchiver(_ fill: (KeyedArchiver) -> Void) throws -> KeyedUnarchiver {
        let a = KeyedArchiver()
        fill(a)
        return try KeyedUnarchiver(bytes: try a.finishEncoding())
    }

    // R22
    @Test func manyReferencesToOneObjectDecodeToOneValue() throws {
        let n = 100_000
        let u = try unarchiver { $0.encode(.array([ArchiveValue](repeating: .string("item"), count: n)), forKey: "k") }
        // The archiver writes the string once: the array is n references to one object.
        #expect(u.archive.objectRefs.count < 10)
        guard case .array(let all) = try u.decodeValue(forKey: "k") else { Issue.record("not an array"); return }
        #expect(all.count == n)
        #expect(try u.decodeDistinctValues(forKey: "k", maxCount: n) == [.string("item")])
    }

    // R22
    @Test func eachObjectOnceInTheOrderFirstReferredTo() throws {
        let u = try unarchiver {
            // Strings are written once each (index paths are not: each is its own object).
            $0.encode(.array([.string("b"), .indexPath([1, 2]), .string("b"), .string("a"), .indexPath([3]), .string("a")]),
                      forKey: "k")
        }
        #expect(try u.decodeDistinctValues(forKey: "k", maxCount: 6) == [.string("b"), .indexPath([1, 2]), .string("a"), .indexPath([3])])
    }

    // R22
    @Test func overTheCountOrNotAnArrayIsRefused() throws {
        let u = try unarchiver {
            $0.encode(.array([.string("a"), .string("a"), .string("a")]), forKey: "k")
            $0.encode("text", forKey: "s")
        }
        expectRejected(.limitExceeded, "3 references, at most 2") { _ = try u.decodeDistinctValues(forKey: "k", maxCount: 2) }
        #expect(try u.decodeDistinctValues(forKey: "k", maxCount: 3) == [.string("a")])
        expectRejected(.typeMismatch, "a string") { _ = try u.decodeDistinctValues(forKey: "s", maxCount: 3) }
        expectRejected(.keyNotFound, "no such key") { _ = try u.decodeDistinctValues(forKey: "none", maxCount: 3) }
    }

    // R22
    @Test func aLongStringMetAgainSharesItsStorage() throws {
        let url = "https://example.org/" + String(repeating: "a", count: 1000)
        let u = try unarchiver {
            $0.encode(.array((0 ..< 3).map { _ in .dictionary(["url": .string(url), "x": .double(0)]) } + [.string("short")]),
                      forKey: "k")
        }
        guard case .array(let pages) = try u.decodeValue(forKey: "k") else { Issue.record("not an array"); return }
        let storages = pages.prefix(3).map { page -> UnsafeRawPointer? in
            guard case .string(let s)? = page["url"] else { return nil }
            #expect(s == url)
            return s.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
        }
        // The first meeting decodes it; the second keeps it; from then on it is shared.
        #expect(storages[1] != nil && storages[1] == storages[2])
        #expect(pages[3] == .string("short"))
    }
}
