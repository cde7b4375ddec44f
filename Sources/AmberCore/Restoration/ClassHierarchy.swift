/// The subclass relation of the host's object classes, as the host declares it (SPEC R11).
///
/// The engine knows nothing of the host's types: a class is a name, and its superclass is
/// whatever the host registered. A chain is followed for at most 64 steps, so a declared cycle
/// ends instead of looping.
struct ClassHierarchy {
    private var superclasses: [String: String] = [:]

    /// Declares `name`'s superclass (nil: none), replacing an earlier declaration.
    mutating func register(_ name: String, superclass: String?) {
        superclasses[name] = superclass
    }

    /// The superclass declared for a class.
    func superclass(of name: String) -> String? { superclasses[name] }

    /// Whether `name` is `ancestor` or declared a descendant of it.
    func isKind(_ name: String, of ancestor: String) -> Bool {
        if name == ancestor { return true }
        var current = superclasses[name]
        var steps = 0
        while let c = current, steps < 64 {
            if c == ancestor { return true }
            current = superclasses[c]
            steps += 1
        }
        return false
    }
}
