import AmberArchive
import AmberCore
import ArgumentParser
import Foundation

extension Amber {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a restoration archive's tree: each object's path, class, kind and state.",
            discussion: """
                Opens a restoration archive (one stored without encryption as it is, an \
                encrypted one with --key-file), reads it as the engine does at restoration, and \
                prints the application state (bundle version, interface idiom, timestamp, system \
                version, the host's keys), the snapshot, then every archived object in archive \
                order, indented by depth: its path, class, kind, relation, restoration class and \
                blueprint, and each key of its state with its value. References to restorable \
                objects are shown by the path they name. --json prints the same as one JSON \
                document; --dot draws the tree as a Graphviz graph (identifiers, classes, kinds \
                and the number of keys of each state; `amber inspect --dot ... | dot -Tsvg`). \
                --sizes prints, instead of the values, the bytes each object's record takes in \
                the archive and the bytes of each key of its state, the largest objects last \
                (the size budgets, R31). Nothing is restored: no host code runs.

                With --app, the archive and its key are those of an engine opened with the \
                default options for that application id: state.archive and archive.key in \
                $XDG_STATE_HOME/<app-id>, else ~/.local/state/<app-id>. An archive is consumed \
                at launch: after a launch there is none until the next save (amber report \
                --app says what the launch did, if the engine kept its report).
                """
        )

        @Flag(name: .long, help: "Print one JSON document instead of text.")
        var json = false

        @Flag(name: .long, help: "Print the tree as a Graphviz DOT graph instead of text.")
        var dot = false

        @Flag(name: .long, help: "Print the bytes of each object and of each key of its state instead of the values.")
        var sizes = false

        @Option(name: .long, help: "The key file of an encrypted archive (32 bytes, mode 0600).")
        var keyFile: String?

        @Option(name: .long, help: "Find the archive and its key in this application's state directory.")
        var app: String?

        @Argument(help: "The restoration archive to read (not with --app).")
        var file: String?

        func validate() throws {
            if [json, dot, sizes].filter({ $0 }).count > 1 { throw ValidationError("--json, --dot and --sizes are three outputs: give one") }
            if app != nil && file != nil { throw ValidationError("give a file or --app, not both") }
            if app == nil && file == nil { throw ValidationError("give the archive to read, or --app <app-id>") }
        }

        func run() throws {
            var path = file ?? ""
            var key = keyFile
            let output: [UInt8]
            do {
                if let app {
                    // The engine's own names (an encrypted archive without its key file: the
                    // error names the key file's path).
                    let files = try StateFiles(appID: app)
                    path = try files.existingArchive().archive
                    if key == nil { key = files.keyPath }
                }
                let bytes = try readFile(path)
                let header = EnvelopeFormat.looksLikeEnvelope(bytes) ? try EnvelopeFormat.header(of: bytes) : nil
                // Sizes print no value: a sensitive one is sized as it is (SPEC R34, R31).
                let plain = sizes ? try openEnvelopeForSizes(bytes, keyFile: key) : try openEnvelope(bytes, keyFile: key)
                let archive = try restorationArchive(plain, inEnvelope: header != nil)
                let inspection = try Inspection(archive, file: path, size: bytes.count, envelope: header)
                if json {
                    output = JSONWriter.format(inspection.json())
                } else if dot {
                    output = Array(inspection.dot().utf8)
                } else if sizes {
                    output = Array(inspection.sizes().utf8)
                } else {
                    output = Array(inspection.text().utf8)
                }
            } catch {
                reject(app.map { "--app \($0)" } ?? path, error)
                throw ExitCode.failure
            }
            writeOut(output)
        }

        /// The archive read; bytes that were not in an envelope and do not read are named "not
        /// a restoration archive".
        func restorationArchive(_ plain: [UInt8], inEnvelope: Bool) throws -> RestorationArchive {
            let failure: AmberError
            do {
                return try RestorationArchive(bytes: plain)
            } catch {
                failure = error
            }
            if inEnvelope || failure.message.hasPrefix("not a restoration archive") { throw failure }
            throw IOFailure(message: "not a restoration archive: \(failure.message)")
        }
    }
}

/// A value of a state as `amber inspect` shows it: Foundation's standard classes as the codec
/// decodes them (what the host's decoder reads at restoration), references to restorable objects
/// by the record they name, and instances of other classes (the host's coding classes, SPEC R25)
/// with their fields.
indirect enum Shown {
    /// A value that holds no other: null, a number, a string, data, a date, a UUID, an index
    /// path or an index set, as the codec reads it (never a container).
    case scalar(ArchiveValue)
    case array([Shown])
    case set([Shown])
    case countedSet([(value: Shown, count: Int)])
    case dictionary([(key: Shown, value: Shown)])
    /// A reference to a restorable object (SPEC R4): the record it names, and that record's path
    /// (nil when the archive has no such record).
    case reference(record: Int64, path: [PathComponent]?)
    /// An instance of another class, with its fields, the first time the archive shows it.
    case instance(className: String, uid: Int, fields: [(key: String, value: Shown)])
    /// An instance shown before.
    case again(className: String, uid: Int)
    /// A value that cannot be read, and why.
    case unreadable(String)

    init(_ value: ArchiveValue) {
        switch value {
        case .null, .bool, .int, .uint, .double, .string, .data, .date, .uuid, .indexPath, .indexSet:
            self = .scalar(value)
        case .array(let items): self = .array(items.map(Shown.init))
        case .set(let items): self = .set(items.map(Shown.init))
        case .countedSet(let items): self = .countedSet(items.map { (value: Shown($0.value), count: $0.count) })
        case .dictionary(let pairs): self = .dictionary(pairs.map { (key: Shown($0.key), value: Shown($0.value)) })
        }
    }
}

/// Reads the keys of a restoration archive's states (and of its application state) as `Shown`
/// values.
///
/// Each value is decoded by the codec (`KeyedUnarchiver.decodeValue`); one the codec refuses as
/// not one of Foundation's value classes (a reference, an instance of a coding class, or a
/// container holding one) is read from the raw object graph instead. Instances are shown once
/// and as `again` after, so shared objects and cycles print finitely; containers that contain
/// themselves, nesting past the limit, and graphs that expand to more than four values per
/// archived object are shown as unreadable.
final class StateReader {
    let archive: RestorationArchive
    private let objects: KeyedArchive
    private var shownInstances: Set<Int> = []
    private var containersInProgress: Set<Int> = []
    private var budget: Int
    private let maxDepth = ArchiveLimits.default.maxDepth

    init(_ archive: RestorationArchive) {
        self.archive = archive
        objects = archive.unarchiver.archive
        budget = 4 * objects.objectCount + 1024
    }

    /// The keys of object `uid` (a state or the application state) other than `skipping`, with
    /// their values, in stored order.
    func fields(ofObject uid: Int, skipping: [String] = []) throws -> [(key: String, value: Shown)] {
        try archive.unarchiver.withObject(uid: uid) { u, _ in
            u.allKeys().filter { !skipping.contains($0) }.map { (key: $0, value: self.value(u, forKey: $0)) }
        }
    }

    private func value(_ u: KeyedUnarchiver, forKey key: String) -> Shown {
        do {
            return Shown(try u.decodeValue(forKey: key))
        } catch where error.code == .typeMismatch {
            do {
                guard let uid = try u.objectUID(forKey: key) else { return .scalar(.null) }
                return try object(uid, depth: 0)
            } catch {
                return .unreadable(error.message)
            }
        } catch {
            return .unreadable(error.message)
        }
    }

    private func object(_ uid: Int, depth: Int) throws(ArchiveError) -> Shown {
        budget -= 1
        guard budget >= 0 else {
            throw ArchiveError(.limitExceeded, "the archive's values expand to more than four per archived object")
        }
        guard depth < maxDepth else {
            throw ArchiveError(.limitExceeded, "values nest deeper than the limit of \(maxDepth)")
        }
        switch try objects.object(uid) {
        case .null:
            return .scalar(.null)
        case .value(let p):
            return try plain(p, depth: depth)
        case .instance(let className, _, let fields):
            if let shown = try foundation(uid, className, fields, depth: depth) { return shown }
            guard shownInstances.insert(uid).inserted else { return .again(className: className, uid: uid) }
            var shownFields: [(key: String, value: Shown)] = []
            shownFields.reserveCapacity(fields.count)
            for f in fields { shownFields.append((f.key, try plain(f.value, depth: depth + 1))) }
            return .instance(className: className, uid: uid, fields: shownFields)
        }
    }

    /// A field's value: a reference to another object, or a value stored in place.
    private func plain(_ p: PropertyList, depth: Int) throws(ArchiveError) -> Shown {
        switch p {
        case .bool(let b): return .scalar(.bool(b))
        case .int(let i): return .scalar(.int(i))
        case .uint(let u): return .scalar(.uint(u))
        case .float(let f): return .scalar(.double(Double(f)))
        case .double(let d): return .scalar(.double(d))
        case .string(let s): return .scalar(.string(s))
        case .data(let d): return .scalar(.data(d))
        case .date(let t): return .scalar(.date(t))
        case .uid(let u):
            guard let uid = Int(exactly: u) else { throw ArchiveError(.notKeyedArchive, "UID \(u) is out of range") }
            return try object(uid, depth: depth + 1)
        case .array(let items), .set(let items):
            var shown: [Shown] = []
            for item in items { shown.append(try plain(item, depth: depth + 1)) }
            if case .set = p { return .set(shown) }
            return .array(shown)
        case .dictionary(let pairs):
            var shown: [(key: Shown, value: Shown)] = []
            for pair in pairs { shown.append((try plain(pair.key, depth: depth + 1), try plain(pair.value, depth: depth + 1))) }
            return .dictionary(shown)
        }
    }

    /// A reference, or an object of one of Foundation's standard classes, as its value; nil for
    /// another class. An object of Foundation's classes whose fields are missing, of the wrong
    /// type or disagree is unreadable, as it is to the codec (`KeyedArchive.standardObject`).
    private func foundation(
        _ uid: Int, _ className: String, _ fields: [(key: String, value: PropertyList)], depth: Int
    ) throws(ArchiveError) -> Shown? {
        func children(_ list: [Int]) throws(ArchiveError) -> [Shown] {
            guard containersInProgress.insert(uid).inserted else {
                throw ArchiveError(.notKeyedArchive, "the \(className) object \(uid) contains itself")
            }
            defer { containersInProgress.remove(uid) }
            var shown: [Shown] = []
            shown.reserveCapacity(list.count)
            for c in list { shown.append(try object(c, depth: depth + 1)) }
            return shown
        }
        if className == RestorationArchive.referenceClassName {
            guard case .int(let index)? = fields.first(where: { $0.key == RestorationArchive.referenceIndexKey })?.value else { return nil }
            let records = archive.records
            let path = index >= 0 && index < Int64(records.count) ? records[Int(index)].components : nil
            return .reference(record: index, path: path)
        }
        switch try objects.standardObject(uid) {
        case .value(let v)?: return Shown(v)
        case .array(let items)?: return .array(try children(items))
        case .set(let items)?: return .set(try children(items))
        case .dictionary(let keys, let values)?:
            let shown = try children(keys + values)
            return .dictionary(zip(shown[..<keys.count], shown[keys.count...]).map { (key: $0, value: $1) })
        case .countedSet(let items)?:
            let shown = try children(items.map(\.uid))
            return .countedSet(zip(shown, items).map { (value: $0, count: $1.count) })
        case nil: return nil
        }
    }
}

/// What `amber inspect` prints, read once and rendered as text or JSON.
struct Inspection {
    struct Object {
        let index: Int
        let record: RestorationArchive.Record
        let viewKind: ViewKind?
        let state: [(key: String, value: Shown)]
    }

    let file: String
    let size: Int
    let envelope: EnvelopeHeader?
    let archive: RestorationArchive
    /// The host's keys of the application state (the engine's metadata aside).
    let appKeys: [(key: String, value: Shown)]
    let objects: [Object]

    init(_ archive: RestorationArchive, file: String, size: Int, envelope: EnvelopeHeader?) throws {
        self.file = file
        self.size = size
        self.envelope = envelope
        self.archive = archive
        let reader = StateReader(archive)
        appKeys = try reader.fields(ofObject: archive.appUID, skipping: RestorationArchive.metadataKeys)
        var objects: [Object] = []
        objects.reserveCapacity(archive.records.count)
        for (i, record) in archive.records.enumerated() {
            let state = try reader.fields(ofObject: record.stateUID)
            var viewKind: ViewKind?
            if case .scalar(.int(let k))? = state.first(where: { $0.key == Inspection.viewKindKey })?.value, let raw = UInt8(exactly: k) {
                viewKind = ViewKind(rawValue: raw)
            }
            objects.append(Object(index: i, record: record, viewKind: viewKind, state: state))
        }
        self.objects = objects
    }

    /// The key of a view's state that holds its kind of view (SPEC R17).
    static let viewKindKey = "amber.view.kind"

    // MARK: Names

    static func name(_ kind: ObjectKind) -> String {
        switch kind {
        case .controller: return "controller"
        case .view: return "view"
        case .object: return "object"
        }
    }

    static func name(_ relation: ObjectRelation) -> String {
        switch relation {
        case .none: return "none"
        case .child: return "child"
        case .presented: return "presented"
        case .view: return "view"
        case .restorationChild: return "restorationChild"
        }
    }

    static func name(_ kind: ViewKind) -> String {
        switch kind {
        case .scroll: return "scroll"
        case .table: return "table"
        case .collection: return "collection"
        case .textField: return "textField"
        case .textView: return "textView"
        case .image: return "image"
        case .web: return "web"
        }
    }

    static func name(_ algorithm: EnvelopeAlgorithm) -> String {
        switch algorithm {
        case .none: return "none"
        case .aes256GCM: return "aes-256-gcm"
        }
    }

    /// A path as the reports spell it: `/Nav/Detail[1]` for the second `Detail` of a stack.
    static func pathText(_ path: [PathComponent]) -> String { PathComponent.describe(path) }

    // MARK: Text

    /// The sizes (SPEC R31): the archive's, then each object in archive order, indented by
    /// depth, with the bytes its record reaches (`KeyedArchive.byteSize(ofUID:)`) and under it
    /// the bytes of each key of its state; then the ten largest objects, the largest first.
    /// Objects share strings (class names, keys): each object counts those it reaches. It
    /// prints no value, so it reads the archive unmasked: a sensitive value counts its real
    /// size (SPEC R34).
    func sizes() -> String {
        var out = ""
        func line(_ indent: Int, _ text: String) {
            out += String(repeating: " ", count: indent) + text + "\n"
        }
        let keyed = archive.unarchiver.archive
        line(0, "file: \(oneLine(file)) (\(size) bytes)")
        line(0, "archive: \(keyed.plist.bytes.count) bytes before the envelope")
        line(0, "objects: \(objects.count)")
        var recordSizes: [Int] = []  // by object, in archive order
        for object in objects {
            let r = object.record
            let indent = 2 * max(r.path.count - 1, 0)
            let uid = object.index < archive.recordUIDs.count ? archive.recordUIDs[object.index] : -1
            let bytes = keyed.byteSize(ofUID: uid)
            recordSizes.append(bytes)
            let omitted = r.isOmitted ? ", omitted: no state" : ""
            line(indent, "\(oneLine(Inspection.pathText(r.components))) (\(oneLine(r.className))\(omitted)): \(bytes) bytes")
            for (key, keyBytes) in keyed.keySizes(ofUID: r.stateUID) {
                line(indent + 4, "\(oneLine(key)): \(keyBytes) bytes")
            }
        }
        // The largest first, ties in archive order (a stable sort).
        let largest = recordSizes.indices.sorted { a, b in
            recordSizes[a] != recordSizes[b] ? recordSizes[a] > recordSizes[b] : a < b
        }.prefix(PreservationReport.largestCount)
        if !largest.isEmpty {
            line(0, "largest:")
            for (rank, i) in largest.enumerated() {
                let r = objects[i].record
                line(2, "\(rank + 1). \(oneLine(Inspection.pathText(r.components))) (\(oneLine(r.className))): \(recordSizes[i]) bytes")
            }
        }
        return out
    }

    func text() -> String {
        var out = ""
        func line(_ indent: Int, _ text: String) {
            out += String(repeating: " ", count: indent) + text + "\n"
        }
        func quoted(_ s: String?) -> String { s.map(JSONWriter.quoted) ?? "(none)" }
        line(0, "file: \(oneLine(file)) (\(size) bytes)")
        if let envelope {
            let chunks = envelope.chunkSize.map { ", sealed in chunks of \($0) bytes" } ?? ""
            line(0, "envelope: format \(envelope.formatVersion), \(envelope.algorithm)\(chunks)")
        } else {
            line(0, "envelope: none (a bare keyed archive)")
        }
        line(0, "application:")
        line(2, "bundle version: \(quoted(archive.bundleVersion))")
        line(2, "interface idiom: \(quoted(archive.interfaceIdiom))")
        line(2, "timestamp: \(archive.timestamp.map(Inspection.dateText) ?? "(none)")")
        line(2, "system version: \(quoted(archive.systemVersion))")
        // Archives of 0.2 record none.
        if let id = archive.applicationID { line(2, "application id: \(quoted(id))") }
        for (key, value) in appKeys { line(2, "\(oneLine(key)) = \(Inspection.text(value))") }
        let snapshot = archive.snapshot
        if snapshot.isIgnored {
            line(0, "snapshot: ignored at the next launch (its bytes were left out)")
        } else if let bytes = snapshot.bytes {
            line(0, "snapshot: \(bytes.count) bytes")
        } else {
            line(0, "snapshot: none")
        }
        line(0, "objects: \(objects.count)")
        for object in objects {
            let r = object.record
            let indent = 2 * max(r.path.count - 1, 0)
            var facts = [r.className, Inspection.name(r.kind)]
            switch r.relation {
            case .none, .view: break  // a view is always its controller's view
            case .child, .presented: facts.append(Inspection.name(r.relation))
            case .restorationChild: facts.append("restoration child")
            }
            if r.isRoot { facts.append("root") }
            if let a = r.ancestor { facts.append("under record \(a)") }
            if r.isOmitted { facts.append("omitted: its encode failed, no state") }
            line(indent, "\(oneLine(Inspection.pathText(r.components))): \(oneLine(facts.joined(separator: ", ")))")
            if let rc = r.restorationClassName { line(indent + 2, "restoration class: \(oneLine(rc))") }
            if let bp = r.blueprintIdentifier { line(indent + 2, "blueprint: \(oneLine(bp))") }
            if r.stateVersion != 1 { line(indent + 2, "state version: \(r.stateVersion)") }
            for (key, value) in object.state {
                var shown = Inspection.text(value)
                if key == Inspection.viewKindKey, let kind = object.viewKind { shown += " (\(kind))" }
                line(indent + 2, "\(oneLine(key)) = \(shown)")
            }
        }
        return out
    }

    /// A value on one line: strings quoted, reals with a decimal point, data as its size and its
    /// first bytes in hex, dates in ISO 8601 (UTC), references as `-> /path`.
    static func text(_ value: Shown) -> String {
        switch value {
        case .scalar(let v): return text(v)
        case .array(let items): return "[" + items.map(text).joined(separator: ", ") + "]"
        case .set(let items): return "set[" + items.map(text).joined(separator: ", ") + "]"
        case .countedSet(let items): return "countedSet[" + items.map { text($0.value) + " ×\($0.count)" }.joined(separator: ", ") + "]"
        case .dictionary(let pairs): return "{" + pairs.map { text($0.key) + ": " + text($0.value) }.joined(separator: ", ") + "}"
        case .reference(let record, let path):
            guard let path else { return "-> record \(record) (no such record)" }
            return "-> " + oneLine(pathText(path))
        case .instance(let className, let uid, let fields):
            return "<\(oneLine(className)) #\(uid)> {" + fields.map { oneLine($0.key) + ": " + text($0.value) }.joined(separator: ", ") + "}"
        case .again(let className, let uid): return "<\(oneLine(className)) #\(uid)> (shown above)"
        case .unreadable(let message): return "<unreadable: \(oneLine(message))>"
        }
    }

    /// A value of the codec on one line (containers through `Shown`).
    static func text(_ value: ArchiveValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return realText(d)
        case .string(let s): return JSONWriter.quoted(s)
        case .data(let d):
            if d.isEmpty { return "data(0 bytes)" }
            let hex = d.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            return "data(\(d.count) bytes: \(hex)\(d.count > 16 ? "..." : ""))"
        case .date(let t): return "date(\(dateText(t)))"
        case .uuid(let u): return "uuid(\(KeyedGraph.uuidString(u)))"
        case .indexPath(let p): return "indexPath(" + p.map(String.init).joined(separator: ", ") + ")"
        case .indexSet(let ranges): return "indexSet(" + ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + ")"
        case .array, .set, .countedSet, .dictionary: return text(Shown(value))
        }
    }

    static func realText(_ d: Double) -> String {
        switch JSON.real(d) {
        case .number(let text): return text
        default: return d.isNaN ? "nan" : d < 0 ? "-inf" : "inf"
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, or the seconds since 2001 for a date outside years 1–9999.
    static func dateText(_ t: Double) -> String {
        let unix = t + 978_307_200
        guard unix.isFinite, unix >= -62_135_596_800, unix < 253_402_300_800 else {
            return realText(t) + " s after 2001-01-01T00:00:00Z"
        }
        var whole = unix.rounded(.down)
        var millis = Int(((unix - whole) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        var time = time_t(whole)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return realText(t) + " s after 2001-01-01T00:00:00Z" }
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(width - digits.count, 0)) + digits
        }
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
            + "." + pad(millis, 3) + "Z"
    }

    // MARK: JSON

    func json() -> JSON {
        func string(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
        func members(_ fields: [(key: String, value: Shown)]) -> JSON {
            .object(fields.map { (KeyedGraph.escape($0.key), Inspection.json($0.value)) })
        }
        let envelopeJSON: JSON = envelope.map {
            .object([
                ("format", .int(Int64($0.formatVersion))),
                ("protection", .string(Inspection.name($0.algorithm))),
                ("bundleVersion", .string($0.bundleVersion)),
                ("chunkSize", $0.chunkSize.map { .int(Int64($0)) } ?? .null),
            ])
        } ?? .null
        let snapshot = archive.snapshot
        return .object([
            ("file", .string(file)),
            ("size", .int(Int64(size))),
            ("envelope", envelopeJSON),
            ("format", .int(archive.formatVersion)),
            ("app", .object([
                ("bundleVersion", string(archive.bundleVersion)),
                ("interfaceIdiom", string(archive.interfaceIdiom)),
                ("timestamp", archive.timestamp.map(JSON.date) ?? .null),
                ("systemVersion", string(archive.systemVersion)),
                ("appID", string(archive.applicationID)),
                ("keys", members(appKeys)),
            ])),
            ("snapshot", .object([
                ("size", snapshot.bytes.map { .int(Int64($0.count)) } ?? .null),
                ("ignored", .bool(snapshot.isIgnored)),
            ])),
            ("objects", .array(objects.map { o in
                let r = o.record
                return .object([
                    ("index", .int(Int64(o.index))),
                    ("path", .array(r.path.map(JSON.string))),
                    ("depth", .int(Int64(max(r.path.count - 1, 0)))),
                    ("class", .string(r.className)),
                    ("kind", .string(Inspection.name(r.kind))),
                    ("relation", .string(Inspection.name(r.relation))),
                    ("root", .bool(r.isRoot)),
                    ("parent", r.parent.map { .int(Int64($0)) } ?? .null),
                    ("position", .int(Int64(r.components.last?.position ?? 0))),
                    ("ancestor", r.ancestor.map { .int(Int64($0)) } ?? .null),
                    ("omitted", .bool(r.isOmitted)),
                    ("restorationClass", string(r.restorationClassName)),
                    ("blueprint", string(r.blueprintIdentifier)),
                    ("viewKind", o.viewKind.map { .string(Inspection.name($0)) } ?? .null),
                    ("state", members(o.state)),
                ])
            })),
        ])
    }

    /// A value as `amber dump --keyed` prints Foundation's classes, with references as
    /// `{"$reference": [path…], "$record": n}` and instances as `{"$class", "$id", fields…}`, then
    /// `{"$ref": id}`.
    static func json(_ value: Shown) -> JSON {
        switch value {
        case .scalar(let v): return KeyedGraph.json(v)
        case .array(let items): return .array(items.map(json))
        case .set(let items): return .object([("$set", .array(items.map(json)))])
        case .countedSet(let items): return .object([("$countedSet", .array(items.map { .array([json($0.value), .int(Int64($0.count))]) }))])
        case .dictionary(let pairs):
            var members: [(key: String, value: JSON)] = []
            for pair in pairs {
                guard case .scalar(.string(let key)) = pair.key else {
                    return .object([("$dict", .array(pairs.map { .array([json($0.key), json($0.value)]) }))])
                }
                members.append((KeyedGraph.escape(key), json(pair.value)))
            }
            return .object(members)
        case .reference(let record, let path):
            return .object([("$reference", path.map { .array($0.map { JSON.string($0.identifier) }) } ?? .null), ("$record", .int(record))])
        case .instance(let className, let uid, let fields):
            var members: [(key: String, value: JSON)] = [("$class", .string(className)), ("$id", .int(Int64(uid)))]
            for field in fields { members.append((KeyedGraph.escape(field.key), json(field.value))) }
            return .object(members)
        case .again(_, let uid): return .object([("$ref", .int(Int64(uid)))])
        case .unreadable(let message): return .object([("$error", .string(message))])
        }
    }
}
