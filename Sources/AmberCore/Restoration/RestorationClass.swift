/// A restoration class (SPEC R10 step 1): the first place asked for an archived object whose
/// record names it. Registered with `Engine.registerRestorationClass(name:superclass:make:)`.
public struct RestorationClass {
    /// The name objects give as their `restorationClassName`.
    public var name: String
    /// Its superclass, if any (it takes part in the class check, SPEC R11).
    public var superclass: String?
    /// Makes the object for a restoration path, reading what it needs from the object's coder;
    /// nil means "do not restore this object or anything under it" (the lookup stops there).
    /// A class without `make` does not stand in the way: the lookup goes on as if the object
    /// had no restoration class (steps 2–4), and the report notes it. The path is the
    /// identifiers; the stack position of each is in `StateDecoder.restorationComponents`
    /// (SPEC R3).
    public var make: (([String], StateDecoder) throws -> RestorableObject?)?
    /// When true, `make` is given an empty path and reads it from its decoder when it needs it
    /// (`StateDecoder.restorationPath`, or record by record with `restorationParent(ofRecord:)`
    /// and `restorationComponent(ofRecord:)`): no array of strings is made per object.
    public var pathFromDecoder = false

    /// Creates a restoration class.
    public init(name: String, superclass: String? = nil, make: (([String], StateDecoder) throws -> RestorableObject?)?) {
        self.name = name
        self.superclass = superclass
        self.make = make
    }
}
