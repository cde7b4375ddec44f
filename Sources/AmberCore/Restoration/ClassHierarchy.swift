/// The subclass relation of the host's object classes, as the host declares it (SPEC R11).
///
/// The engine knows nothing of the host's types: a class is a name, and its superclass is
/// whatever the host registered. A class has one superclass, declared once, and no declaration
/// may make a cycle, so every chain ends; it is still followed for at most 64 steps.
struct ClassHierarchy {
    private var superclasses: [String: String] = [:]

    /// Declares `name`'s superclass.
    /// - Throws: `.invalidArgument` for an empty name or a declaration that would make a cycle;
    ///   `.duplicate` if `name` has a superclass already.
    mutating func declare(_ name: String, superclass: String) throws(AmberError) {
        guard !name.isEmpty, !superclass.isEmpty else {
            throw AmberError(.invalidArgument, "a class name is empty (class '\(name)', superclass '\(superclass)')")
        }
        if let existing = superclasses[name] {
            throw AmberError(.duplicate, "class \(name) has a superclass already: \(existing)")
        }
        guard !isKind(superclass, of: name) else {
            throw AmberError(.invalidArgument, "\(name) as a subclass of \(superclass) would make a cycle")
        }
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
