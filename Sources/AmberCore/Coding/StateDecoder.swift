import AmberArchive

/// The coder of one object at restoration: reads back what its `StateCoder` wrote (SPEC R12).
///
/// Decoding is type-checked and never traps: a missing key throws `AmberError(.notFound)`, a
/// value of another type `.typeMismatch`, a damaged archive `.corrupt`. Objects of coding
/// classes are checked against the classes the caller allows (secure coding). A decoder is valid
/// only during the callback it was given to (`.misuse` afterwards).
public final class StateDecoder: KeyedStateDecoder {
    let session: RestoreSession
    /// The index of the object's record in the archive.
    @exclusivity(unchecked) public private(set) var recordIndex: Int

    init(session: RestoreSession, record: Int) {
        self.session = session
        self.recordIndex = record
        super.init(core: DecoderCore(
            unarchiver: session.unarchiver, uid: session.records[record].stateUID,
            owner: .restoring(session, record)))
    }

    /// Points a decoder that nothing outside the engine holds any more (its callback over) at
    /// record `record`, active again: the engine makes one decoder per callback only when the
    /// host kept the previous one (`RestoreSession.decoder(record:)`).
    func reuse(record: Int) {
        recordIndex = record
        core.reset(uid: session.records[record].stateUID, owner: .restoring(session, record))
    }

    /// The restoration path of the object being restored.
    public var restorationPath: [String] { session.path(ofRecord: recordIndex) }

    // The restore's paths as parent links, for callers that build paths incrementally from one
    // record to the next (records come parents first): a record's path is its parent's path
    // followed by its last component; a record without parent has its whole path.

    /// A random id of the restore this decoder belongs to: record indices mean something only
    /// within one restore.
    public var restorationID: UInt64 { session.id }

    /// The record that record `index` of this restore hangs from, or -1 (no parent, or no
    /// such record).
    public func restorationParent(ofRecord index: Int) -> Int { session.paths.parent(index) }

    /// The last component of the path of record `index` of this restore ("" for no such record).
    public func restorationComponent(ofRecord index: Int) -> String { session.paths.component(index) }

    /// The whole path of record `index` of this restore ([] for no such record).
    public func restorationPath(ofRecord index: Int) -> [String] {
        index >= 0 && index < session.paths.count ? session.path(ofRecord: index) : []
    }

    /// Decodes a reference written by `StateCoder.encodeReference(to:forKey:)` (SPEC R4): the
    /// object restored for the referenced path, or nil if the reference is null or that object
    /// was not restored (or not created yet: references resolve fully in decode callbacks,
    /// which run once every object exists).
    /// - Throws: `.notFound` for a missing key; `.typeMismatch` if the value is not a reference;
    ///   `.corrupt` for a reference to no record.
    public func decodeReference(forKey key: String) throws(AmberError) -> RestorableObject? {
        guard let index = try referenceIndex(forKey: key) else { return nil }
        return session.objects[index]
    }

    /// Decodes a reference as `decodeReference(forKey:)` does, refusing it unless the referenced
    /// object is of one of `classes` or a registered subclass of one (secure decoding, SPEC R12):
    /// both the class the archive records for it and, if an object was found for it, that
    /// object's class. A null reference is nil.
    /// - Throws: `.typeMismatch` for a class not allowed (the message names it and the classes
    ///   allowed); as `decodeReference(forKey:)` otherwise.
    public func decodeReference(forKey key: String, ofClasses classes: Set<String>) throws(AmberError) -> RestorableObject? {
        guard let index = try referenceIndex(forKey: key) else { return nil }
        let record = session.records[index]
        let hierarchy = session.hierarchy
        func allowed(_ name: String) -> Bool { classes.contains { hierarchy.isKind(name, of: $0) } }
        let path = "/" + session.path(ofRecord: index).joined(separator: "/")
        guard allowed(record.className) else {
            throw AmberError(
                .typeMismatch,
                "the reference under key '\(key)' names \(path), archived as \(record.className), which is not among the allowed classes \(classes.sorted())")
        }
        let object = session.objects[index]
        if let object, !allowed(object.className) {
            throw AmberError(
                .typeMismatch,
                "the reference under key '\(key)' names \(path), restored as \(object.className), which is not among the allowed classes \(classes.sorted())")
        }
        return object
    }

    /// The record index a reference names, or nil for a null reference.
    private func referenceIndex(forKey key: String) throws(AmberError) -> Int? {
        let index: Int? = try core.read { u in
            try u.decodeObject(forKey: key) { (r: KeyedUnarchiver, className: String) throws -> Int in
                guard className == ArchiveLayout.referenceClass else {
                    throw AmberError(.typeMismatch, "the value for key '\(key)' is \(className == "NSString" ? "a string" : "an object of class \(className)"), not a reference")
                }
                return Int(truncatingIfNeeded: try r.decodeInt64(forKey: ArchiveLayout.referenceIndex))
            }
        }
        guard let index else { return nil }
        guard index >= 0, index < session.records.count else {
            throw AmberError(.corrupt, "the reference under key '\(key)' names record \(index); the archive has \(session.records.count)")
        }
        return index
    }
}
