@testable import AmberCore
import Testing

/// An item store shown as rows of `depth`-long index paths: depth-1 leading fixed indexes, then the row.
final class ItemStore {
    var keys: [String]
    let depth: Int
    var pathCalls = 0
    init(_ keys: [String], depth: Int = 2) {
        self.keys = keys
        self.depth = depth
    }
    func path(_ row: Int) -> [Int] { Array(1 ..< depth) + [row] }
    var association: ModelAssociation {
        ModelAssociation(
            identifierForIndexPath: { [unowned self] _, path in
                guard path.count == depth, let row = path.last, row < keys.count else { return nil }
                return keys[row]
            },
            indexPathForIdentifier: { [unowned self] _, id in
                pathCalls += 1
                return keys.firstIndex(of: id).map { path($0) }
            })
    }
}

@Suite struct ModelAssociationTests {
    /// A table selecting rows 3 (D) and 5 (F), first visible row 2 (C); between the runs B
    /// (before D) and F are deleted and X is appended.
    func tableRun(depth: Int, associateAfter: Bool = true) throws -> (ViewState?, RestorationRecord) {
        let before = ItemStore(["A", "B", "C", "D", "E", "F", "G", "H"], depth: depth)
        let after = ItemStore(["A", "C", "D", "E", "G", "H", "X"], depth: depth)
        var state = ViewState(kind: .table)
        state.selectedItems = [before.path(3), before.path(5)]
        state.firstVisibleItem = before.path(2)
        state.contentOffset = ViewPoint(x: 0, y: 240)
        var run = 0
        let (_, probes, report) = try viewRoundTrip(
            { run += 1; return [("table", ViewProbe(state))] },
            configure: { v, _ in try v.setModelAssociation(before.association) },
            configureRestored: { v, _ in if associateAfter { try v.setModelAssociation(after.association) } })
        withExtendedLifetime((before, after)) {}
        return (probes[0].applied.first, try #require(report.record(forPath: ["root", "items", "table"])))
    }

    // R18
    @Test(arguments: [1, 2, 3, 7]) func movedRowsAreStillSelected(depth: Int) throws {
        let (applied, record) = try tableRun(depth: depth)
        let s = try #require(applied)
        let store = ItemStore([], depth: depth)
        #expect(s.selectedItems == [store.path(2)])  // D moved from row 3 to row 2; F is gone
        #expect(s.firstVisibleItem == store.path(1))  // C moved from row 2 to row 1
        #expect(s.contentOffset == ViewPoint(x: 0, y: 240))
        #expect(record.outcome == .restored)
        #expect(record.droppedModelIdentifiers == ["F"])
    }

    // R18
    @Test func withoutAnAssociationAtRestoreEveryIdentifierIsDropped() throws {
        let (applied, record) = try tableRun(depth: 2, associateAfter: false)
        let s = try #require(applied)
        #expect(s.selectedItems == [])
        #expect(s.firstVisibleItem == nil)
        #expect(record.droppedModelIdentifiers == ["D", "F", "C"])
        #expect(record.note?.contains("no model association") == true)
    }

    // R18
    @Test func withoutAnAssociationIndexPathsAreArchivedAsTheyAre() throws {
        var state = ViewState(kind: .collection)
        state.selectedItems = [[7], [1, 4], [2, 0, 9]]
        state.firstVisibleItem = [2, 0, 9]
        let store = ItemStore(["A"], depth: 2)
        let (_, probes, report) = try viewRoundTrip(
            { [("grid", ViewProbe(state))] },
            configureRestored: { v, _ in try v.setModelAssociation(store.association) })
        #expect(probes[0].applied.first?.selectedItems == [[7], [1, 4], [2, 0, 9]])
        #expect(probes[0].applied.first?.firstVisibleItem == [2, 0, 9])
        #expect(store.pathCalls == 0)  // index paths are not looked up
        #expect(report[report.count - 1].droppedModelIdentifiers.isEmpty)
    }

    // R18
    @Test func anItemWithoutAnIdentifierIsArchivedAsItsIndexPath() throws {
        let store = ItemStore(["A", "B"], depth: 2)
        var state = ViewState(kind: .table)
        state.selectedItems = [[1, 1], [0, 9]]  // B, and a row past the store: no identifier
        let (_, probes, report) = try viewRoundTrip(
            { [("t", ViewProbe(state))] },
            configure: { v, _ in try v.setModelAssociation(store.association) },
            between: { store.keys = ["B", "A"] },
            configureRestored: { v, _ in try v.setModelAssociation(store.association) })
        #expect(probes[0].applied.first?.selectedItems == [[1, 0], [0, 9]])
        #expect(report.record(forPath: ["root", "items", "t"])?.droppedModelIdentifiers == [])
    }

    // R18 R12
    @Test func anAssociationGivingABadIndexPathIsADecodeError() throws {
        var state = ViewState(kind: .table)
        state.selectedItems = [[0, 0]]
        let store = ItemStore(["A"], depth: 2)
        let (_, probes, report) = try viewRoundTrip(
            { [("t", ViewProbe(state))] },
            configure: { v, _ in try v.setModelAssociation(store.association) },
            configureRestored: { v, _ in
                try v.setModelAssociation(ModelAssociation(identifierForIndexPath: { _, _ in nil }, indexPathForIdentifier: { _, _ in [-3] }))
            })
        #expect(probes[0].applied.isEmpty)
        guard case .decodeError(let m) = try #require(report.record(forPath: ["root", "items", "t"])).outcome else {
            Issue.record("expected a decode error")
            return
        }
        #expect(m.contains("negative index"))
    }

    // R18 R16
    @Test func theReportTextListsDroppedIdentifiers() throws {
        let (_, record) = try tableRun(depth: 2)
        let report = RestorationReport(records: [record])
        #expect(report.description.contains("dropped model identifiers: F"))
    }
}
