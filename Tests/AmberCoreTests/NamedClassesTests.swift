import Testing
@testable import AmberCore

/// `NamedClasses`: a registered restoration class is looked up once per string object of the
/// archive that names it, and given as registered; a name not registered is looked up again, so
/// a class registered later is found.
@Suite struct NamedClassesTests {
    static func registered(_ names: [String], pathFromDecoder: Bool = false) -> [String: RestorationClass] {
        var classes: [String: RestorationClass] = [:]
        for name in names {
            var rc = RestorationClass(name: name, make: { _, _ in nil })
            rc.pathFromDecoder = pathFromDecoder
            classes[name] = rc
        }
        return classes
    }

    // R10
    @Test func givesEachRegisteredClassAsRegistered() {
        var named = NamedClasses()
        let classes = Self.registered(["A", "B"], pathFromDecoder: true)
        // UIDs 5 and 9: the string objects of the archive naming A and B.
        for (name, uid) in [("A", 5), ("B", 9), ("A", 5), ("B", 9)] {
            let n = named.named(name, archivedAs: uid, in: classes)
            #expect(n?.name == name)
            #expect(n?.make != nil)
            #expect(n?.pathFromDecoder == true)
            #expect(n?.madeBy == "made by restoration class \(name)")
        }
        // Once found, a class is kept: the table it came from is not asked again.
        #expect(named.named("A", archivedAs: 5, in: [:])?.name == "A")
        // A name in another string object is looked up by its name.
        #expect(named.named("A", archivedAs: 6, in: [:]) == nil)
        #expect(named.named("A", archivedAs: 6, in: classes) === named.named("A", archivedAs: 6, in: [:]))
    }

    // R10: past the list's limit the classes are kept in the table, each found again as kept.
    @Test func keepsEveryClassPastTheListsLimit() {
        var named = NamedClasses()
        let names = (0 ..< NamedClasses.listLimit * 3).map { "C\($0)" }
        let classes = Self.registered(names)
        let first = names.enumerated().map { named.named($1, archivedAs: 100 + $0, in: classes) }
        #expect(first.allSatisfy { $0 != nil })
        for (i, name) in names.enumerated() {
            let again = named.named(name, archivedAs: 100 + i, in: [:])
            #expect(again === first[i], "\(name)")
            #expect(again?.name == name)
        }
    }

    // R10
    @Test func findsAClassRegisteredAfterItsNameWasAskedFor() {
        var named = NamedClasses()
        #expect(named.named("Late", archivedAs: 3, in: [:]) == nil)
        #expect(named.named("Late", archivedAs: 3, in: Self.registered(["Late"]))?.name == "Late")
    }

    // R10
    @Test func keepsAClassWithoutMake() {
        var named = NamedClasses()
        let classes = ["NoMake": RestorationClass(name: "NoMake", make: nil)]
        let n = named.named("NoMake", archivedAs: 2, in: classes)
        #expect(n != nil)
        #expect(n?.make == nil)
    }
}
