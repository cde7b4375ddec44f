import AmberArchive
import Testing
@testable import AmberCore

/// `ClassNameUIDs`: the UID it gives for a name is the archiver's own string UID for it, for
/// the names it keeps and for those beyond its capacity alike.
@Suite struct ClassNameUIDsTests {
    // R25
    @Test func givesTheArchiversStringUIDs() throws {
        let archiver = KeyedArchiver()
        var names = ClassNameUIDs()
        let all = (0 ..< ClassNameUIDs.capacity + 8).map { "Class\($0)" }
        for _ in 0 ..< 2 {
            for name in all {
                let uid = names.uid(name, in: archiver)
                #expect(uid == archiver.stringUID(name), "\(name)")
                #expect(archiver.string(uid: uid) == name)
            }
        }
        // Equal names with different storage get the same UID.
        let built = String(["Cl", "ass3"].joined())
        #expect(names.uid(built, in: archiver) == names.uid("Class3", in: archiver))
    }
}
