/// The registered restoration classes a restoration's records name, each looked up once by its
/// name, with what every record of the class needs (its make callback, whether it reads its path
/// from the decoder, the report's note): a restoration names few classes for many records, so a
/// record costs one lookup of its class's name rather than one per use.
///
/// A name that is not registered is not remembered: a class registered while the restoration
/// runs (by a make callback) is found for the records after it, as without this table. A
/// registered class cannot be replaced or removed, so what is remembered stays true.
struct NamedClasses {
    /// One registered restoration class, as the lookup chain uses it.
    struct Named {
        let name: String
        let make: (([String], StateDecoder) throws -> RestorableObject?)?
        let pathFromDecoder: Bool
        /// The report's note for an object the class made: one string for all its records.
        let madeBy: String
    }

    private var found: [String: Named] = [:]

    /// The class registered as `name` in `registered`, or nil if there is none.
    mutating func named(_ name: String, in registered: [String: RestorationClass]) -> Named? {
        if let known = found[name] { return known }
        guard let rc = registered[name] else { return nil }
        let named = Named(name: name, make: rc.make, pathFromDecoder: rc.pathFromDecoder, madeBy: "made by restoration class \(name)")
        found[name] = named
        return named
    }
}
