import Testing
@testable import AmberArchive

/// `KeyedArchiver.checkpoint()` and `rollBack(to:)`: what a host's failed encode wrote is taken
/// back and the rest of the archive is finished as if it had not been written.
@Suite struct CheckpointTests {
    @Test func entriesWrittenAfterACheckpointAreTakenBack() throws {
        let a = KeyedArchiver()
        a.encode("kept", forKey: "before")
        var stateUID = -1
        a.encodeObject(forKey: "state", className: "AmberState") { s in
            s.encode(Int64(1), forKey: "first")
            let checkpoint = s.checkpoint()
            s.encode("half-written", forKey: "second")
            s.encode(.array([.int(1), .string("x")]), forKey: "third")
            s.encode(date: 12.5, forKey: "fourth")
            #expect(s.rollBack(to: checkpoint))
            stateUID = s.state.w.open.last!.uid
        }
        a.encode(true, forKey: "after")
        let bytes = try a.finishEncoding()
        let u = try KeyedUnarchiver(bytes: bytes)
        #expect(try u.decodeString(forKey: "before") == "kept")
        #expect(try u.decodeBool(forKey: "after"))
        let keys = try u.withObject(uid: stateUID) { state, _ in state.allKeys() }
        #expect(keys == ["first"])
    }

    @Test func anObjectStillOpenOrAGraphObjectMetCannotBeTakenBack() throws {
        let registry = try graphRegistry()
        let a = KeyedArchiver(registry: registry)
        try a.encodeObject(forKey: "state", className: "AmberState") { s in
            let checkpoint = s.checkpoint()
            try s.encodeObject(GraphNode("n"), forKey: "node")
            #expect(!s.rollBack(to: checkpoint))
            let inner = s.checkpoint()
            _ = s.state.w.beginObject(className: "Open", classes: ["Open", "NSObject"])
            #expect(!s.rollBack(to: inner))
            s.state.w.endObject()
        }
        #expect(throws: Never.self) { _ = try a.finishEncoding() }
    }

    @Test func bytesWrittenGrowsWithWhatIsEncoded() {
        let a = KeyedArchiver()
        let start = a.bytesWritten
        a.encode(bytes: [UInt8](repeating: 1, count: 5000), forKey: "blob")
        #expect(a.bytesWritten - start >= 5000)
    }
}
