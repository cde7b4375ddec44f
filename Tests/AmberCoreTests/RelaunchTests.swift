import AmberArchive
@testable import AmberCore
import Testing

/// The program under test: a root with one child whose state is `value`.
private final class Program {
    var value = ""
    var restored: String?
    var tornDown = false

    func setUp(_ engine: Engine) throws {
        engine.delegate.shouldSave = { _ in true }
        engine.delegate.shouldRestore = { _ in true }
        let root = controller("root", "Root"), detail = controller("detail", "Detail")
        try engine.addRoot(root)
        try root.addChild(detail)
        detail.callbacks.encode = { [unowned self] _, coder in try coder.encode(self.value, forKey: "value") }
        detail.callbacks.decode = { [unowned self] _, coder in self.restored = try coder.decodeString(forKey: "value") }
    }
}

private struct Refusal: Error {}

@Suite struct RelaunchTests {
    // R33
    @Test func testR33RelaunchRestoresIntoTheNewEngine() throws {
        let program = Program()
        let engine = makeEngine()
        try program.setUp(engine)
        program.value = "draft 7"
        _ = engine.launch()
        try engine.transition(to: .active)
        var order: [String] = []
        engine.notificationCenter.addObserver(name: AppNotification.willResignActive) { _ in order.append("resign") }
        let result = try engine.relaunch(
            tearDown: { e in
                #expect(e === engine)
                order.append("tearDown")
                program.tornDown = true
            },
            setUp: { e in
                order.append("setUp")
                try program.setUp(e)
            })
        #expect(order == ["resign", "tearDown", "setUp"])
        #expect(result.engine !== engine)
        #expect(result.preservation.saved)
        #expect(result.report.freshLaunchReason == nil)
        #expect(result.report.records.map(\.outcome) == [.restored, .restored])
        #expect(program.restored == "draft 7")
        #expect(result.engine.applicationState == .inactive)
        #expect(engine.applicationState == .background)
    }

    // R33: the archive carries over to a second relaunch; should-save declining is a fresh launch.
    @Test func testR33RelaunchTwiceAndFreshWhenNothingSaved() throws {
        let program = Program()
        let first = makeEngine()
        try program.setUp(first)
        program.value = "one"
        let second = try first.relaunch(setUp: program.setUp)
        #expect(program.restored == "one")
        program.value = "two"
        let third = try second.engine.relaunch(into: .background, setUp: program.setUp)
        #expect(program.restored == "two")
        #expect(third.engine.applicationState == .background)

        third.engine.delegate.shouldSave = nil
        program.restored = nil
        let fourth = try third.engine.relaunch(setUp: program.setUp)
        #expect(!fourth.preservation.saved)
        #expect(fourth.report.freshLaunchReason == .noArchive)
        #expect(program.restored == nil)
    }

    // R33: each step that fails says which, with its error unchanged.
    @Test func testR33FailuresNameTheStep() throws {
        let program = Program()
        let engine = makeEngine()
        try program.setUp(engine)
        do {
            _ = try engine.relaunch(tearDown: { _ in throw Refusal() }, setUp: program.setUp)
            Issue.record("a failing tear-down must fail the relaunch")
        } catch let e as RelaunchError {
            #expect(e.step == .tearingDown)
            #expect(e.underlying is Refusal)
        }
        do {
            _ = try engine.relaunch(setUp: { _ in throw AmberError(.duplicate, "set-up refused") })
            Issue.record("a failing set-up must fail the relaunch")
        } catch let e as RelaunchError {
            #expect(e.step == .settingUp)
            #expect(code(e.underlying) == .duplicate)
            #expect(e.description.contains("the set-up failed: set-up refused"))
        }
        engine.delegate.willEncode = { _ in throw AmberError(.io, "disk full") }
        do {
            _ = try engine.relaunch(tearDown: { _ in program.tornDown = true }, setUp: program.setUp)
            Issue.record("a failing preservation must fail the relaunch")
        } catch let e as RelaunchError {
            #expect(e.step == .preserving)
            #expect(code(e.underlying) == .io)
            #expect(!program.tornDown)
        }
        #expect(throws: AmberError(.invalidArgument, "a relaunch launches into inactive or background, not active")) {
            _ = try engine.relaunch(into: .active, setUp: program.setUp)
        }
    }
}
