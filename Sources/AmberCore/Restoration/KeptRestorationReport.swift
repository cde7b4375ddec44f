/// The last restoration's report as the engine keeps it on disk when asked to
/// (`EngineOptions.keepsRestorationReport`, or `AMBER_KEEP_REPORT=1`), so that a person can find
/// out why a restore did not happen after the process is gone (`amber report`).
///
/// Like the log (SPEC R29) it holds no state values and no key material: restoration paths,
/// class names, kinds, outcomes and the engine's reasons only. A dropped model identifier is
/// archived state, so only how many were dropped is kept.
///
/// The file, `last-restore.report` in the state directory (`StateFiles.reportPath`), is UTF-8
/// text, one item per line, its fields separated by a tab. In every field `%`, tab, line feed,
/// carriage return and the other control characters are written `%XX` (two hex digits), so a
/// field never holds a separator. Format version 1:
///
/// ```
/// amber-restoration-report <TAB> 1
/// app <TAB> <application id>
/// written <TAB> <seconds since 1970-01-01T00:00:00Z, an integer>
/// result <TAB> restored | extended | fresh
/// fresh <TAB> <reason code> <TAB> <reason's message, may be empty>          (fresh only)
/// record <TAB> <outcome code> <TAB> <decode error's message, or empty> <TAB> <kind>
///        <TAB> <class> <TAB> <dropped model identifiers: a count> <TAB> <note, or empty>
///        <TAB> <identifier> <TAB> <position> ...  (each path component; one line per record)
/// note <TAB> <text>
/// end
/// ```
///
/// Reason codes: `no-archive`, `should-restore-declined`, `corrupt-archive`, `crash-loop`,
/// `key-unavailable`, `authentication-failed`, `unreadable-archive`, `discarded-by-host`,
/// `restoration-in-progress`, `extended-restoration-unfinished`. Outcome codes: `restored`,
/// `declined-by-class`, `not-found`, `class-mismatch`, `left-out`, `decode-error`, `duplicate`.
/// Kinds: `controller`, `view`, `object`.
///
/// A reader refuses another format version and a file without its `end` line; it skips lines
/// of a kind it does not know, so that later writers may add some within a version.
public struct KeptRestorationReport: Equatable, Sendable, CustomStringConvertible {
    /// The report's file name in the state directory.
    public static let fileName = "last-restore.report"
    /// The format version this engine writes and reads.
    public static let formatVersion = 1
    /// The first field of the first line.
    static let magic = "amber-restoration-report"
    /// The largest report file read; a larger one is refused with `.limitExceeded`.
    public static let maxBytes = 64 << 20

    /// One archived object and its outcome.
    public struct Record: Equatable, Sendable {
        /// Its restoration path, with stack positions.
        public var path: [PathComponent]
        /// The archived class name.
        public var className: String
        /// The archived kind.
        public var kind: ObjectKind
        /// What became of it.
        public var outcome: RestorationOutcome
        /// The engine's remark on how it was found or why not.
        public var note: String?
        /// How many of its archived model identifiers no longer resolved (SPEC R18).
        public var droppedModelIdentifiers: Int

        /// Creates a record.
        public init(
            path: [PathComponent], className: String, kind: ObjectKind, outcome: RestorationOutcome,
            note: String? = nil, droppedModelIdentifiers: Int = 0
        ) {
            self.path = path
            self.className = className
            self.kind = kind
            self.outcome = outcome
            self.note = note
            self.droppedModelIdentifiers = droppedModelIdentifiers
        }
    }

    /// The application's id.
    public var appID: String
    /// When the report was written: seconds since 1970-01-01T00:00:00Z.
    public var written: Int64
    /// Why nothing was restored, or nil if the archive was restored (in whole or in part).
    public var freshLaunchReason: FreshLaunchReason?
    /// Whether the restoration was extended (SPEC R15).
    public var isExtended: Bool
    /// Each archived object and its outcome, in archive order.
    public var records: [Record]
    /// The restoration's notes.
    public var notes: [String]

    /// What is kept of `report`: everything but the objects, the errors as thrown and the
    /// dropped model identifiers themselves.
    public init(_ report: RestorationReport, appID: String, written: Int64) {
        self.appID = appID
        self.written = written
        freshLaunchReason = report.freshLaunchReason
        isExtended = report.isExtended
        records = report.records.map {
            Record(
                path: $0.components, className: $0.className, kind: $0.kind, outcome: $0.outcome, note: $0.note,
                droppedModelIdentifiers: $0.droppedModelIdentifiers.count)
        }
        notes = report.notes
    }

    /// Whether the launch was fresh.
    public var isFresh: Bool { freshLaunchReason != nil }

    // MARK: Writing

    /// The file's bytes (format `formatVersion`).
    public func encoded() -> [UInt8] {
        var out = ""
        func line(_ fields: [String]) {
            out += fields.map(Self.escape).joined(separator: "\t")
            out += "\n"
        }
        line([Self.magic, String(Self.formatVersion)])
        line(["app", appID])
        line(["written", String(written)])
        if let reason = freshLaunchReason {
            line(["result", "fresh"])
            let (code, message) = Self.code(of: reason)
            line(["fresh", code, message ?? ""])
        } else {
            line(["result", isExtended ? "extended" : "restored"])
        }
        for r in records {
            let (code, message) = Self.code(of: r.outcome)
            var fields = ["record", code, message ?? "", Self.name(of: r.kind), r.className, String(r.droppedModelIdentifiers), r.note ?? ""]
            for c in r.path { fields += [c.identifier, String(c.position)] }
            line(fields)
        }
        for note in notes { line(["note", note]) }
        line(["end"])
        return Array(out.utf8)
    }

    /// Writes the report as `fileName` in `directory`, atomically (a temporary file renamed
    /// over the old report, mode 0600); the directory is created (mode 0700) if missing. Not
    /// synced to disk: the report explains, it is not state.
    /// - Throws: `.io` as the file system refuses.
    public func write(toDirectory directory: String) throws(AmberError) {
        try FileSystem.writeFileAtomically(directory: directory, name: Self.fileName, bytes: encoded(), durable: false)
    }

    // MARK: Reading

    /// Reads the report in a file.
    /// - Throws: `.notFound` without a file; `.io` (also for a path that holds a FIFO, a
    ///   directory, a device); `.limitExceeded` beyond `maxBytes`; `.corrupt` as `init(bytes:)`.
    public static func read(path: String) throws(AmberError) -> KeptRestorationReport {
        guard let bytes = try FileSystem.readFile(path, maxBytes: maxBytes) else {
            throw AmberError(.notFound, "'\(path)' does not exist")
        }
        return try KeptRestorationReport(bytes: bytes)
    }

    /// Reads a report's bytes.
    /// - Throws: `.corrupt` naming the line for anything that is not a report of format
    ///   `formatVersion`: another format, a missing `end`, a line with missing or unreadable
    ///   fields.
    public init(bytes: [UInt8]) throws(AmberError) {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false).map { Self.unescape(String($0)) }
        }
        func corrupt(_ n: Int, _ why: String) -> AmberError {
            AmberError(.corrupt, "not a restoration report of format \(Self.formatVersion): line \(n + 1): \(why)")
        }
        guard let first = lines.first, first.first == Self.magic else {
            throw AmberError(.corrupt, "not a restoration report: it does not start with '\(Self.magic)'")
        }
        guard first.count >= 2, first[1] == String(Self.formatVersion) else {
            throw AmberError(.corrupt, "a restoration report of format \(first.count >= 2 ? first[1] : "(none)"); this version of Amber reads format \(Self.formatVersion)")
        }
        var appID: String?
        var written: Int64?
        var result: String?
        var reason: FreshLaunchReason?
        var records: [Record] = []
        var notes: [String] = []
        var ended = false
        for n in 1 ..< lines.count {
            let f = lines[n]
            if ended {
                guard f == [""] else { throw corrupt(n, "text after 'end'") }
                continue
            }
            func field(_ i: Int) throws(AmberError) -> String {
                guard i < f.count else { throw corrupt(n, "'\(f[0])' has \(f.count - 1) field(s), fewer than it needs") }
                return f[i]
            }
            switch f[0] {
            case "app": appID = try field(1)
            case "written":
                guard let t = Int64(try field(1)) else { throw corrupt(n, "the time is not a whole number of seconds") }
                written = t
            case "result":
                let r = try field(1)
                guard ["fresh", "restored", "extended"].contains(r) else { throw corrupt(n, "unknown result '\(r)'") }
                result = r
            case "fresh":
                guard let r = Self.reason(code: try field(1), message: try field(2)) else {
                    throw corrupt(n, "unknown reason '\(f[1])'")
                }
                reason = r
            case "record":
                guard let outcome = Self.outcome(code: try field(1), message: try field(2)) else {
                    throw corrupt(n, "unknown outcome '\(f[1])'")
                }
                let kindName = try field(3)
                guard let kind = ObjectKind.allCases.first(where: { Self.name(of: $0) == kindName }) else {
                    throw corrupt(n, "unknown kind '\(kindName)'")
                }
                let className = try field(4)
                guard let dropped = Int(try field(5)), dropped >= 0 else { throw corrupt(n, "the dropped count is not a count") }
                let note = try field(6)
                guard (f.count - 7) % 2 == 0 else { throw corrupt(n, "a path component without its position") }
                var path: [PathComponent] = []
                path.reserveCapacity((f.count - 7) / 2)
                var i = 7
                while i < f.count {
                    guard let position = Int(f[i + 1]), position >= 0 else { throw corrupt(n, "a position is not a count") }
                    path.append(PathComponent(f[i], position: position))
                    i += 2
                }
                records.append(Record(
                    path: path, className: className, kind: kind, outcome: outcome, note: note.isEmpty ? nil : note,
                    droppedModelIdentifiers: dropped))
            case "note": notes.append(try field(1))
            case "end": ended = true
            default: continue  // a line of a later writer of this format
            }
        }
        guard ended else { throw AmberError(.corrupt, "not a whole restoration report: its 'end' line is missing") }
        guard let appID, let written, let result else {
            throw AmberError(.corrupt, "not a whole restoration report: the 'app', 'written' or 'result' line is missing")
        }
        guard (result == "fresh") == (reason != nil) else {
            throw AmberError(.corrupt, "the report's result '\(result)' and its 'fresh' line disagree")
        }
        self.appID = appID
        self.written = written
        self.freshLaunchReason = reason
        self.isExtended = result == "extended"
        self.records = records
        self.notes = notes
    }

    // MARK: Text

    /// Several lines, as `RestorationReport.description`: a summary, one line per record
    /// (`outcome  path  class (kind)`, with any note), then the notes.
    public var description: String { lines().joined(separator: "\n") }

    /// The lines of `description`, each text taken from the file (identifiers, class names,
    /// messages, notes) passed through `text` first: a tool makes them printable with it.
    public func lines(text: (String) -> String = { $0 }) -> [String] {
        var lines: [String] = []
        if let reason = freshLaunchReason {
            lines.append("fresh launch: \(text(reason.description))")
        } else {
            let restored = records.reduce(0) { $0 + ($1.outcome.isRestored ? 1 : 0) }
            lines.append("restored \(restored) of \(records.count) archived objects\(isExtended ? " (extended)" : "")")
        }
        for r in records {
            var line = "  \(text(r.outcome.description))  \(text(PathComponent.describe(r.path)))  \(text(r.className)) (\(r.kind))"
            if let note = r.note { line += "  — \(text(note))" }
            lines.append(line)
            if r.droppedModelIdentifiers > 0 {
                lines.append("    dropped model identifiers: \(r.droppedModelIdentifiers)")
            }
        }
        for note in notes { lines.append("  note: \(text(note))") }
        return lines
    }

    // MARK: Codes

    /// A reason's code, and its message if it has one.
    public static func code(of reason: FreshLaunchReason) -> (code: String, message: String?) {
        switch reason {
        case .noArchive: return ("no-archive", nil)
        case .shouldRestoreDeclined: return ("should-restore-declined", nil)
        case .corruptArchive(let m): return ("corrupt-archive", m)
        case .crashLoop: return ("crash-loop", nil)
        case .keyUnavailable(let m): return ("key-unavailable", m)
        case .authenticationFailed(let m): return ("authentication-failed", m)
        case .unreadableArchive(let m): return ("unreadable-archive", m)
        case .launchGuardUnusable(let m): return ("launch-guard-unusable", m)
        case .otherApplication(let m): return ("other-application", m)
        case .discardedByHost: return ("discarded-by-host", nil)
        case .restorationInProgress: return ("restoration-in-progress", nil)
        case .extendedRestorationUnfinished: return ("extended-restoration-unfinished", nil)
        }
    }

    /// The reason a code names, or nil.
    static func reason(code: String, message: String) -> FreshLaunchReason? {
        switch code {
        case "no-archive": return .noArchive
        case "should-restore-declined": return .shouldRestoreDeclined
        case "corrupt-archive": return .corruptArchive(message)
        case "crash-loop": return .crashLoop
        case "key-unavailable": return .keyUnavailable(message)
        case "authentication-failed": return .authenticationFailed(message)
        case "unreadable-archive": return .unreadableArchive(message)
        case "launch-guard-unusable": return .launchGuardUnusable(message)
        case "other-application": return .otherApplication(message)
        case "discarded-by-host": return .discardedByHost
        case "restoration-in-progress": return .restorationInProgress
        case "extended-restoration-unfinished": return .extendedRestorationUnfinished
        default: return nil
        }
    }

    /// An outcome's code, and its message if it has one.
    public static func code(of outcome: RestorationOutcome) -> (code: String, message: String?) {
        switch outcome {
        case .restored: return ("restored", nil)
        case .declinedByClass: return ("declined-by-class", nil)
        case .notFound: return ("not-found", nil)
        case .classMismatch: return ("class-mismatch", nil)
        case .leftOut: return ("left-out", nil)
        case .decodeError(let m): return ("decode-error", m)
        case .duplicate: return ("duplicate", nil)
        case .migrated(let from, let to): return ("migrated", "\(from) \(to)")
        case .declinedVersion: return ("declined-version", nil)
        }
    }

    /// The outcome a code names, or nil.
    static func outcome(code: String, message: String) -> RestorationOutcome? {
        switch code {
        case "restored": return .restored
        case "declined-by-class": return .declinedByClass
        case "not-found": return .notFound
        case "class-mismatch": return .classMismatch
        case "left-out": return .leftOut
        case "decode-error": return .decodeError(message)
        case "duplicate": return .duplicate
        case "migrated":
            let versions = message.split(separator: " ").compactMap { Int($0) }
            guard versions.count == 2 else { return nil }
            return .migrated(from: versions[0], to: versions[1])
        case "declined-version": return .declinedVersion
        default: return nil
        }
    }

    /// `controller`, `view` or `object`.
    public static func name(of kind: ObjectKind) -> String {
        switch kind {
        case .controller: return "controller"
        case .view: return "view"
        case .object: return "object"
        }
    }

    // MARK: Escaping

    /// `%`, and every control character, as `%XX`.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text `escape` made; a `%` not followed by two hex digits stays as it is.
    static func unescape(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30 ... 0x39: return b - 0x30
            case 0x41 ... 0x46: return b - 0x41 + 10
            case 0x61 ... 0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < utf8.count {
            if utf8[i] == 0x25, i + 2 < utf8.count, let h = hex(utf8[i + 1]), let l = hex(utf8[i + 2]) {
                bytes.append(h << 4 | l)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
