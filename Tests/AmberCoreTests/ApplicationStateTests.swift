@testable import AmberCore
import Testing

/// An engine whose every notification is logged with the state at that moment.
private final class LifecycleProbe {
    let engine: Engine
    var log: [String] = []

    init(_ store: MemoryStore = MemoryStore(), save: Bool = true) {
        engine = makeEngine(store)
        engine.delegate.shouldSave = { [unowned self] _ in log.append("shouldSave"); return save }
        engine.notificationCenter.addObserver(name: nil, sender: .engine) { [unowned self] n in
            let short = n.name.replacingOccurrences("AmberApplication", "").replacingOccurrences("Notification", "")
            log.append("\(short)@\(engine.applicationState)")
        }
    }
}

private extension String {
    func replacingOccurrences(_ a: String, _ b: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: a) {
            result += rest[..<r.lowerBound] + b
            rest = rest[r.upperBound...]
        }
        return result + rest
    }
}

@Suite struct ApplicationStateTests {
    // R23
    @Test func theTransitionTableIsUIKits() {
        typealias S = ApplicationState
        let allowed: [(S, S)] = [
            (.notRunning, .inactive), (.notRunning, .background), (.inactive, .active), (.active, .inactive),
            (.inactive, .background), (.background, .inactive), (.background, .suspended), (.suspended, .background),
            (.background, .notRunning), (.suspended, .notRunning),
        ]
        for from in S.allCases {
            for to in S.allCases {
                #expect(from.allowsTransition(to: to) == allowed.contains { $0 == (from, to) }, "\(from) -> \(to)")
            }
        }
    }

    // R23
    @Test func launchingMakesTheApplicationInactiveAndPostsDidFinishLaunching() {
        let p = LifecycleProbe()
        #expect(p.engine.applicationState == .notRunning)
        var stateDuringWillFinish: ApplicationState?
        p.engine.delegate.willFinishLaunching = { stateDuringWillFinish = p.engine.applicationState }
        p.engine.delegate.didFinishLaunching = { p.log.append("didFinish") }
        _ = p.engine.launch()
        #expect(stateDuringWillFinish == .inactive)
        #expect(p.log == ["didFinish", "DidFinishLaunching@inactive"])
        #expect(p.engine.applicationState == .inactive)
        // A second launch while running restores again and leaves the state alone.
        _ = try? p.engine.transition(to: .active)
        _ = p.engine.launch()
        #expect(p.engine.applicationState == .active)
    }

    // R23
    @Test func aLaunchIntoTheBackground() {
        let p = LifecycleProbe()
        _ = p.engine.launchInBackground()
        #expect(p.engine.applicationState == .background)
    }

    // R23
    @Test func transitionsThatAreNotAllowedAreErrorsNamingBothStates() throws {
        let p = LifecycleProbe()
        #expect(throws: AmberError.self) { try p.engine.transition(to: .inactive) }  // launch() does that
        _ = p.engine.launch()
        try p.engine.transition(to: .active)
        p.log = []
        for bad in [ApplicationState.active, .background, .suspended, .notRunning] {
            do {
                try p.engine.transition(to: bad)
                Issue.record("active -> \(bad) was allowed")
            } catch {
                #expect(error.code == .misuse)
                #expect(error.message.contains("from active to \(bad)"))
            }
        }
        #expect(p.engine.applicationState == .active)
        #expect(p.log.isEmpty)
    }

    // R23, R24
    @Test func eachTransitionPostsItsNotificationOnTheRightSideOfTheChange() throws {
        let p = LifecycleProbe(save: false)
        _ = p.engine.launch()
        p.log = []
        try p.engine.transition(to: .active)
        try p.engine.transition(to: .inactive)
        try p.engine.transition(to: .background)
        try p.engine.transition(to: .suspended)
        try p.engine.transition(to: .background)
        try p.engine.transition(to: .inactive)
        try p.engine.transition(to: .background)
        try p.engine.transition(to: .notRunning)
        #expect(p.log == [
            "DidBecomeActive@active", "WillResignActive@active", "DidEnterBackground@background", "shouldSave",
            "WillEnterForeground@background", "DidEnterBackground@background", "shouldSave", "WillTerminate@background",
        ])
        #expect(p.engine.applicationState == .notRunning)
    }

    // R23
    @Test func aSuspendedApplicationEndsWithoutWillTerminate() throws {
        let p = LifecycleProbe()
        _ = p.engine.launchInBackground()
        try p.engine.transition(to: .suspended)
        p.log = []
        try p.engine.transition(to: .notRunning)
        #expect(p.log.isEmpty)
    }

    // R23
    @Test func enteringTheBackgroundPreservesOnlyWhenShouldSaveAgrees() throws {
        for save in [false, true] {
            let store = MemoryStore()
            let p = LifecycleProbe(store, save: save)
            let root = controller("root")
            saving(root, "v")
            try p.engine.addRoot(root)
            _ = p.engine.launch()
            let result = try p.engine.transition(to: .background)
            #expect(result.preservation?.saved == save)
            #expect((store.bytes != nil) == save)
            #expect(result.succeeded)
        }
    }

    // R23, R24: will-resign-active runs before the state is preserved.
    @Test func willResignActiveHidesContentBeforePreservation() throws {
        let p = LifecycleProbe()
        var secretVisible = true
        var visibleWhenSaved: Bool?
        p.engine.notificationCenter.addObserver(name: AppNotification.willResignActive) { _ in secretVisible = false }
        let root = controller("root")
        root.callbacks.encode = { _, coder in
            visibleWhenSaved = secretVisible
            try coder.encode("x", forKey: "k")
        }
        try p.engine.addRoot(root)
        _ = p.engine.launch()
        try p.engine.transition(to: .active)
        try p.engine.transition(to: .inactive)
        try p.engine.transition(to: .background)
        #expect(visibleWhenSaved == false)
    }

    // R23
    @Test func failuresAfterTheChangeAreReportedAndTheStateMovesAnyway() throws {
        let p = LifecycleProbe()
        struct Boom: Error {}
        p.engine.notificationCenter.addObserver(name: AppNotification.didBecomeActive) { _ in throw Boom() }
        _ = p.engine.launch()
        let result = try p.engine.transition(to: .active)
        #expect(result.observerError is Boom)
        #expect(!result.succeeded)
        #expect(p.engine.applicationState == .active)

        final class FailingStore: ArchiveStore {
            func read() throws -> [UInt8]? { nil }
            func write(_ bytes: [UInt8]) throws { throw AmberError(.io, "disk full") }
            func remove() throws {}
            func readGuard() throws -> Int { 0 }
            func writeGuard(_ count: Int) throws {}
            func removeGuard() throws {}
        }
        let engine = Engine(configuration: EngineConfiguration(appID: "t", store: FailingStore()))
        engine.delegate.shouldSave = { _ in true }
        _ = engine.launch()
        let r = try engine.transition(to: .background)
        #expect(r.preservationError?.code == .io)
        #expect(r.preservation == nil)
        #expect(engine.applicationState == .background)
    }

    // R23
    @Test func aTransitionFromAnObserverOfAnotherIsRefused() throws {
        let p = LifecycleProbe()
        var nested: AmberError?
        p.engine.notificationCenter.addObserver(name: AppNotification.didBecomeActive) { _ in
            do throws(AmberError) { try p.engine.transition(to: .inactive) } catch { nested = error }
        }
        _ = p.engine.launch()
        try p.engine.transition(to: .active)
        #expect(nested?.code == .misuse)
        #expect(nested?.message.contains("under way") == true)
        #expect(p.engine.applicationState == .active)
    }

    // R24
    @Test func memoryWarningsArePostedWithTheEngineAsSender() throws {
        let p = LifecycleProbe()
        try p.engine.reportMemoryWarning()
        #expect(p.log == ["DidReceiveMemoryWarning@not running"])
    }
}
