import AmberArchive
@testable import AmberCore
import Testing

/// A host data object (the NSCoding model) for R25.
final class Item {
    var name: String
    var value: Int64
    init(name: String, value: Int64) {
        self.name = name
        self.value = value
    }
}

/// Another class, not allowed where Items are expected.
final class Secret {
    var text = "top"
}

private func registerItems(_ engine: Engine) throws {
    try engine.codingClasses.register(ArchiveClass(
        name: "Item",
        encode: { object, coder in
            let item = object as! Item
            coder.encode(item.name, forKey: "name")
            coder.encode(item.value, forKey: "value")
        },
        make: { coder in Item(name: try coder.decodeString(forKey: "name"), value: try coder.decodeInt64(forKey: "value")) }
    ), for: Item.self)
    try engine.codingClasses.register(ArchiveClass(
        name: "Secret", encode: { _, _ in }, make: { _ in Secret() }), for: Secret.self)
}

@Suite struct CodingTests {
    // R7
    @Test func reservedKeysAreRefusedInEveryCoder() throws {
        let engine = makeEngine()
        var appCodes: [AmberError.Code] = []
        var objectCodes: [AmberError.Code] = []
        let keys = ["bundleVersion", "interfaceIdiom", "timestamp", "systemVersion", "blueprint", "amber.anything",
                    "UIApplicationStateRestorationBundleVersion"]
        engine.delegate.willEncode = { coder in
            for k in keys {
                do { try coder.encode("x", forKey: k) } catch { appCodes.append(code(error)!) }
            }
            try coder.encode("fine", forKey: "myVersion")
        }
        let root = controller("root")
        root.callbacks.encode = { _, coder in
            for k in keys {
                do { try coder.encode(Int64(1), forKey: k) } catch { objectCodes.append(code(error)!) }
            }
            do { try coder.encode(bytes: [1], forKey: "blueprint") } catch { objectCodes.append(code(error)!) }
            do { try coder.encodeReference(to: nil, forKey: "amber.ref") } catch { objectCodes.append(code(error)!) }
            try coder.encode(Int64(1), forKey: "amberish")  // only the "amber." prefix is reserved
        }
        try engine.addRoot(root)
        #expect(try engine.preserve().saved)
        #expect(appCodes == Array(repeating: .reservedKey, count: keys.count))
        #expect(objectCodes == Array(repeating: .reservedKey, count: keys.count + 2))
        #expect(ReservedKeys.contains("timestamp") && !ReservedKeys.contains("title"))
    }

    // R7
    @Test func theEngineMetadataSurvivesHostAttempts() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        engine.delegate.willEncode = { coder in try? coder.encode("hacked", forKey: "bundleVersion") }
        try engine.preserve()
        let next = makeEngine(store)
        var version: String?
        next.delegate.shouldRestore = { app in version = app.bundleVersion; return false }
        _ = next.restore()
        #expect(version == "2.1")
    }

    // R6
    @Test func aKeyWrittenTwiceIsRefused() throws {
        let engine = makeEngine()
        let root = controller("root")
        var codes: [AmberError.Code] = []
        root.callbacks.encode = { _, coder in
            try coder.encode("a", forKey: "k")
            do { try coder.encode("b", forKey: "k") } catch { codes.append(code(error)!) }
            for i in 0 ..< 20 { try coder.encode(Int64(i), forKey: "n\(i)") }
            do { try coder.encode(Int64(0), forKey: "n3") } catch { codes.append(code(error)!) }
        }
        try engine.addRoot(root)
        try engine.preserve()
        #expect(codes == [.duplicate, .duplicate])
    }

    // R6 R22: a value refused writes nothing, its key included: a corrected value may follow
    // under the same key.
    @Test func aRefusedValueLeavesItsKeyFree() throws {
        let engine = makeEngine()
        let root = controller("root")
        var codes: [AmberError.Code] = []
        root.callbacks.encode = { _, coder in
            do { try coder.encode(date: .nan, forKey: "when") } catch { codes.append(code(error)!) }
            try coder.encode(date: 1000, forKey: "when")
            do { try coder.encode(.date(.infinity), forKey: "value") } catch { codes.append(code(error)!) }
            try coder.encode(.int(1), forKey: "value")
        }
        try engine.addRoot(root)
        try engine.preserve()
        #expect(codes == [.invalidArgument, .invalidArgument])
    }

    // R6 (issue 41, item 1): the engine's coder refuses an empty key for every value type, as
    // the C layer did alone in 0.2, and nothing is written under it.
    @Test func anEmptyKeyIsRefusedForEveryValueType() throws {
        let engine = makeEngine()
        let root = controller("root")
        let writes: [(StateCoder) throws -> Void] = [
            { c in try c.encode(true, forKey: "") },
            { c in try c.encode(Int64(1), forKey: "") },
            { c in try c.encode(1.5, forKey: "") },
            { c in try c.encode("text", forKey: "") },
            { c in try c.encode(bytes: [1], forKey: "") },
            { c in try c.encode(date: 1000, forKey: "") },
            { c in try c.encode(indexPath: [0, 1], forKey: "") },
            { c in try c.encode(.int(1), forKey: "") },
            { c in try c.encodeValues([("", .int(1))]) },
            { c in try c.encodeReference(to: nil, forKey: "") },
            { c in try c.markSensitive("") },
        ]
        var codes: [AmberError.Code] = []
        root.callbacks.encode = { _, coder in
            for write in writes {
                do { try write(coder) } catch { codes.append(code(error)!) }
            }
        }
        try engine.addRoot(root)
        try engine.preserve()
        #expect(codes == Array(repeating: .invalidArgument, count: writes.count))
    }

    // R7, R6 (issue 41, item 7): an interned key's name is checked once and the answer kept with
    // the key; a reserved or empty one is refused at every write, by every coder and by the
    // batch check, and one admitted is still refused when written twice in one object.
    @Test func anInternedKeyIsRefusedAtEveryWriteOrAdmittedOnce() throws {
        let engine = makeEngine()
        let first = controller("first"), second = controller("second")
        let reserved = ArchiveKey("className"), prefixed = ArchiveKey("amber.mine"), empty = ArchiveKey("")
        let plain = ArchiveKey("n")
        var codes: [AmberError.Code] = []
        let writes: (StateCoder) throws -> Void = { coder in
            for key in [reserved, prefixed, empty, reserved] {
                do { try coder.encode(Int64(1), forKey: key) } catch { codes.append(code(error)!) }
            }
            do { try coder.checkWritable([plain, reserved], label: { "values[\($0)]" }) } catch { codes.append(code(error)!) }
            try coder.encode(Int64(1), forKey: plain)
            do { try coder.encode(Int64(2), forKey: plain) } catch { codes.append(code(error)!) }
        }
        first.callbacks.encode = { _, coder in try writes(coder) }
        second.callbacks.encode = { _, coder in try writes(coder) }
        try engine.addRoot(first)
        try engine.addRoot(second)
        let report = try engine.preserve()
        #expect(report.preservedCount == 2)
        let once: [AmberError.Code] = [.reservedKey, .reservedKey, .invalidArgument, .reservedKey, .reservedKey, .duplicate]
        #expect(codes == once + once)
    }

    // R12 (issue 41, item 1): the engine's decoder refuses an empty key for every value type,
    // as the C layer did alone in 0.2 (a Swift host read nothing, or .notFound).
    @Test func theDecoderRefusesAnEmptyKeyForEveryValueType() throws {
        let store = MemoryStore()
        let first = makeEngine(store)
        let saved = controller("root")
        saved.callbacks.encode = { _, coder in try coder.encode(Int64(1), forKey: "n") }
        try first.addRoot(saved)
        try first.preserve()
        let next = makeEngine(store)
        let root = controller("root")
        try next.addRoot(root)
        let empty = ArchiveKey("")
        let reads: [(StateDecoder) throws -> Void] = [
            { d in _ = try d.decodeBool(forKey: "") },
            { d in _ = try d.decodeInt64(forKey: "") },
            { d in _ = try d.decodeDouble(forKey: "") },
            { d in _ = try d.decodeString(forKey: "") },
            { d in _ = try d.decodeBytes(forKey: "") },
            { d in _ = try d.decodeDate(forKey: "") },
            { d in _ = try d.decodeIndexPath(forKey: "") },
            { d in _ = try d.decodeValue(forKey: "") },
            { d in _ = try d.decodeObject(forKey: "", ofClasses: ["Item"]) },
            { d in _ = try d.decodeReference(forKey: "") },
            { d in _ = try d.decodeInt64(forKey: empty) },
            { d in _ = try d.withDecodedString(forKey: empty) { $0.count } },
        ]
        var codes: [AmberError.Code?] = []
        var restoredN: Int64?
        root.callbacks.decode = { _, decoder in
            restoredN = try decoder.decodeInt64(forKey: "n")
            for read in reads {
                do { try read(decoder) } catch { codes.append(code(error)) }
            }
        }
        #expect(next.restore().allSatisfy { $0.outcome == .restored })
        #expect(restoredN == 1)
        #expect(codes == Array(repeating: .invalidArgument, count: reads.count))
    }

    // R4: a reference refused (its object has no identifier) leaves its key free, as a refused
    // value does.
    @Test func aRefusedReferenceLeavesItsKeyFree() throws {
        let engine = makeEngine()
        let root = controller("root"), anonymous = controller(nil)
        var codes: [AmberError.Code] = []
        root.callbacks.encode = { _, coder in
            do { try coder.encodeReference(to: anonymous, forKey: "other") } catch { codes.append(code(error)!) }
            try coder.encode(Int64(1), forKey: "other")
        }
        try engine.addRoot(root)
        try engine.preserve()
        #expect(codes == [.invalidArgument])
    }

    // R25 R12
    @Test func codingClassObjectsRoundTripSharedAndChecked() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        try registerItems(engine)
        let shared = Item(name: "Rusty Bear", value: 42)
        let root = controller("root"), detail = controller("detail")
        try engine.addRoot(root)
        try root.addChild(detail)
        root.callbacks.encode = { _, coder in
            try coder.encodeObject(shared, forKey: "item")
            try coder.encodeObject(Secret(), forKey: "secret")
            try coder.encodeObject(nil, forKey: "nothing")
        }
        detail.callbacks.encode = { _, coder in try coder.encodeObject(shared, forKey: "item") }
        engine.delegate.willEncode = { coder in try coder.encodeObject(shared, forKey: "current") }
        try engine.preserve()

        let next = makeEngine(store)
        try registerItems(next)
        let root2 = controller("root"), detail2 = controller("detail")
        try next.addRoot(root2)
        try root2.addChild(detail2)
        var items: [Item?] = []
        var secretError: AmberError?
        var appItem: Item?
        root2.callbacks.decode = { _, coder in
            items.append(try coder.decodeObject(forKey: "item", ofClasses: ["Item"]) as? Item)
            #expect(try coder.decodeObject(forKey: "nothing", ofClasses: ["Item"]) == nil)
            do { _ = try coder.decodeObject(forKey: "secret", ofClasses: ["Item"]) } catch { secretError = error as? AmberError }
        }
        detail2.callbacks.decode = { _, coder in items.append(try coder.decodeObject(forKey: "item", ofClasses: ["Item"]) as? Item) }
        next.delegate.didDecode = { app in appItem = try app.decodeObject(forKey: "current", ofClasses: ["Item"]) as? Item }
        let report = next.restore()
        #expect(report.count(of: .restored) == 2)
        #expect(items.count == 2 && items[0]?.name == "Rusty Bear" && items[0]?.value == 42)
        #expect(items[0] === items[1] && items[0] === appItem)  // one object, shared
        #expect(secretError?.code == .typeMismatch)             // secure coding
    }

    // R25
    @Test func anUnregisteredObjectCannotBeEncoded() throws {
        let engine = makeEngine()
        let root = controller("root")
        var code: AmberError.Code?
        root.callbacks.encode = { _, coder in
            do { try coder.encodeObject(Secret(), forKey: "s") } catch { code = (error as? AmberError)?.code }
        }
        try engine.addRoot(root)
        try engine.preserve()
        #expect(code == .invalidArgument)
    }

    // R12 R4
    @Test func referencesDecodeSecurelyAgainstTheAllowedClasses() throws {
        let store = MemoryStore()
        let engine = makeEngine(store)
        let root = controller("root", "RootController")
        let list = controller("list", "ListController")
        let other = controller("other", "SettingsController")
        try engine.addRoot(root)
        try root.addChild(list)
        try root.addChild(other)
        root.callbacks.encode = { _, coder in
            try coder.encodeReference(to: list, forKey: "list")
            try coder.encodeReference(to: other, forKey: "other")
            try coder.encodeReference(to: nil, forKey: "none")
        }
        try engine.preserve()

        let next = makeEngine(store)
        try next.registerClass(name: "FancyListController", superclass: "ListController")
        let root2 = controller("root", "RootController")
        let list2 = controller("list", "FancyListController")
        let other2 = controller("other", "SettingsController")
        try next.addRoot(root2)
        try root2.addChild(list2)
        try root2.addChild(other2)
        var allowed: RestorableObject?
        var nullRef: RestorableObject? = root2
        var refused: [AmberError.Code?] = []
        var messages: [String] = []
        root2.callbacks.decode = { _, coder in
            allowed = try coder.decodeReference(forKey: "list", ofClasses: ["ListController"])
            nullRef = try coder.decodeReference(forKey: "none", ofClasses: ["ListController"])
            for (key, classes) in [("other", ["ListController"]), ("list", ["FancyListController"])] {
                do { _ = try coder.decodeReference(forKey: key, ofClasses: Set(classes)) } catch {
                    refused.append(code(error))
                    messages.append((error as? AmberError)?.message ?? "")
                }
            }
        }
        let report = next.restore()
        #expect(report.allSatisfy { $0.outcome == .restored })
        #expect(allowed === list2)  // a registered subclass of an allowed class
        #expect(nullRef == nil)
        // "other" is archived as SettingsController; "list" is archived as ListController, which
        // is not FancyListController (the archived class counts, not only the object found).
        #expect(refused == [.typeMismatch, .typeMismatch])
        #expect(messages.count == 2 && messages[0].contains("SettingsController") && messages[1].contains("archived as ListController"))
    }

    // R12
    @Test func archiveErrorsMapToEngineCodes() {
        #expect(AmberError(ArchiveError(.corrupt, "x")).code == .corrupt)
        #expect(AmberError(ArchiveError(.notKeyedArchive, "x")).code == .corrupt)
        #expect(AmberError(ArchiveError(.limitExceeded, "x")).code == .limitExceeded)
        #expect(AmberError(ArchiveError(.keyNotFound, "x")).code == .notFound)
        #expect(AmberError(ArchiveError(.typeMismatch, "x")).code == .typeMismatch)
        #expect(AmberError(ArchiveError(.classNotAllowed, "x")).code == .typeMismatch)
        #expect(AmberError(ArchiveError(.invalidValue, "x")).code == .invalidArgument)
        #expect(AmberError(ArchiveError(.callbackFailed, "x")).code == .callbackFailed)
    }
}
