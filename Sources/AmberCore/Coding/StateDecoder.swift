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
    public private(set) var recordIndex: Int

    convenience init(session: RestoreSession, record: Int) {
        self.init(session: session, record: record, unarchiver: session.unarchiver, uid: session.records[record].stateUID)
    }

    /// A decoder of record `record` reading the state `uid` of `unarchiver`: a migrated state
    /// (SPEC R30), or the archived one when the migration reads it.
    init(session: RestoreSession, record: Int, unarchiver: KeyedUnarchiver, uid: Int) {
        self.session = session
        self.recordIndex = record
        super.init(core: DecoderCore(unarchiver: unarchiver, uid: uid, owner: .restoring(session, record)))
        core.session = session
    }

    /// Points a decoder that nothing outside the engine holds any more (its callback over) at
    /// record `record`, active again: the engine makes one decoder per callback only when the
    /// host kept the previous one (`RestoreSession.decoder(record:)`).
    func reuse(record: Int) {
        recordIndex = record
        core.reset(uid: session.records[record].stateUID, record: record)
    }

    /// The restoration path of the object being restored.
    public var restorationPath: [String] { session.path(ofRecord: recordIndex) }

    /// The restoration path of the object being restored with each component's stack position
    /// (SPEC R3): a lookup callback is given the identifiers alone, and tells apart the child
    /// `X` of the first `A` of a stack from that of the second `A` by the positions here.
    public var restorationComponents: [PathComponent] { session.paths.components(recordIndex) }

    // What the record says of the object, readable by every lookup callback (restoration class,
    // delegate, blueprint factory) so that it can tell what it is asked for (SPEC R10), and by
    // decode callbacks.

    /// The archived kind.
    public var recordKind: ObjectKind { session.records[recordIndex].kind }
    /// The archived class name.
    public var recordClassName: String { session.records[recordIndex].className }
    /// The archived blueprint identifier (UIKit's storyboard), if any.
    public var recordBlueprint: String? { session.records[recordIndex].blueprintIdentifier }
    /// The archived position among the same-identifier children of a stack (SPEC R3).
    public var recordPosition: Int { session.records[recordIndex].position }

    // The restore's paths as parent links, for callers that build paths incrementally from one
    // record to the next (records come parents first): a record's path is its parent's path
    // followed by its last component; a record without parent has its whole path.

    /// A random id of the restore this decoder belongs to: record indices mean something only
    /// within one restore.
    public var restorationID: UInt64 { session.id }

    /// The record that record `index` of this restore hangs from, or -1 (no parent, or no
    /// such record).
    public func restorationParent(ofRecord index: Int) -> Int { session.paths.parent(index) }

    /// The last component of the path of record `index` of this restore, its identifier ("" for
    /// no such record).
    public func restorationComponent(ofRecord index: Int) -> String { session.paths.identifier(index) }

    /// The whole path of record `index` of this restore ([] for no such record).
    public func restorationPath(ofRecord index: Int) -> [String] {
        index >= 0 && index < session.paths.count ? session.path(ofRecord: index) : []
    }
}
