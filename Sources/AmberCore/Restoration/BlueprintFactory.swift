/// A blueprint factory (SPEC R10 step 4): makes an object again from the blueprint it was made
/// from, the analogue of a storyboard. Registered with `Engine.registerBlueprintFactory(name:make:)`.
///
/// **Naming.** A blueprint identifier is `<factory>/<identifier in it>` (`Main/ItemDetail`), like
/// a storyboard name and a storyboard identifier; the factory asked is the one registered under
/// the part before the first `/`, or under the whole identifier when it has no `/`. The factory
/// receives the whole blueprint identifier.
public struct BlueprintFactory {
    /// The factory's name.
    public var name: String
    /// Makes the object: (blueprint identifier, restoration path, the object's coder) → the
    /// object, or nil if the blueprint does not describe it.
    public var make: (String, [String], StateDecoder) throws -> RestorableObject?

    /// Creates a factory.
    public init(name: String, make: @escaping (String, [String], StateDecoder) throws -> RestorableObject?) {
        self.name = name
        self.make = make
    }

    /// The name of the factory asked for a blueprint identifier: the part before the first `/`,
    /// or the whole identifier.
    public static func factoryName(forBlueprint identifier: String) -> String {
        if let slash = identifier.firstIndex(of: "/") { return String(identifier[..<slash]) }
        return identifier
    }
}
