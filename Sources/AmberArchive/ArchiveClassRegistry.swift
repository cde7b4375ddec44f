/// A class of the host's own data objects that keyed archives can hold (the NSCoding model, SPEC R25).
///
/// Encoding and decoding are closures, so a Swift type, a C vtable or a Python class can each
/// stand behind one. Decoding is in two steps, like `alloc` then `initWithCoder:`: `make` creates
/// the object from its coder, and the object is registered before `decode` (optional) fills it
/// in, so that references back to it (cycles) resolve to the same object.
public struct ArchiveClass: Sendable {
    /// The class name written as `$classname`.
    public var name: String
    /// The name of its superclass, if it is a registered class too; the `$classes` chain written
    /// for an object is the class, its registered superclasses, then `NSObject`.
    public var superclassName: String?
    /// Writes the object's state into the archiver, which is positioned on the object.
    public var encode: @Sendable (AnyObject, KeyedArchiver) throws -> Void
    /// Creates the object, reading what it needs from the unarchiver, which is positioned on it.
    public var make: @Sendable (KeyedUnarchiver) throws -> AnyObject
    /// Fills in the object after it has been registered; references to the object from inside
    /// `decode` resolve to it.
    public var decode: (@Sendable (AnyObject, KeyedUnarchiver) throws -> Void)?

    public init(
        name: String,
        superclassName: String? = nil,
        encode: @escaping @Sendable (AnyObject, KeyedArchiver) throws -> Void,
        make: @escaping @Sendable (KeyedUnarchiver) throws -> AnyObject,
        decode: (@Sendable (AnyObject, KeyedUnarchiver) throws -> Void)? = nil
    ) {
        self.name = name
        self.superclassName = superclassName
        self.encode = encode
        self.make = make
        self.decode = decode
    }
}

/// An object that names its archive class itself, instead of being looked up by its Swift type.
/// The C and Python layers wrap host objects in one type that conforms.
public protocol ArchiveClassNaming: AnyObject {
    /// The name of the registered `ArchiveClass` that encodes this object.
    var archiveClassName: String { get }
}

/// The coding classes an archiver and unarchiver know, by name and by Swift type.
///
/// Not thread-safe while being changed; share a registry between threads only once it is complete.
public final class ArchiveClassRegistry: @unchecked Sendable {
    private var byName: [String: ArchiveClass] = [:]
    private var byType: [ObjectIdentifier: String] = [:]

    public init() {}

    /// Registers a class. `type`, if given, is the Swift class whose instances it encodes.
    /// A name is registered once: replacing a class would change how objects already met are
    /// written, and which of two registrations wins would depend on the order of the calls.
    /// - Throws: `.invalidValue` for an empty name, one of Foundation's standard classes (which
    ///   the archiver encodes itself), or a superclass name that is empty or the class's own;
    ///   `.duplicate` for a name registered already. Nothing is registered when it throws.
    public func register(_ cls: ArchiveClass, for type: AnyObject.Type? = nil) throws(ArchiveError) {
        guard !cls.name.isEmpty else { throw ArchiveError(.invalidValue, "a coding class needs a name") }
        guard !FoundationClass.reserved.contains(cls.name) else {
            throw ArchiveError(.invalidValue, "'\(cls.name)' is one of Foundation's standard classes, which the archiver encodes itself")
        }
        if let superclass = cls.superclassName, superclass.isEmpty || superclass == cls.name {
            throw ArchiveError(.invalidValue, "'\(superclass)' cannot be the superclass of '\(cls.name)'")
        }
        guard byName[cls.name] == nil else { throw ArchiveError(.duplicate, "coding class \(cls.name) is registered already") }
        byName[cls.name] = cls
        if let type { byType[ObjectIdentifier(type)] = cls.name }
    }

    /// The class registered under a name.
    public func lookup(_ name: String) -> ArchiveClass? { byName[name] }

    /// The class that encodes an object: by `ArchiveClassNaming`, else by its Swift type.
    public func lookup(for object: AnyObject) -> ArchiveClass? {
        if let cls = lookup(forType: type(of: object)) { return cls }
        if let named = object as? ArchiveClassNaming { return byName[named.archiveClassName] }
        return nil
    }

    /// Whether a class is registered for the Swift type of identity `type`.
    func isRegistered(_ type: ObjectIdentifier) -> Bool { byType[type] != nil }

    /// The class registered for a Swift type.
    public func lookup(forType type: AnyObject.Type) -> ArchiveClass? {
        guard let name = byType[ObjectIdentifier(type)] else { return nil }
        return byName[name]
    }

    /// The `$classes` chain of a registered class: itself, its registered superclasses, NSObject.
    public func chain(of name: String) -> [String] {
        var result = [name]
        var current = byName[name]?.superclassName
        while let c = current, !result.contains(c), result.count < 64 {
            result.append(c)
            current = byName[c]?.superclassName
        }
        if result.last != "NSObject" { result.append("NSObject") }
        return result
    }

    /// Whether class `name` is `ancestor` or registered as a descendant of it.
    public func isKind(_ name: String, of ancestor: String) -> Bool {
        chain(of: name).contains(ancestor)
    }
}

/// The Foundation classes the archiver writes and reads itself.
enum FoundationClass {
    static let reserved: Set<String> = [
        "NSObject", "NSString", "NSMutableString", "NSNumber", "NSData", "NSMutableData", "NSDate",
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSNull", "NSUUID", "NSIndexPath",
    ]
}
