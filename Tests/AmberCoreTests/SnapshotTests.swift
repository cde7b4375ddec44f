import AmberArchive
@testable import AmberCore
import Testing

@Suite struct SnapshotTests {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 13, 10, 26, 10, 1, 2, 3]

    func savedEngine(_ store: MemoryStore) throws -> Engine {
        let engine = makeEngine(store)
        try engine.addRoot(controller("root"))
        return engine
    }

    // R21
    @Test func theSnapshotTravelsWithTheArchive() throws {
        let store = MemoryStore()
        let engine = try savedEngine(store)
        try engine.attachSnapshot(png)
        #expect(engine.hasAttachedSnapshot)
        try engine.preserve()
        #expect(!engine.hasAttachedSnapshot)  // it belonged to that archive
        #expect(store.bytes.map { contains($0, png) } == true)

        let next = makeEngine(store)
        #expect(try next.archivedSnapshot() == ArchivedSnapshot(bytes: png, isIgnored: false))
        var during: ArchivedSnapshot??
        next.delegate.shouldRestore = { _ in
            during = try? next.archivedSnapshot()
            return true
        }
        _ = next.restore()
        #expect(during == .some(ArchivedSnapshot(bytes: png, isIgnored: false)))
        #expect(try next.archivedSnapshot() == nil)  // discarded with the archive (R14)
    }

    // R21
    @Test func aLaterArchiveCarriesNoSnapshotUnlessAttached() throws {
        let store = MemoryStore()
        let engine = try savedEngine(store)
        try engine.attachSnapshot(png)
        try engine.preserve()
        try engine.preserve()
        #expect(try engine.archivedSnapshot() == ArchivedSnapshot(bytes: nil, isIgnored: false))
        try engine.attachSnapshot(png)
        try engine.attachSnapshot(nil)
        try engine.preserve()
        #expect(try engine.archivedSnapshot()?.bytes == nil)
    }

    // R21
    @Test func ignoringIsHonouredAndLeavesTheBytesOut() throws {
        let store = MemoryStore()
        let engine = try savedEngine(store)
        try engine.attachSnapshot(png)
        engine.delegate.willEncode = { _ in engine.ignoreSnapshotOnNextLaunch() }
        try engine.preserve()
        #expect(store.bytes.map { contains($0, png) } == false)
        #expect(try engine.archivedSnapshot() == ArchivedSnapshot(bytes: nil, isIgnored: true))
        // The request was for that archive only.
        engine.delegate.willEncode = nil
        try engine.attachSnapshot(png)
        try engine.preserve()
        #expect(try engine.archivedSnapshot() == ArchivedSnapshot(bytes: png, isIgnored: false))
    }

    // R21
    @Test func aDeclinedSaveKeepsTheSnapshotForTheNextOne() throws {
        let store = MemoryStore()
        let engine = try savedEngine(store)
        try engine.attachSnapshot(png)
        engine.delegate.shouldSave = { _ in false }
        try engine.preserve()
        #expect(engine.hasAttachedSnapshot && store.bytes == nil)
    }

    // R21 R14
    @Test func discardingTheArchiveDiscardsTheSnapshot() throws {
        let store = MemoryStore()
        let engine = try savedEngine(store)
        try engine.attachSnapshot(png)
        try engine.preserve()
        try engine.discardArchive()
        #expect(try engine.archivedSnapshot() == nil)
    }

    // R21 R22
    @Test func oversizedSnapshotsAreRefused() throws {
        let engine = Engine(configuration: EngineConfiguration(
            appID: "t", store: MemoryStore(),
            limits: ArchiveLimitsForTests.small))
        do {
            try engine.attachSnapshot([UInt8](repeating: 0, count: 65))
            Issue.record("an oversized snapshot was attached")
        } catch {
            #expect(error.code == .limitExceeded)
        }
        #expect(!engine.hasAttachedSnapshot)
    }

    // R21: the one size check, which the C layer calls with the host's buffer
    @Test func aBufferIsCheckedBeforeItIsCopied() throws {
        let engine = Engine(configuration: EngineConfiguration(
            appID: "t", store: MemoryStore(),
            limits: ArchiveLimitsForTests.small))
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 65, alignment: 1)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 7)
        #expect(throws: AmberError.self) { try engine.attachSnapshot(copying: UnsafeRawBufferPointer(bytes)) }
        #expect(!engine.hasAttachedSnapshot)
        try engine.attachSnapshot(copying: UnsafeRawBufferPointer(rebasing: bytes[0 ..< 64]))
        #expect(engine.hasAttachedSnapshot)
    }
}

enum ArchiveLimitsForTests {
    static var small: AmberArchive.ArchiveLimits {
        var l = AmberArchive.ArchiveLimits.default
        l.maxValueLength = 64
        return l
    }
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    for i in 0 ... haystack.count - needle.count where haystack[i ..< i + needle.count].elementsEqual(needle) { return true }
    return false
}
