import AmberArchive

extension Engine {
    /// Applies a restored view's standard state (SPEC R17, R18), after its decode callback has
    /// run, in the view's own state object (the unarchiver is positioned on it):
    ///
    /// 1. the archived state is read (none: nothing to do);
    /// 2. the view must have accessors of the archived kind, else the state is not applied and
    ///    the record's note says why;
    /// 3. items archived as model identifiers are looked up through the view's model
    ///    association; those that resolve to no index path (or a view without an association)
    ///    are dropped and listed in `record.droppedModelIdentifiers`; index paths are kept;
    /// 4. a selected range that no longer fits the text (`ViewAccessors.textLength`) becomes
    ///    no selection, noted in the record;
    /// 5. the accessors' apply.
    ///
    /// - Throws: `.corrupt` for a malformed archived state; what the host's callbacks throw.
    func applyViewState(_ object: RestorableObject, _ u: KeyedUnarchiver, _ record: inout RestorationRecord) throws {
        guard object.kind == .view, let archived = try ViewStateArchive.decode(from: u) else { return }
        var state = archived.state
        guard let accessors = object.viewAccessors else {
            record.addNote("its standard state (\(state.kind)) was archived, but the view has no accessors: not applied")
            return
        }
        guard accessors.kind == state.kind else {
            record.addNote("its standard state was archived for kind \(state.kind); the view is now of kind \(accessors.kind): not applied")
            return
        }
        var dropped: [String] = []
        func resolve(_ item: ArchivedItem) throws -> [Int]? {
            switch item {
            case .indexPath(let p): return p
            case .modelIdentifier(let id):
                if let association = object.modelAssociation, let path = try association.indexPathForIdentifier(object, id) {
                    do { try ViewState.checkIndexPath(path, "the index path given for model identifier '\(id)'") } catch {
                        throw AmberError(error.code, "the model association of '\(object.describe)': \(error.message)")
                    }
                    return path
                }
                if !dropped.contains(id) { dropped.append(id) }
                return nil
            }
        }
        if let items = archived.selectedItems {
            var paths: [[Int]] = []
            paths.reserveCapacity(items.count)
            for item in items { if let p = try resolve(item) { paths.append(p) } }
            state.selectedItems = paths
        }
        if let item = archived.firstVisibleItem { state.firstVisibleItem = try resolve(item) }
        if !dropped.isEmpty {
            record.droppedModelIdentifiers = dropped
            record.addNote(object.modelAssociation == nil
                ? "model identifiers archived, but the view has no model association: \(dropped.count) dropped"
                : "\(dropped.count) model identifier\(dropped.count == 1 ? " no longer resolves" : "s no longer resolve"): dropped")
        }
        // A text kind always has `textLength` (`RestorableObject.setViewAccessors` refuses one without).
        if let range = state.selectedRange, state.kind.hasText, let textLength = accessors.textLength {
            let length = try textLength(object)
            if !range.fits(textLength: length) {
                state.selectedRange = nil
                record.addNote("the selected range \(range.location)+\(range.length) no longer fits the text (\(length)): no selection")
            }
        }
        try accessors.apply(object, state)
    }
}

extension RestorationRecord {
    /// Appends a remark to the note.
    mutating func addNote(_ text: String) {
        note = note.map { $0 + "; " + text } ?? text
    }
}
