/// One archived object in a restoration report (SPEC R16).
public struct RestorationRecord {
    /// Its restoration path: the identifiers as the host set them (SPEC R3).
    public var path: [String] { storedPath?.map(\.identifier) ?? paths?.path(pathIndex) ?? [] }
    /// Its restoration path with each component's stack position (SPEC R3).
    public var components: [PathComponent] {
        get { storedPath ?? paths?.components(pathIndex) ?? [] }
        set {
            storedPath = newValue
            paths = nil
        }
    }
    /// Its position among the same-identifier children of its stack (0 outside a stack).
    public var position: Int { storedPath.map { $0.last?.position ?? 0 } ?? paths?.position(pathIndex) ?? 0 }
    /// The path as given, or the table that makes it (a restore's records share their
    /// session's table rather than hold a path each).
    private var storedPath: [PathComponent]?
    private var paths: RecordPaths?
    private var pathIndex = 0
    /// The archived class name.
    public var className: String
    /// The archived kind.
    public var kind: ObjectKind
    /// What became of it.
    public var outcome: RestorationOutcome
    /// The object found for it (restored, class mismatch, decode error, duplicate), if any.
    public var object: RestorableObject?
    /// A remark on how it was found or why not (e.g. "restoration class X is not registered").
    public var note: String?
    /// The error behind a `decodeError` outcome, as thrown (host errors unchanged).
    public var error: (any Error)?
    /// The model identifiers of the view's archived items (selection, first visible item)
    /// that no longer resolve to an index path (SPEC R18): dropped, in archived order.
    public var droppedModelIdentifiers: [String] = []

    /// Creates a record.
    public init(
        path: [PathComponent], className: String, kind: ObjectKind, outcome: RestorationOutcome,
        object: RestorableObject? = nil, note: String? = nil, error: (any Error)? = nil
    ) {
        self.storedPath = path
        self.className = className
        self.kind = kind
        self.outcome = outcome
        self.object = object
        self.note = note
        self.error = error
    }

    /// Makes the path record `index` of the table the record was made with
    /// (`init(paths:index:...)`).
    mutating func setPathIndex(_ index: Int) { pathIndex = index }

    /// A record whose path is record `index` of `paths`.
    init(paths: RecordPaths, index: Int, className: String, kind: ObjectKind, outcome: RestorationOutcome) {
        self.paths = paths
        self.pathIndex = index
        self.className = className
        self.kind = kind
        self.outcome = outcome
    }
}
