// The small interface the harnesses preserve (to make seeds) and restore: a navigation stack
// with two lists of the same identifier (positions), a table view, a plain data source, a
// presented detail made by a restoration class, a settings screen made by a blueprint factory,
// an object given by the delegate, one declined by its class; coded values of every type, a
// coding class of the host's own (R25) and references between objects (R4).

import AmberArchive
import AmberCore

/// A host data object archived through a coding class.
final class Item {
    var name = ""
    var value: Int64 = 0
    var next: Item?
}

/// What the host keeps of a restored object: every value its decode callback read.
final class HostState {
    var values: [String] = []
    /// An object the encode callback references (SPEC R4; a plain object is preserved only
    /// when something references it).
    weak var reference: RestorableObject?
}

enum FuzzInterface {
    static let itemClass = "BNRItem"
    static let bundleVersion = "fuzz 1"

    static let codingClasses: ArchiveClassRegistry = {
        let registry = ArchiveClassRegistry()
        try! registry.register(ArchiveClass(
            name: itemClass,
            encode: { object, archiver in
                let item = object as! Item
                archiver.encode(item.name, forKey: "itemName")
                archiver.encode(item.value, forKey: "valueInDollars")
                if let next = item.next { try archiver.encodeObject(next, forKey: "next") }
            },
            make: { un in
                let item = Item()
                item.name = (try? un.decodeString(forKey: "itemName")) ?? ""
                item.value = (try? un.decodeInt64(forKey: "valueInDollars")) ?? 0
                return item
            },
            decode: { object, un in
                // Not kept: decoded graphs may be cyclic (LeakSanitizer would blame the harness).
                _ = try? un.decodeObject(forKey: "next", ofClasses: [itemClass])
                _ = object
            }), for: Item.self)
        return registry
    }()

    /// An engine on `store` with the harnesses' classes, factories and delegate. `log` receives
    /// what the callbacks saw.
    static func engine(store: any ArchiveStore, envelope: any ArchiveEnvelope, limits: ArchiveLimits = .default) throws -> Engine {
        let engine = Engine(
            configuration: EngineConfiguration(
                appID: "org.amber.fuzz", bundleVersion: bundleVersion, interfaceIdiom: "desktop", store: store,
                limits: limits, envelope: envelope, systemVersion: "fuzz-os 1"),
            codingClasses: codingClasses)
        engine.delegate.shouldSave = { app in
            (try? app.encode("1.0", forKey: "appVersion")) != nil
        }
        engine.delegate.shouldRestore = { app in
            _ = app.bundleVersion
            _ = app.timestamp
            for key in app.allKeys() { _ = try? app.decodeValue(forKey: key) }
            return true
        }
        engine.delegate.didDecode = { app in _ = try? app.decodeString(forKey: "appVersion") }
        engine.delegate.objectForPath = { path, coder in
            _ = coder.allKeys()
            guard let last = path.last else { return nil }
            if last == "Extra" { return object(.view, "ExtraView", last) }
            if last == "Items" || last == "Inspector" || last.hasPrefix("Level") {
                return object(.controller, "ListController", last)
            }
            return nil
        }
        try engine.registerClass(name: "ListController", superclass: "ViewController")
        try engine.registerClass(name: "TableView", superclass: "ScrollView")
        try engine.registerRestorationClass(name: "DetailRestorer", superclass: nil) { path, coder in
            _ = try? coder.decodeString(forKey: "title")
            return object(.controller, "DetailController", path.last ?? "Detail")
        }
        try engine.registerRestorationClass(name: "Decliner", superclass: nil) { _, _ in nil }
        try engine.registerRestorationClass(name: "Thrower", superclass: nil) { _, _ in
            throw AmberError(.callbackFailed, "the class refuses")
        }
        try engine.registerBlueprintFactory(name: "Main") { blueprint, path, coder in
            _ = coder.containsValue(forKey: "tab")
            return object(.controller, "SettingsController", path.last ?? blueprint)
        }
        return engine
    }

    /// An object whose callbacks write `values` (at preservation) and read back every key as
    /// every type (at restoration), references and coding-class objects included.
    static func object(
        _ kind: ObjectKind, _ className: String, _ id: String?, restorationClass: String? = nil,
        blueprint: String? = nil, stack: Bool = false, values: [String: ArchiveValue] = [:],
        item: Item? = nil
    ) -> RestorableObject {
        let state = HostState()
        var callbacks = RestorableCallbacks()
        callbacks.encode = { _, coder in
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { try coder.encode(value, forKey: key) }
            if let item { try coder.encodeObject(item, forKey: "item") }
            if let reference = state.reference { try coder.encodeReference(to: reference, forKey: "ref") }
        }
        callbacks.decode = { _, coder in
            for key in coder.allKeys() {
                if let v = try? coder.decodeValue(forKey: key) { state.values.append("\(key)=\(v)") }
                _ = try? coder.decodeString(forKey: key)
                _ = try? coder.decodeInt(forKey: key)
                _ = try? coder.decodeDouble(forKey: key)
                _ = try? coder.decodeBytes(forKey: key)
                _ = try? coder.decodeDate(forKey: key)
                _ = try? coder.decodeIndexPath(forKey: key)
                _ = try? coder.decodeObject(forKey: key, ofClasses: [itemClass])
                if let target = try? coder.decodeReference(forKey: key) { _ = target.restorationPath }
                _ = try? coder.decodeReference(forKey: key, ofClasses: ["ViewController"])
            }
        }
        callbacks.finishedRestoring = { o in _ = o.restorationPath }
        return RestorableObject(
            kind: kind, className: className, restorationIdentifier: id, restorationClassName: restorationClass,
            blueprintIdentifier: blueprint, isStackContainer: stack, host: state, callbacks: callbacks)
    }

    /// Makes `object`'s encode callback write a reference to `target` under "ref".
    static func link(_ object: RestorableObject, to target: RestorableObject) {
        (object.host as? HostState)?.reference = target
    }

    /// What the host builds at every launch (found by implicit lookup at restoration): the
    /// navigation stack and its two lists, with their views and data sources. Returns the
    /// objects made (engines hold plain objects weakly: the host keeps them).
    @discardableResult
    static func defaultInterface(into engine: Engine, values: [String: ArchiveValue] = [:]) throws -> [RestorableObject] {
        let root = object(.controller, "NavigationController", "Root", stack: true, values: values)
        try engine.addRoot(root)
        var made = [root]
        for n in 0 ..< 2 {
            let list = object(.controller, "ListController", "List", values: ["row": .int(Int64(n))])
            try root.addChild(list)
            let table = object(.view, "TableView", "Table", values: ["offset": .double(12.5 * Double(n))])
            try list.addView(table)
            let source = object(.object, "DataSource", "Source", values: ["cursor": .string("item-\(n)")])
            try source.setRestorationParent(list)
            link(list, to: source)
            made += [list, table, source]
        }
        return made
    }
}
