/// How restoration finds the object of an archived record (SPEC R10): four steps, asked in
/// order until one gives an object.
///
/// 1. The record's restoration class. A class that gives none stops the chain for this record
///    and everything under it; a class that is not registered, or has no make callback, does not
///    stand in the way and the chain goes on.
/// 2. The delegate's object-for-path, for controllers only (UIKit asks the application delegate
///    for view controllers).
/// 3. Implicit lookup: an object the host had already made with the same path when restoration
///    began, or for a view, a view with its identifier among the views of the controller
///    restored for its parent record.
/// 4. The blueprint factory the record's blueprint names.
///
/// One chain serves one restoration; it does not place, check or decode what it finds.
struct LookupChain {
    /// What the chain gave for one record.
    enum Answer {
        /// An object, and the step that gave it, in words for the report. `classNote` says why
        /// a restoration class the record names did not stand in the way, if it named one.
        case found(RestorableObject, how: String, classNote: String? = nil)
        /// The restoration class gave none: the record and everything under it stay as archived.
        case declined(note: String)
        /// No step gave an object; the note says what each step tried.
        case notFound(note: String)
    }

    private unowned let engine: Engine
    private let session: RestoreSession
    /// The objects of the trees as the host built them, before anything was placed (step 3).
    private let existing: ObjectPathIndex
    /// Where each record's path leads in `existing`, found from its parent record's.
    private var existingEntries: RecordEntries
    /// This restoration's mark on the objects it found, told apart from earlier ones.
    let passID: UInt64
    /// The registered restoration classes the records name, each looked up once.
    private var namedClasses = NamedClasses()
    /// What failed outside any record's outcome (the delegate's object-for-path throwing), for
    /// the report's notes.
    private(set) var notes: [String] = []

    init(engine: Engine, session: RestoreSession, existing: ObjectPathIndex, passID: UInt64) {
        self.engine = engine
        self.session = session
        self.existing = existing
        existingEntries = RecordEntries(paths: session.paths)
        self.passID = passID
    }

    /// Asks the four steps for record `i`, in order. Throws what a make callback throws.
    mutating func find(record i: Int) throws -> Answer {
        var classNote: String?
        if let className = session.records[i].restorationClassName {
            let uid = session.records[i].restorationClassUID
            if let named = namedClasses.named(className, archivedAs: uid, in: engine.restorationClasses) {
                if let make = named.make { return try restorationClass(named, make, record: i) }
                classNote = "restoration class \(className) has no make callback"
            } else {
                classNote = "restoration class \(className) is not registered"
            }
        }
        if let (object, how) = try delegateObject(record: i) ?? implicitObject(record: i) ?? blueprintObject(record: i) {
            return .found(object, how: how, classNote: classNote)
        }
        return .notFound(note: notFoundNote(record: i, classNote: classNote))
    }

    /// Step 1: the restoration class's make.
    private mutating func restorationClass(
        _ named: NamedClasses.Named, _ make: ([String], StateDecoder) throws -> RestorableObject?, record i: Int
    ) throws -> Answer {
        var coder = session.decoder(record: i)
        defer { session.finish(&coder) }
        guard let object = try make(named.pathFromDecoder ? [] : session.path(ofRecord: i), coder) else {
            return .declined(note: "restoration class \(named.name) gave none: neither it nor anything under it is restored")
        }
        return .found(object, how: named.madeBy)
    }

    /// Step 2: the delegate, for controllers (a view is found in its controller, step 3). Its
    /// failure is a note, and the chain goes on.
    private mutating func delegateObject(record i: Int) -> (RestorableObject, String)? {
        guard session.records[i].kind == .controller, let objectForPath = engine.delegate.objectForPath else { return nil }
        var coder = session.decoder(record: i)
        defer { session.finish(&coder) }
        do {
            return try objectForPath(session.path(ofRecord: i), coder).map { ($0, "given by the delegate") }
        } catch {
            notes.append(AmberError.wrapping(error).message)
            return nil
        }
    }

    /// Step 3: an existing object with the record's path, or a view its restored controller made.
    private mutating func implicitObject(record i: Int) -> (RestorableObject, String)? {
        if let object = existingEntries.object(ofRecord: i, in: existing) {
            return (object, "found in the existing trees")
        }
        let parent = session.records[i].parent
        guard session.records[i].relation == .view, parent >= 0, let controller = session.objects[parent] else { return nil }
        let identifier = session.records[i].identifier
        guard let view = controller.views.first(where: { $0.identifier == identifier && $0.passID != passID }) else { return nil }
        return (view, "a view of its restored controller")
    }

    /// Step 4: the blueprint factory named by the record's blueprint.
    private func blueprintObject(record i: Int) throws -> (RestorableObject, String)? {
        guard let blueprint = session.records[i].blueprintIdentifier,
              let factory = engine.blueprintFactories[BlueprintFactory.factoryName(forBlueprint: blueprint)]
        else { return nil }
        var coder = session.decoder(record: i)
        defer { session.finish(&coder) }
        guard let object = try factory.make(blueprint, session.path(ofRecord: i), coder) else { return nil }
        return (object, "made by blueprint factory \(factory.name)")
    }

    /// Why nothing provided a record's object (SPEC R16): each step that was tried and what it gave.
    private func notFoundNote(record i: Int, classNote: String?) -> String {
        let record = session.records[i]
        var steps: [String] = []
        if let classNote { steps.append(classNote) }
        if record.kind == .controller {
            steps.append(engine.delegate.objectForPath == nil
                ? "the delegate has no object-for-path callback" : "the delegate's object-for-path gave none")
        }
        steps.append("no object had this path at launch")
        if record.relation == .view { steps.append("no restored controller holds a view with identifier \(record.identifier)") }
        if let blueprint = record.blueprintIdentifier {
            let name = BlueprintFactory.factoryName(forBlueprint: blueprint)
            steps.append(engine.blueprintFactories[name] == nil
                ? "no blueprint factory named \(name) for blueprint \(blueprint)"
                : "blueprint factory \(name) gave none for \(blueprint)")
        } else {
            steps.append("no blueprint recorded")
        }
        return "nothing provided it: " + steps.joined(separator: "; ")
    }
}
