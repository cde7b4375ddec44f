import AmberArchive

/// What an object's encode callback wrote, kept so that a later preservation can write it again
/// without calling the callback (SPEC R32: only dirty objects are encoded again).
///
/// Only plain values are kept: a state that encodes an object of a coding class or a reference
/// to a restorable object (whose record index changes with the tree) is not reusable, and its
/// object is encoded again each time. Written again, the entries make the same archive as the
/// callback did (`StateRecordingTests`).
struct StateRecording {
    /// The entries in the order written.
    let entries: [(key: String, value: ArchiveValue)]
    /// The engine's recording epoch when it was made (`Engine.recordingEpoch`): a recording of
    /// another epoch is stale.
    let epoch: UInt64

    /// Writes the entries into an object's state.
    func replay(into archiver: KeyedArchiver) {
        for entry in entries { archiver.encode(entry.value, forKey: entry.key) }
    }
}

/// Collects what a coder writes while its callback runs (`KeyedStateCoder.recorder`).
final class StateRecorder {
    private(set) var entries: [(key: String, value: ArchiveValue)] = []
    /// False once something was written that cannot be written again from a value.
    private(set) var isReusable = true

    func add(_ key: String, _ value: ArchiveValue) {
        guard isReusable else { return }
        entries.append((key, value))
    }

    /// Something was written that the recording cannot hold: the state is not reusable.
    func giveUp() {
        isReusable = false
        entries = []
    }

    /// Starts again, for the next object.
    func reset() {
        entries.removeAll(keepingCapacity: true)
        isReusable = true
    }

    /// The recording, if the state is reusable.
    func recording(epoch: UInt64) -> StateRecording? {
        isReusable ? StateRecording(entries: entries, epoch: epoch) : nil
    }

    /// A string from its UTF-8 bytes, as the archiver stores it.
    static func string(_ utf8: Span<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        for i in utf8.indices { bytes.append(utf8[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
