import AmberArchive

/// The restoration engine: preserves the state of the host's interface and restores it at the
/// next launch, on UIKit's model (SPEC R1–R16).
///
/// ```swift
/// let engine = Engine(configuration: EngineConfiguration(appID: "org.example.app", store: try FileStore(appID: "org.example.app")))
/// engine.delegate.shouldSave = { _ in true }
/// engine.delegate.shouldRestore = { _ in true }
/// try engine.addRoot(window)
/// let report = engine.launch { buildDefaultInterface() }   // at start-up
/// try engine.preserve()                                   // when going to the background
/// ```
///
/// An engine and its objects are used by one thread at a time; callbacks run on the caller's
/// thread. Calls made from inside callbacks are allowed except re-entering `preserve()` or
/// `restore()` (refused: `.misuse` and `.restorationInProgress`).
public final class Engine {
    /// How the engine was set up.
    public let configuration: EngineConfiguration
    /// The application delegate's callbacks.
    public var delegate = EngineDelegate()
    /// The coding classes of the host's own data objects (SPEC R25), for `encodeObject` and
    /// `decodeObject` in every coder.
    public let codingClasses: ArchiveClassRegistry
    /// The roots preservation starts from (windows, scenes), in order.
    public internal(set) var roots: [RestorableObject] = []

    var hierarchy = ClassHierarchy()
    var restorationClasses: [String: RestorationClass] = [:]
    var blueprintFactories: [String: BlueprintFactory] = [:]
    /// The state versions declared, by class name (SPEC R30).
    var stateVersions: [String: StateVersion] = [:]
    /// How long the records that found no object are kept after a restoration (SPEC R35); 0:
    /// not kept.
    var unclaimedKeepMilliseconds = 0
    /// The records kept for objects created later (SPEC R35), if any.
    var unclaimed: UnclaimedRecords?
    /// Why the kept records are gone, for the message of a claim that comes too late.
    var unclaimedEnd: String?
    /// The paths whose kept records were claimed since the last restoration, each with the
    /// object that claimed it, so that a second claim says so (SPEC R35).
    var claimedLate: [[PathComponent]: String] = [:]
    /// The report of the last restoration, updated by late claims (SPEC R35).
    var restorationReport: RestorationReport?

    enum Activity: String { case idle, preserving, restoring }
    var activity: Activity = .idle

    /// Extensions of restoration not yet completed (SPEC R15).
    var outstanding: Set<UInt64> = []
    var nextToken: UInt64 = 1
    /// Whether a restoration took place and waits for its extensions before discarding.
    var waitingForExtensions = false
    /// Whether the archive that was restored has been replaced or removed since (a new
    /// preservation, or the host's discard): completing the extensions must not remove it then.
    var restoredArchiveSuperseded = false
    /// Whether the host discarded the archive in this process.
    var discardedByHost = false
    /// The size of the last archive preserved (its records, and its archiver's table sizes):
    /// the next preservation sizes its archiver from it (`Engine.encodeArchive`).
    var lastPreservedSize: (records: Int, hint: KeyedArchiver.SizeHint?) = (0, nil)
    /// Whether the launch guard on disk is this launch's mark on the restored archive: marked
    /// `LaunchGuard.consumed` (it could not be removed), or a count left over because the guard
    /// could not be removed once restoration completed (SPEC R14). The next save replaces the
    /// archive and clears it, so that the mark or count does not apply to the new archive.
    var guardMarksRestoredArchive = false
    /// The report of the last preservation (SPEC R28), nil before the first.
    public internal(set) var lastPreservation: PreservationReport?
    /// The snapshot attached for the next preservation, and the one being restored (SPEC R21).
    let snapshots = SnapshotSlot()
    /// Where this engine's log lines go (SPEC R29); nil: the process-wide sink
    /// (`Log.processWide`). `AMBER_LOG` prints to standard error either way.
    public var logSink: LogSink?

    /// The application's state (SPEC R23): not running until `launch()`; then as the host
    /// reports transitions with `transition(to:)`. Backs `amber_engine_app_state`.
    public internal(set) var applicationState: ApplicationState = .notRunning
    /// The engine's notification center (SPEC R24): the lifecycle and memory-warning
    /// notifications, and whatever the host posts.
    public let notificationCenter = AppNotificationCenter()
    /// The transition under way (observers are being called), if any.
    var transitionUnderWay: (from: ApplicationState, to: ApplicationState)?

    /// The clock autosave reads (SPEC R32); a test sets its own.
    public var clock = MonotonicClock.system
    /// The autosave policy and the changes it tracks (SPEC R32).
    var autosave = AutosaveState()
    /// The epoch of the objects' state recordings: a recording of another epoch is stale. It
    /// changes whenever reuse is turned off, since changes are then no longer marked.
    var recordingEpoch = UInt64.random(in: 1 ... UInt64.max)

    /// Creates an engine.
    public init(configuration: EngineConfiguration, codingClasses: ArchiveClassRegistry = ArchiveClassRegistry()) {
        self.configuration = configuration
        self.codingClasses = codingClasses
    }

    var store: any ArchiveStore { configuration.store }

    // MARK: Roots

    /// Adds a root (a window or scene): preservation starts from each root in the order added.
    /// A root needs a restoration identifier to be preserved. Backs `amber_engine_add_root`.
    /// - Throws: `.invalidArgument` unless it is a controller without a parent; `.duplicate` if
    ///   it is a root already (adding it again is a mistake in the host's bookkeeping, which a
    ///   silent success would hide).
    public func addRoot(_ root: RestorableObject) throws(AmberError) {
        guard root.kind == .controller else {
            throw AmberError(.invalidArgument, "a root is a controller; '\(root.describe)' is a \(root.kind)")
        }
        guard root.parent == nil else {
            throw AmberError(.invalidArgument, "'\(root.describe)' has a parent; a root has none")
        }
        guard !isRoot(root) else { throw AmberError(.duplicate, "'\(root.describe)' is a root already") }
        roots.append(root)
    }

    /// Removes a root. Backs `amber_engine_remove_root`.
    /// - Throws: `.notFound` if it is not a root.
    public func removeRoot(_ root: RestorableObject) throws(AmberError) {
        guard isRoot(root) else { throw AmberError(.notFound, "'\(root.describe)' is not a root") }
        roots.removeAll { $0 === root }
    }

    /// Whether the object is one of the roots.
    public func isRoot(_ object: RestorableObject) -> Bool {
        roots.contains { $0 === object }
    }

    // MARK: Classes

    /// Registers a restoration class (SPEC R10 step 1): objects whose `restorationClassName` is
    /// `name` are asked of its `make` first at restoration. `superclass`, if given, is declared
    /// as with `registerClass(name:superclass:)`.
    /// `make` returns the object, or nil: "do not restore this object or anything under it".
    /// A class registered without `make` leaves the lookup to steps 2–4.
    /// With `pathFromDecoder`, `make` is given an empty path and reads the path from its
    /// decoder (`RestorationClass.pathFromDecoder`). Backs
    /// `amber_engine_register_restoration_class`.
    /// - Throws: `.invalidArgument` for an empty name; `.duplicate` if a restoration class of
    ///   that name is registered already (a second registration is a mistake that replacing
    ///   would hide: which of the two makes the objects would depend on the order of calls);
    ///   what `registerClass(name:superclass:)` throws for `superclass`. Nothing is registered
    ///   when it throws.
    public func registerRestorationClass(
        name: String, superclass: String? = nil, pathFromDecoder: Bool = false,
        make: (([String], StateDecoder) throws -> RestorableObject?)?
    ) throws(AmberError) {
        guard !name.isEmpty else { throw AmberError(.invalidArgument, "a restoration class's name is empty") }
        guard restorationClasses[name] == nil else {
            throw AmberError(.duplicate, "restoration class \(name) is registered already")
        }
        if let superclass { try registerClass(name: name, superclass: superclass) }
        var rc = RestorationClass(name: name, superclass: superclass, make: make)
        rc.pathFromDecoder = pathFromDecoder
        restorationClasses[name] = rc
    }

    /// Whether a restoration class of that name is registered.
    public func hasRestorationClass(named name: String) -> Bool { restorationClasses[name] != nil }

    /// Declares the superclass of a host class, for the class check (SPEC R11): an object found
    /// at restoration must be of the archived class or a declared subclass of it. Backs
    /// `amber_engine_register_subclass`.
    /// - Throws: `.invalidArgument` for an empty name, or when the declaration would make a
    ///   cycle (`superclass` is `name` or declared a subclass of it); `.duplicate` if `name`
    ///   has a superclass already (a class has one superclass).
    public func registerClass(name: String, superclass: String) throws(AmberError) {
        try hierarchy.declare(name, superclass: superclass)
    }

    /// Whether class `name` is `ancestor` or declared a descendant of it.
    public func isClass(_ name: String, kindOf ancestor: String) -> Bool {
        hierarchy.isKind(name, of: ancestor)
    }

    /// Registers a blueprint factory (SPEC R10 step 4). A record whose blueprint identifier is
    /// `name/…` (or `name` itself) is made by it when the steps before found nothing; see
    /// `BlueprintFactory` for the naming. Backs `amber_engine_register_blueprint_factory`.
    /// - Throws: `.invalidArgument` for an empty name or one with a `/` (the separator of a
    ///   blueprint identifier); `.duplicate` if a factory of that name is registered already.
    public func registerBlueprintFactory(
        name: String, make: @escaping (String, [String], StateDecoder) throws -> RestorableObject?
    ) throws(AmberError) {
        guard !name.isEmpty, !name.contains("/") else {
            throw AmberError(.invalidArgument, "a blueprint factory's name is not empty and has no '/'; '\(name)' is not one")
        }
        guard blueprintFactories[name] == nil else {
            throw AmberError(.duplicate, "blueprint factory \(name) is registered already")
        }
        blueprintFactories[name] = BlueprintFactory(name: name, make: make)
    }

    /// Whether a blueprint factory of that name is registered.
    public func hasBlueprintFactory(named name: String) -> Bool { blueprintFactories[name] != nil }

    // MARK: Launch

    /// The launch sequence (SPEC R9, R23): the application goes from not running to inactive
    /// (see `launchInBackground` for a launch into the background); the delegate's
    /// will-finish-launching, then `defaultSetup` (where the host builds its default interface,
    /// if it does not in will-finish-launching: restoration runs after both, so the objects they
    /// create are found by implicit lookup), then `restore()`, then did-finish-launching, then the
    /// did-finish-launching notification. The host reports the move to active with
    /// `transition(to: .active)` once its interface is on screen.
    ///
    /// Called again while the application runs, it restores again without changing the state
    /// (the state only leaves not running by a launch).
    /// - Returns: the restoration's report; an observer of did-finish-launching that threw is
    ///   noted in it.
    public func launch(defaultSetup: () -> Void = {}) -> RestorationReport {
        launch(into: .inactive, defaultSetup: defaultSetup)
    }

    // MARK: Discarding and extending

    /// Discards the archive on purpose (the user force-quit, signed out; SPEC R14). The launch
    /// guard then records the discard, so that the next launch, in this process or another,
    /// reports `discardedByHost` rather than `noArchive`. A restoration waiting for extensions
    /// keeps waiting, but completing them removes nothing more.
    /// - Throws: what the store throws.
    public func discardArchive() throws {
        discardedByHost = true
        if waitingForExtensions || activity == .restoring { restoredArchiveSuperseded = true }
        try store.remove()
        try store.writeGuard(LaunchGuard.discardedByHost)
        log(.debug) { "the host discarded the archive" }
    }

    /// Extends the restoration under way while the host loads data it needs (SPEC R15): the
    /// archive, and the launch guard, are kept until every extension is completed. Call it
    /// during restoration (from a callback) or while earlier extensions are pending.
    ///
    /// If the process ends before completion, the next launch discards the archive without
    /// restoring it (`extendedRestorationUnfinished`), as UIKit does: the launch guard is marked
    /// when restoration returns extended.
    /// - Throws: `.misuse` when no restoration is under way or waiting.
    public func extendRestoration() throws(AmberError) -> RestorationToken {
        guard activity == .restoring || waitingForExtensions else {
            throw AmberError(.misuse, "there is no restoration to extend: extend it from a restoration callback")
        }
        let token = nextToken
        nextToken += 1
        outstanding.insert(token)
        return RestorationToken(id: token)
    }

    /// Completes an extension. When the last one completes after `restore()` has returned, the
    /// archive is discarded (unless a newer one replaced it) and the launch guard removed.
    /// - Throws: `.misuse` for a token not given out or already completed; what the store
    ///   throws while discarding.
    public func completeRestoration(_ token: RestorationToken) throws {
        guard outstanding.remove(token.id) != nil else {
            throw AmberError(.misuse, "restoration token \(token.id) is not outstanding (completed already, or never given)")
        }
        if outstanding.isEmpty, waitingForExtensions {
            waitingForExtensions = false
            try finishRestoration()
        }
    }

    /// Whether extensions of restoration are pending (SPEC R15).
    public var isRestorationExtended: Bool { !outstanding.isEmpty }

    /// Discards the restored archive (unless superseded) and removes the launch guard; if the
    /// archive cannot be removed, the guard marks it consumed (`LaunchGuard.consumed`).
    /// - Throws: `.io` naming what failed when the archive could be neither removed nor marked,
    ///   or the guard not removed.
    func finishRestoration() throws {
        // What could not be done: the helpers note only failures.
        var failures: [String] = []
        if restoredArchiveSuperseded || configuration.keepsArchiveAfterRestore {
            // Replaced, or kept until the next save (SPEC R32): the restoration completed, so the
            // guard's extended mark goes and no launch count is left (SPEC R14).
            clearLaunchGuard(&failures)
        } else {
            discardConsumedArchive(&failures)
        }
        restoredArchiveSuperseded = false
        if !failures.isEmpty { throw AmberError(.io, failures.joined(separator: "; ")) }
    }
}

extension Engine {
    /// Logs a line (SPEC R29); the message is made only if a sink takes the level.
    func log(_ level: LogLevel, _ message: () -> String) {
        Log.write(level, logSink, message)
    }

    /// Whether a line at `level` goes anywhere.
    func isLogging(_ level: LogLevel) -> Bool { Log.isEnabled(level, logSink) }
}
