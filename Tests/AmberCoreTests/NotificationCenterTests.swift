@testable import AmberCore
import Testing

@Suite struct NotificationCenterTests {
    // R24
    @Test func observersAreCalledInRegistrationOrder() throws {
        let center = AppNotificationCenter()
        var log: [String] = []
        for name in ["a", "b", "c", "d"] {
            center.addObserver(name: "N") { _ in log.append(name) }
        }
        center.addObserver(name: "Other") { _ in log.append("other") }
        try center.post(name: "N")
        #expect(log == ["a", "b", "c", "d"])
    }

    // R24
    @Test func nameAndSenderFilters() throws {
        let center = AppNotificationCenter()
        var log: [String] = []
        center.addObserver(name: nil) { n in log.append("any:\(n.name)") }
        center.addObserver(name: "N", sender: .address(1)) { _ in log.append("from1") }
        center.addObserver(name: nil, sender: .engine) { n in log.append("engine:\(n.name)") }
        try center.post(name: "N", sender: .address(2))
        try center.post(name: "N", sender: .address(1))
        try center.post(name: "M", sender: .engine)
        #expect(log == ["any:N", "any:N", "from1", "any:M", "engine:M"])
    }

    // R24
    @Test func anObserverRemovedDuringADeliveryBeforeItsTurnIsNotCalled() throws {
        let center = AppNotificationCenter()
        var log: [String] = []
        var removed = 0
        var later = ObserverToken(id: 0)
        center.addObserver(name: "N") { _ in
            log.append("a")
            try center.removeObserver(later)
        }
        later = center.addObserver(name: "N", onRemove: { removed += 1 }) { _ in log.append("b") }
        center.addObserver(name: "N") { _ in log.append("c") }
        try center.post(name: "N")
        #expect(log == ["a", "c"])
        #expect(removed == 1)
        #expect(!center.contains(later))
        #expect(throws: AmberError(.notFound, "observer \(later.id) is not registered (removed already, or never added)")) {
            try center.removeObserver(later)
        }
        #expect(removed == 1)
    }

    // R24
    @Test func anObserverAddedDuringADeliveryWaitsForTheNextPost() throws {
        let center = AppNotificationCenter()
        var log: [String] = []
        var added = false
        center.addObserver(name: "N") { _ in
            log.append("a")
            if !added {
                added = true
                center.addObserver(name: "N") { _ in log.append("new") }
            }
        }
        try center.post(name: "N")
        #expect(log == ["a"])
        try center.post(name: "N")
        #expect(log == ["a", "a", "new"])
    }

    // R24: the destructor of an observer that removes itself runs after the delivery.
    @Test func onRemoveRunsOnceAndNeverInTheMiddleOfADelivery() throws {
        let center = AppNotificationCenter()
        var events: [String] = []
        var me = ObserverToken(id: 0)
        me = center.addObserver(name: "N", onRemove: { events.append("destroyed") }) { _ in
            try center.removeObserver(me)
            events.append("still running")
        }
        center.addObserver(name: "N") { _ in events.append("next") }
        try center.post(name: "N")
        #expect(events == ["still running", "next", "destroyed"])
        try center.post(name: "N")
        #expect(events == ["still running", "next", "destroyed", "next"])
    }

    // R24
    @Test func removingAllCallsEveryDestructorOnce() {
        let center = AppNotificationCenter()
        var destroyed: [Int] = []
        for i in 0 ..< 3 { center.addObserver(name: "N", onRemove: { destroyed.append(i) }) { _ in } }
        center.removeAllObservers()
        center.removeAllObservers()
        #expect(destroyed == [0, 1, 2])
        #expect(center.observerCount == 0)
    }

    // R24
    @Test func aFailingObserverDoesNotStopTheOthers() {
        struct Boom: Error, Equatable { var n: Int }
        let center = AppNotificationCenter()
        var log: [String] = []
        center.addObserver(name: "N") { _ in log.append("a"); throw Boom(n: 1) }
        center.addObserver(name: "N") { _ in log.append("b"); throw Boom(n: 2) }
        center.addObserver(name: "N") { _ in log.append("c") }
        #expect(throws: Boom(n: 1)) { try center.post(name: "N") }
        #expect(log == ["a", "b", "c"])
    }

    // R24
    @Test func nestedPostsAreDeliveredAtOnceAndBounded() throws {
        let center = AppNotificationCenter()
        var log: [String] = []
        center.addObserver(name: "Outer") { _ in
            log.append("outer-1")
            try center.post(name: "Inner")
            log.append("outer-2")
        }
        center.addObserver(name: "Inner") { _ in log.append("inner") }
        try center.post(name: "Outer")
        #expect(log == ["outer-1", "inner", "outer-2"])

        var depth = 0
        center.addObserver(name: "Loop") { _ in
            depth += 1
            try center.post(name: "Loop")
        }
        #expect { try center.post(name: "Loop") } throws: { ($0 as? AmberError)?.code == .limitExceeded }
        #expect(depth == AppNotificationCenter.maxNesting)
        #expect(!center.isDelivering)
    }

    // R24
    @Test func userInfoHoldsTypedValuesInOrder() throws {
        var info: UserInfo = ["flag": .bool(true), "count": .int64(3), "ratio": .double(0.5)]
        info["text"] = .string("draft")
        info["bytes"] = .bytes([1, 2])
        info["count"] = .int64(4)
        #expect(info.keys == ["flag", "count", "ratio", "text", "bytes"])
        #expect(try info.bool(forKey: "flag"))
        #expect(try info.int64(forKey: "count") == 4)
        #expect(try info.double(forKey: "ratio") == 0.5)
        #expect(try info.double(forKey: "count") == 4)
        #expect(try info.string(forKey: "text") == "draft")
        #expect(try info.bytes(forKey: "bytes") == [1, 2])
        #expect(throws: AmberError(.typeMismatch, "the user info's value for key 'text' is a string, not an int64")) {
            try info.int64(forKey: "text")
        }
        #expect(throws: AmberError(.notFound, "the user info has no value for key 'none'")) { try info.bool(forKey: "none") }
        info["flag"] = nil
        #expect(info.keys == ["count", "ratio", "text", "bytes"])
    }

    // R24: a user info holds no empty key, whichever way a host fills it
    @Test func aUserInfoRefusesAnEmptyKey() throws {
        var info: UserInfo = ["a": .int64(1)]
        #expect(throws: AmberError.self) { try info.setValues([("b", .int64(2)), ("", .int64(3))]) }
        #expect(info.keys == ["a"])  // all or nothing
        try info.setValues([("b", .int64(2)), ("a", .bool(true))])
        #expect(info.keys == ["a", "b"] && info["a"] == .bool(true))
        do {
            _ = try info.value(forKey: "")
            Issue.record("a read under an empty key was not refused")
        } catch {
            #expect(error.code == .invalidArgument)
        }
        #expect(try info.valueIfPresent(forKey: "c") == nil)

        let center = AppNotificationCenter()
        var called = 0
        _ = center.addObserver(name: "n") { _ in called += 1 }
        info[""] = .int64(4)  // the subscript cannot refuse: the post does
        do {
            try center.post(name: "n", userInfo: info)
            Issue.record("a user info with an empty key was posted")
        } catch let error as AmberError {
            #expect(error.code == .invalidArgument)
        }
        #expect(called == 0)
    }
}
