/// The registered restoration classes a restoration's records name, each looked up once by its
/// name, with what every record of the class needs (its make callback, whether it reads its path
/// from the decoder, the report's note): a restoration names few classes for many records, so a
/// record costs one lookup of its class's name rather than one per use.
///
/// A class is remembered by the archive's string object that names it
/// (`RestoreSession.Record.restorationClassUID`): the records of one class refer to one string
/// object, so a record finds its class by that number, without hashing the name. (An archive
/// that stores a name in several string objects costs a lookup of the name per object.)
///
/// A name that is not registered is not remembered: a class registered while the restoration
/// runs (by a make callback) is found for the records after it, as without this table. A
/// registered class cannot be replaced or removed, so what is remembered stays true.
struct NamedClasses {
    /// One registered restoration class, as the lookup chain uses it (a class: a record takes
    /// one reference to it, not one to each of its fields).
    final class Named {
        let name: String
        let make: (([String], StateDecoder) throws -> RestorableObject?)?
        let pathFromDecoder: Bool
        /// The report's note for an object the class made: one string for all its records.
        let madeBy: String

        init(_ name: String, _ rc: RestorationClass) {
            self.name = name
            make = rc.make
            pathFromDecoder = rc.pathFromDecoder
            madeBy = "made by restoration class \(name)"
        }
    }

    /// The classes found, by the UID of the string object that names them: the first ones in a
    /// list, looked through in order (a restoration names few classes, and a few comparisons
    /// cost less than hashing the number at every record), the others in a dictionary.
    private var list: [(uid: Int, named: Named)] = []
    private var table: [Int: Named] = [:]
    static let listLimit = 16

    /// The class registered as `name` in `registered`, or nil if there is none. `uid` is the
    /// archive's string object that holds `name`.
    mutating func named(_ name: String, archivedAs uid: Int, in registered: [String: RestorationClass]) -> Named? {
        for entry in list where entry.uid == uid { return entry.named }
        if !table.isEmpty, let known = table[uid] { return known }
        guard let rc = registered[name] else { return nil }
        let named = Named(name, rc)
        if list.count < Self.listLimit { list.append((uid, named)) } else { table[uid] = named }
        return named
    }
}
