import AmberArchive
@testable import AmberCore
import Foundation
import Testing

/// The rules 0.2 enforced only in the C layer (issue 41, item 1), checked from Swift against the
/// table that the C and Python tests read too (`Tests/rules/abi-rules.table`): each case gives
/// the same status from every host.
@Suite struct RuleTableTests {
    /// One row of the table: a case, the status it must give (a C status name) and its rule.
    struct Row: CustomStringConvertible, Sendable {
        let name: String
        let status: String
        let rule: String
        var description: String { "\(rule) \(name)" }
    }

    /// The rows of the shared table (blank lines and `#` comments skipped).
    static let rows: [Row] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("rules/abi-rules.table")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#"), fields.count == 3 else { return nil }
            return Row(name: fields[0], status: fields[1], rule: fields[2])
        }
    }()

    /// Runs a case on a fresh engine: throws the engine's answer, or returns. False: no such case.
    static func run(_ name: String, on e: Engine) throws(AmberError) -> Bool {
        switch name {
        case "restoration_class_twice":
            try e.registerRestorationClass(name: "Detail", make: nil)
            try e.registerRestorationClass(name: "Detail", make: nil)
        case "restoration_class_empty_name":
            try e.registerRestorationClass(name: "", make: nil)
        case "blueprint_factory_twice":
            try e.registerBlueprintFactory(name: "Main") { _, _, _ in nil }
            try e.registerBlueprintFactory(name: "Main") { _, _, _ in nil }
        case "blueprint_factory_slash":
            try e.registerBlueprintFactory(name: "Main/Detail") { _, _, _ in nil }
        case "subclass_twice":
            try e.registerClass(name: "FancyList", superclass: "List")
            try e.registerClass(name: "FancyList", superclass: "Table")
        case "subclass_same_again":
            try e.registerClass(name: "FancyList", superclass: "List")
            try e.registerClass(name: "FancyList", superclass: "List")
        case "subclass_cycle":
            try e.registerClass(name: "B", superclass: "A")
            try e.registerClass(name: "C", superclass: "B")
            try e.registerClass(name: "A", superclass: "C")
        case "subclass_of_itself":
            try e.registerClass(name: "A", superclass: "A")
        case "subclass_empty_name":
            try e.registerClass(name: "", superclass: "List")
        case "subclass_ok":
            try e.registerClass(name: "B", superclass: "A")
            try e.registerClass(name: "C", superclass: "B")
        case "root_twice":
            let root = controller("root")
            try e.addRoot(root)
            try e.addRoot(root)
        case "root_not_a_controller":
            try e.addRoot(view("root"))
        case "remove_root_not_a_root":
            try e.removeRoot(controller("root"))
        case "batch_reserved_key":
            try inCoder(e) { c throws(AmberError) in try c.encodeValues([("a", .int(1)), ("kind", .int(2))]) }
        case "batch_key_written_before":
            try inCoder(e) { c throws(AmberError) in
                try c.encode(Int64(1), forKey: "a")
                try c.encodeValues([("b", .int(2)), ("a", .int(3))])
            }
        case "batch_all_or_nothing":
            try inCoder(e) { c throws(AmberError) in
                _ = try? c.encodeValues([("a", .int(1)), ("kind", .int(2))])
                try c.encode(Int64(1), forKey: "a")
            }
        case "coder_empty_key":
            try inCoder(e) { c throws(AmberError) in try c.encode(Int64(1), forKey: "") }
        case "batch_empty_key":
            try inCoder(e) { c throws(AmberError) in try c.encodeValues([("a", .int(1)), ("", .int(2))]) }
        case "reference_refused_key_free":
            let anonymous = controller(nil)
            try inCoder(e) { c throws(AmberError) in
                _ = try? c.encodeReference(to: anonymous, forKey: "a")
                try c.encode(Int64(1), forKey: "a")
            }
        case "view_accessors_on_a_controller":
            try controller("list").setViewAccessors(ViewAccessors(kind: .scroll, read: { _, _ in }, apply: { _, _ in }))
        case "text_view_without_text_length":
            try view("notes").setViewAccessors(ViewAccessors(kind: .textView, read: { _, _ in }, apply: { _, _ in }))
        case "association_on_a_controller":
            try controller("list").setModelAssociation(
                ModelAssociation(identifierForIndexPath: { _, _ in nil }, indexPathForIdentifier: { _, _ in nil }))
        case "association_empty_identifier":
            try preserveTable(on: e, identifier: "")
        case "decoder_empty_key":
            try inDecoder { d throws(AmberError) in _ = try d.decodeInt64(forKey: "") }
        case "archiver_key_twice":
            let archiver = DataArchiver(registry: ArchiveClassRegistry())
            try archiver.encodeValues([("k", .int(1))])
            try archiver.encodeValues([("k", .int(2))])
        case "archiver_empty_key":
            try DataArchiver(registry: ArchiveClassRegistry()).encodeValues([("", .int(1))])
        case "user_info_empty_key":
            // The subscript cannot refuse; the post refuses the user info it filled.
            var info = UserInfo()
            info[""] = .int64(1)
            do {
                try e.notificationCenter.post(name: "n", userInfo: info)
            } catch let error as AmberError {
                throw error
            } catch {
                throw AmberError(.callbackFailed, "the post threw a foreign error: \(error)")
            }
        case "archiver_finish_twice":
            let archiver = DataArchiver(registry: ArchiveClassRegistry())
            _ = try archiver.finish()
            _ = try archiver.finish()
        case "coding_class_twice":
            let registry = ArchiveClassRegistry()
            try codingClass(registry, "Item")
            try codingClass(registry, "Item")
        case "coding_class_own_superclass":
            try codingClass(ArchiveClassRegistry(), "Item", superclass: "Item")
        case "remove_child_not_a_child":
            try controller("parent").removeChild(controller("child"))
        case "restoration_parent_a_view":
            try plain("source").setRestorationParent(view("table"))
        case "object_empty_class_name":
            _ = try RestorableObject(kind: .controller, checkedClassName: "", restorationIdentifier: "root")
        case "stack_not_a_controller":
            try view("list").setStack(true)
        case "dismiss_from_a_view":
            try view("list").setPresented(nil)
        case "notification_empty_name":
            do {
                try e.notificationCenter.post(name: "")
            } catch let error as AmberError {
                throw error
            } catch {
                throw AmberError(.callbackFailed, "the post threw a foreign error: \(error)")
            }
        default:
            return false
        }
        return true
    }

    /// Runs `body` with an object's coder, in its encode callback during a preservation: throws
    /// what `body` threw.
    static func inCoder(_ e: Engine, _ body: @escaping (StateCoder) throws(AmberError) -> Void) throws(AmberError) {
        let root = controller("root")
        var thrown: AmberError?
        root.callbacks.encode = { _, coder in
            do throws(AmberError) { try body(coder) } catch { thrown = error }
        }
        try e.addRoot(root)
        do {
            _ = try e.preserve()
        } catch {
            throw AmberError(.misuse, "the preservation the case runs in failed: \(error)")
        }
        if let thrown { throw thrown }
    }

    /// Preserves a root controller holding a table whose first visible item is [0, 1] and whose
    /// model association names every item `identifier`: throws `.callbackFailed` when the table
    /// is left out because its encoding failed (a preservation saves the rest, SPEC R28).
    static func preserveTable(on e: Engine, identifier: String) throws(AmberError) {
        let root = controller("root"), table = view("table", "TableView")
        try table.setViewAccessors(ViewAccessors(kind: .table, read: { _, state in state.firstVisibleItem = [0, 1] }, apply: { _, _ in }))
        try table.setModelAssociation(
            ModelAssociation(identifierForIndexPath: { _, _ in identifier }, indexPathForIdentifier: { _, _ in nil }))
        try root.addView(table)
        try e.addRoot(root)
        let report: PreservationReport
        do {
            report = try e.preserve()
        } catch {
            throw AmberError(.misuse, "the preservation the case runs in failed: \(error)")
        }
        for entry in report where entry.className == "TableView" {
            if case .encodeFailed(let message) = entry.leftOut { throw AmberError(.callbackFailed, message) }
        }
    }

    /// Runs `body` with a root's decoder, in its decode callback, when a second engine on the
    /// store restores what a first one saved: throws what `body` threw.
    static func inDecoder(_ body: @escaping (StateDecoder) throws(AmberError) -> Void) throws(AmberError) {
        let store = MemoryStore()
        let first = makeEngine(store)
        try first.addRoot(controller("root"))
        do {
            _ = try first.preserve()
        } catch {
            throw AmberError(.misuse, "the preservation the case restores failed: \(error)")
        }
        let next = makeEngine(store)
        let root = controller("root")
        var thrown: AmberError?
        var ran = false
        root.callbacks.decode = { _, decoder in
            ran = true
            do throws(AmberError) { try body(decoder) } catch { thrown = error }
        }
        try next.addRoot(root)
        _ = next.restore()
        guard ran else { throw AmberError(.misuse, "the decode callback of the case never ran") }
        if let thrown { throw thrown }
    }

    /// A data object of the coding registry cases.
    final class Item {}

    /// Registers a coding class of `Item`s that writes nothing; throws the registry's answer.
    static func codingClass(_ registry: ArchiveClassRegistry, _ name: String, superclass: String? = nil) throws(AmberError) {
        let cls = ArchiveClass(name: name, superclassName: superclass, encode: { _, _ in }, make: { _ in Item() })
        do throws(ArchiveError) { try registry.register(cls) } catch { throw AmberError(error) }
    }

    /// The C status name of an error code: `.invalidArgument` is `AMBER_INVALID_ARGUMENT`.
    static func statusName(_ code: AmberError.Code) -> String {
        var name = "AMBER"
        for c in code.rawValue {
            if c.isUppercase || name == "AMBER" { name.append("_") }
            name.append(c.uppercased())
        }
        return name
    }

    @Test func tableIsRead() {
        #expect(Self.rows.count >= 10, "Tests/rules/abi-rules.table was not found or has too few rows")
    }

    @Test(arguments: rows) func caseGivesTheTablesStatus(_ row: Row) {
        var status = "AMBER_OK"
        do throws(AmberError) {
            guard try Self.run(row.name, on: makeEngine()) else {
                Issue.record("case \(row.name) of the table has no Swift implementation in RuleTableTests")
                return
            }
        } catch {
            status = Self.statusName(error.code)
        }
        #expect(status == row.status, "\(row.name) (\(row.rule))")
    }

    /// A refused registration leaves the engine as it was: the first class, factory, superclass
    /// and root stay.
    @Test func refusedRegistrationsChangeNothing() throws {
        let e = makeEngine()
        try e.registerClass(name: "FancyList", superclass: "List")
        #expect(throws: AmberError.self) { try e.registerClass(name: "FancyList", superclass: "Table") }
        #expect(e.isClass("FancyList", kindOf: "List") && !e.isClass("FancyList", kindOf: "Table"))
        #expect(throws: AmberError.self) { try e.registerClass(name: "List", superclass: "FancyList") }
        #expect(!e.isClass("List", kindOf: "FancyList"))
        let root = controller("root")
        try e.addRoot(root)
        #expect(throws: AmberError.self) { try e.addRoot(root) }
        #expect(e.roots.count == 1)
        try e.removeRoot(root)
        #expect(e.roots.isEmpty)
    }
}
