/// A host object taking part in preservation and restoration (SPEC R1).
///
/// Controllers form a tree: children (containment, ordered), at most one presented controller
/// (modal), and views. A plain object names a restoration parent. A parent holds its children,
/// its presented controller and its views strongly; no pointer up (`parent`) keeps its parent
/// alive (it reads nil once the parent is gone), and neither does the link from a restoration
/// parent to its plain objects (the host keeps those alive, as in UIKit).
///
/// **Moving.** Adding an object that already has a parent (as a child, presented controller,
/// view or plain object) first takes it away from that parent: an object has one place.
/// An operation that would make the tree contain itself, or that joins kinds UIKit does not
/// join, throws `.invalidArgument` and changes nothing.
///
/// **Restoration paths** (SPEC R3): see `restorationPath`.
///
/// Not thread-safe: an object and its tree are used by one thread at a time (the engine's).
///
/// Open so that a binding can keep its own per-object data in the same allocation (the C
/// layer's object handles are a subclass): a preservation then reads one block of memory per
/// object instead of two. Its members are not open: a subclass adds, it does not override.
open class RestorableObject {
    /// Controller, view or plain object.
    public let kind: ObjectKind

    // The stored properties a preservation's walk reads of every object come first, together,
    // so that they share a cache line or two (the walk meets each object once, cold).

    /// Whether this controller is a stack (a navigation stack): its children with the same
    /// identifier are told apart by position in their restoration paths (SPEC R3). Set with
    /// `setStack(_:)`, which refuses any other kind of object.
    public internal(set) var isStackContainer: Bool
    /// The restoration identifier; nil (or empty) means the object, and everything under it, is
    /// not preserved (SPEC R2).
    public var restorationIdentifier: String?
    /// The children of this controller, in order.
    public var children: [RestorableObject] { childList.children() }
    /// The children, with O(1) removal (`ChildList`).
    private var childList = ChildList()
    /// This child's slot in its parent's `childList` (a hint).
    var slotInParent = -1
    /// The views of this controller, in order.
    public private(set) var views: [RestorableObject] = []
    /// The controller this one presents, if any.
    public private(set) var presented: RestorableObject?
    /// Marks of the engine's passes: the pass that last met the object and its record index in
    /// it (-1 while unrecorded, -2 for a duplicate). A pass has a random 64-bit id.
    var passID: UInt64 = 0
    var passIndex: Int = -1
    /// What its encode callback wrote at the last preservation, while it is clean (SPEC R32);
    /// nil once marked dirty (`Engine.markDirty(_:)`).
    var stateRecording: StateRecording?

    /// The host's class name: recorded in the archive and checked at restoration (SPEC R11).
    public var className: String
    /// The name of the object's restoration class, registered with
    /// `Engine.registerRestorationClass`: the first place asked for the object at restoration
    /// (SPEC R10 step 1).
    public var restorationClassName: String?
    /// The identifier of the blueprint the object was made from (the analogue of a storyboard
    /// identifier), recorded so that a blueprint factory can make it again (SPEC R10 step 4).
    public var blueprintIdentifier: String?
    /// The host's payload, for a Swift host. Amber never looks inside (the C layer keeps its
    /// own data in a subclass).
    public var host: AnyObject?
    /// The host's encode, decode and finished-restoring callbacks.
    public var callbacks: RestorableCallbacks
    /// A view's kind and the accessors of its standard state (SPEC R17); nil: the view keeps
    /// only what its encode callback writes. Set with `setViewAccessors(_:)`.
    public var viewAccessors: ViewAccessors? { viewParts?.accessors }
    /// A table's or collection's data source as a model association (SPEC R18); nil: its items
    /// are archived as index paths. Set with `setModelAssociation(_:)`.
    public var modelAssociation: ModelAssociation? { viewParts?.association }

    /// Gives this view a kind and the accessors of its standard state (SPEC R17), or none (nil).
    /// Backs `amber_object_set_view_accessors`.
    /// - Throws: `.invalidArgument` unless this is a view, or for a text field or text view
    ///   without `textLength` (a selected range that no longer fits the text must restore as
    ///   no selection, which only the text's length tells).
    public func setViewAccessors(_ accessors: ViewAccessors?) throws(AmberError) {
        try requireView("view accessors")
        if let accessors, accessors.kind.hasText, accessors.textLength == nil {
            throw AmberError(
                .invalidArgument,
                "a \(accessors.kind) needs a text-length accessor (a selected range that no longer fits the text restores as no selection); '\(describe)' was given none")
        }
        if accessors == nil, viewParts?.association == nil { viewParts = nil; return }
        withViewParts { $0.accessors = accessors }
    }

    /// Gives this view its data source's model association (SPEC R18), or none (nil). Backs
    /// `amber_object_set_model_association`.
    /// - Throws: `.invalidArgument` unless this is a view.
    public func setModelAssociation(_ association: ModelAssociation?) throws(AmberError) {
        try requireView("a model association")
        if association == nil, viewParts?.accessors == nil { viewParts = nil; return }
        withViewParts { $0.association = association }
    }

    /// Only a view has a standard state and a data source: refuses `what` for anything else.
    private func requireView(_ what: String) throws(AmberError) {
        guard kind == .view else {
            throw AmberError(.invalidArgument, "only a view has \(what); '\(describe)' is a \(kind)")
        }
    }

    /// `viewAccessors` and `modelAssociation`, which only some views have, kept apart (made when
    /// first set): the object is some 80 bytes smaller, and a preservation, which meets every
    /// object once, cold, reads fewer cache lines of each.
    private final class ViewParts {
        var accessors: ViewAccessors?
        var association: ModelAssociation?
    }
    private var viewParts: ViewParts?

    private func withViewParts(_ body: (ViewParts) -> Void) {
        if let p = viewParts { return body(p) }
        let p = ViewParts()
        viewParts = p
        body(p)
    }

    /// Where this object hangs: its container, presenter, controller or restoration parent; nil
    /// once that parent is gone.
    ///
    /// Unowned rather than weak: a weak reference gives every parent a side table, through which
    /// each retain and release of it would go. The parent clears its children's, presented
    /// controller's, views' and plain objects' `parent` when it goes (`deinit`), so this never
    /// outlives its object.
    public private(set) unowned var parent: RestorableObject?
    /// How it hangs from `parent` (`.none` without one).
    public private(set) var relation: ObjectRelation = .none
    /// The plain objects that name this object as their restoration parent (held weakly).
    var plainObjects: [WeakObject] = []


    /// Creates an object outside any tree. `isStackContainer` counts only for a controller
    /// (`setStack(_:)`). The class name is taken as it is: a host's binding, which passes on
    /// what its host gives, uses `init(kind:checkedClassName:restorationIdentifier:)`.
    public init(
        kind: ObjectKind,
        className: String,
        restorationIdentifier: String? = nil,
        restorationClassName: String? = nil,
        blueprintIdentifier: String? = nil,
        isStackContainer: Bool = false,
        host: AnyObject? = nil,
        callbacks: RestorableCallbacks = RestorableCallbacks()
    ) {
        self.kind = kind
        self.className = className
        self.restorationIdentifier = restorationIdentifier
        self.restorationClassName = restorationClassName
        self.blueprintIdentifier = blueprintIdentifier
        self.isStackContainer = isStackContainer && kind == .controller
        self.host = host
        self.callbacks = callbacks
    }

    /// Creates an object outside any tree, refusing a class name that restoration could not
    /// check: the class name is what the archive records and what restoration compares the
    /// object it finds with (SPEC R11). Backs `amber_object_new`.
    /// - Throws: `.invalidArgument` if `className` is empty.
    public init(kind: ObjectKind, checkedClassName className: String, restorationIdentifier: String?) throws(AmberError) {
        guard !className.isEmpty else {
            throw AmberError(.invalidArgument, "the class name is empty: restoration checks an object by its class name (R11)")
        }
        self.kind = kind
        self.className = className
        self.restorationIdentifier = restorationIdentifier
        self.isStackContainer = false
        self.callbacks = RestorableCallbacks()
    }

    /// Declares this controller a stack, or not (SPEC R3): children of a stack with the same
    /// identifier are told apart by position. Backs `amber_object_set_stack`.
    /// - Throws: `.invalidArgument` unless this is a controller (only a controller has children).
    public func setStack(_ isStack: Bool) throws(AmberError) {
        guard kind == .controller else {
            throw AmberError(.invalidArgument, "only a controller is a stack; '\(describe)' is a \(kind)")
        }
        isStackContainer = isStack
    }

    /// Clears the `parent` of everything that hangs from this object (none of it keeps this
    /// object alive; `parent` is unowned and must not outlive it), and frees what only this
    /// object held without recursion.
    ///
    /// Releasing a child here would run the child's deinit inside this one, and so on down the
    /// tree: a recursion as deep as the tree, which a deep enough tree turns into a stack
    /// overflow. Instead what hangs from this object is moved to a list, and each object of the
    /// list that nothing else holds gives up what hangs from it in turn, before it goes: its own
    /// deinit then finds nothing left to release.
    deinit {
        var pending: [RestorableObject] = []
        takeDependents(into: &pending)
        while var o = pending.popLast() {
            if isKnownUniquelyReferenced(&o) { o.takeDependents(into: &pending) }
        }
        for w in plainObjects { w.object?.parent = nil }
    }

    /// Takes the children, the presented controller and the views (what this object holds)
    /// away from it, appending them to `list`.
    private func takeDependents(into list: inout [RestorableObject]) {
        for c in childList.removeAll() {
            c.detachFromParent()
            list.append(c)
        }
        if let p = presented {
            presented = nil
            p.detachFromParent()
            list.append(p)
        }
        for v in views {
            v.detachFromParent()
            list.append(v)
        }
        views = []
    }

    // MARK: Relations

    /// The controller that presents this one, if it is presented.
    public var presentingObject: RestorableObject? { relation == .presented ? parent : nil }
    /// The restoration parent of this plain object, if it has one.
    public var restorationParent: RestorableObject? { relation == .restorationChild ? parent : nil }
    /// The plain objects (still alive) whose restoration parent this object is, in the order
    /// they named it.
    public var restorationChildren: [RestorableObject] { plainObjects.compactMap(\.object) }

    /// Makes room for `n` children in all (a restore knows how many each parent gets).
    func reserveChildCapacity(_ n: Int) { childList.reserveCapacity(n) }

    /// Adds a controller as the last child of this controller, taking it away from where it was.
    /// - Throws: `.invalidArgument` unless both are controllers, or if `child` is this object or
    ///   one of its ancestors.
    public func addChild(_ child: RestorableObject) throws(AmberError) {
        try requireKinds(self, .controller, child, .controller, "a child")
        try requireNoCycle(child)
        child.removeFromParent()
        childList.append(child)
        child.attach(to: self, .child)
    }

    /// Inserts a controller as a child at `index` (clamped to the children's range).
    /// - Throws: as `addChild(_:)`.
    public func insertChild(_ child: RestorableObject, at index: Int) throws(AmberError) {
        try requireKinds(self, .controller, child, .controller, "a child")
        try requireNoCycle(child)
        child.removeFromParent()
        childList.insert(child, at: index)
        child.attach(to: self, .child)
    }

    /// Removes a child. Backs `amber_object_remove_child`.
    /// - Throws: `.notFound` if it is not a child of this object (a slip in the host's
    ///   bookkeeping that a silent success would hide, as removing a root that is none).
    public func removeChild(_ child: RestorableObject) throws(AmberError) {
        guard child.parent === self, child.relation == .child else {
            throw AmberError(.notFound, "'\(child.describe)' is not a child of '\(describe)'")
        }
        child.removeFromParent()
    }

    /// Takes every child, view, presented controller and plain object away from this object (in
    /// time linear in their number).
    public func removeAllDependents() {
        for c in childList.removeAll() { c.detachFromParent() }
        for v in views { v.detachFromParent() }
        views = []
        dismissPresented()
        for w in plainObjects { w.object?.detachFromParent() }
        plainObjects = []
    }

    /// Presents a controller modally from this one; its restoration path continues from this
    /// controller's (a modal navigation controller presented from `[nav, list]` has the path
    /// `[nav, list, modalNav]`).
    /// - Throws: `.misuse` if this controller already presents one; `.invalidArgument` unless
    ///   both are controllers, or if `controller` is this object or one of its ancestors.
    public func present(_ controller: RestorableObject) throws(AmberError) {
        try requireKinds(self, .controller, controller, .controller, "a presented controller")
        if let current = presented {
            if current === controller { return }
            throw AmberError(.misuse, "'\(describe)' already presents '\(current.describe)'; dismiss it before presenting '\(controller.describe)'")
        }
        try requireNoCycle(controller)
        controller.removeFromParent()
        presented = controller
        controller.attach(to: self, .presented)
    }

    /// Dismisses the presented controller, if any.
    public func dismissPresented() {
        presented?.removeFromParent()
    }

    /// Presents `controller` from this one (`present(_:)`), or dismisses the presented
    /// controller if it is nil. Backs `amber_object_present`.
    /// - Throws: as `present(_:)`; `.invalidArgument` if this is not a controller, even to
    ///   dismiss (only a controller presents, so a dismissal asked of another object is a slip
    ///   in the host's bookkeeping that a silent success would hide).
    public func setPresented(_ controller: RestorableObject?) throws(AmberError) {
        guard let controller else {
            guard kind == .controller else {
                throw AmberError(.invalidArgument, "only a controller presents; '\(describe)' is a \(kind)")
            }
            return dismissPresented()
        }
        try present(controller)
    }

    /// Adds a view to this controller, taking it away from where it was.
    /// - Throws: `.invalidArgument` unless this is a controller and `view` a view.
    public func addView(_ view: RestorableObject) throws(AmberError) {
        try requireKinds(self, .controller, view, .view, "a view")
        view.removeFromParent()
        views.append(view)
        view.attach(to: self, .view)
    }

    /// Removes a view; nothing happens if it is not a view of this controller.
    public func removeView(_ view: RestorableObject) {
        guard view.parent === self, view.relation == .view else { return }
        view.removeFromParent()
    }

    /// Names the restoration parent of this plain object (nil: none); its restoration path is
    /// the parent's followed by its own identifier. The parent does not keep it alive.
    /// - Throws: `.invalidArgument` unless this is a plain object and `parent` a controller or a
    ///   plain object (UIKit's restoration parents; a view's state is its controller's), or if
    ///   `parent` is this object or has it as an ancestor.
    public func setRestorationParent(_ parent: RestorableObject?) throws(AmberError) {
        guard kind == .object else {
            throw AmberError(.invalidArgument, "only a plain object names a restoration parent; '\(describe)' is a \(kind)")
        }
        guard let parent else {
            removeFromParent()
            return
        }
        guard parent.kind != .view else {
            throw AmberError(.invalidArgument, "a restoration parent is a controller or an object; '\(parent.describe)' is a view")
        }
        if self.parent === parent, relation == .restorationChild { return }
        try parent.requireNoCycle(self)
        removeFromParent()
        parent.plainObjects.removeAll { $0.object == nil }
        parent.plainObjects.append(WeakObject(self))
        attach(to: parent, .restorationChild)
    }

    /// How many objects hang from this one, directly or not (children, views, presented
    /// controllers, plain objects), counted without recursion.
    func dependentCount() -> Int {
        var count = 0
        var stack: [RestorableObject] = [self]
        while let o = stack.popLast(), count < 1 << 30 {
            let below = o.children + o.views + o.restorationChildren + (o.presented.map { [$0] } ?? [])
            count += below.count
            stack.append(contentsOf: below)
        }
        return count
    }

    /// Forgets its parent, which has already let go of it.
    private func detachFromParent() {
        parent = nil
        relation = .none
    }

    /// Takes this object away from its parent, whatever the relation; nothing happens without one.
    public func removeFromParent() {
        guard let p = parent else {
            relation = .none
            return
        }
        switch relation {
        case .child:
            p.childList.remove(self)
        case .presented:
            if p.presented === self { p.presented = nil }
        case .view:
            if let i = p.views.firstIndex(where: { $0 === self }) { p.views.remove(at: i) }
        case .restorationChild:
            p.plainObjects.removeAll { $0.object == nil || $0.object === self }
        case .none:
            break
        }
        parent = nil
        relation = .none
    }

    /// Attaches under `p` by `relation`, for restored objects; false if the place is taken or the
    /// kinds do not fit.
    func adopt(into p: RestorableObject, as relation: ObjectRelation) -> Bool {
        switch relation {
        case .child: return (try? p.addChild(self)) != nil
        case .presented: return p.presented == nil && (try? p.present(self)) != nil
        case .view: return (try? p.addView(self)) != nil
        case .restorationChild: return (try? setRestorationParent(p)) != nil
        case .none: return false
        }
    }

    private func attach(to p: RestorableObject, _ r: ObjectRelation) {
        parent = p
        relation = r
    }

    private func requireKinds(
        _ a: RestorableObject, _ ka: ObjectKind, _ b: RestorableObject, _ kb: ObjectKind, _ what: String
    ) throws(AmberError) {
        guard a.kind == ka, b.kind == kb else {
            throw AmberError(
                .invalidArgument,
                "\(what) joins a \(kb) to a \(ka); '\(b.describe)' is a \(b.kind) and '\(a.describe)' a \(a.kind)")
        }
    }

    /// Throws if `other` is this object or one of its ancestors.
    ///
    /// Two walks run in step, and the first to finish answers: up from this object through its
    /// ancestors, looking for `other`, and down through what hangs from `other`, looking for
    /// this object. The check so costs the smaller of this object's depth and the size of
    /// `other`'s tree: little whether a tree is built top down (what is attached has little
    /// under it, however deep it goes) or bottom up (a new parent has no ancestors).
    private func requireNoCycle(_ other: RestorableObject) throws(AmberError) {
        if other === self { throw cycleError(other) }
        // An object with nothing under it is no one's ancestor.
        if other.hasNoDependents { return }
        var up = parent
        var down: [RestorableObject] = []
        other.appendDependents(to: &down)
        while let u = up {
            if u === other { throw cycleError(other) }
            up = u.parent
            guard let d = down.popLast() else { return }
            if d === self { throw cycleError(other) }
            d.appendDependents(to: &down)
        }
    }

    /// The refusal of a relation that would make `other`, this object or an ancestor of it,
    /// hang below this object.
    private func cycleError(_ other: RestorableObject) -> AmberError {
        AmberError(.invalidArgument, "'\(other.describe)' is '\(describe)' or one of its ancestors: the tree would contain itself")
    }

    /// Whether nothing hangs from this object: no child, presented controller, view or plain
    /// object.
    private var hasNoDependents: Bool {
        childList.isEmpty && presented == nil && views.isEmpty && plainObjects.isEmpty
    }

    /// Appends what hangs from this object (children, presented controller, views, the plain
    /// objects still alive) to `list`.
    private func appendDependents(to list: inout [RestorableObject]) {
        list.append(contentsOf: children)
        if let p = presented { list.append(p) }
        list.append(contentsOf: views)
        for w in plainObjects { if let p = w.object { list.append(p) } }
    }

    // MARK: Restoration paths

    /// The identifier, or nil when absent or empty.
    var identifier: String? {
        guard let id = restorationIdentifier, !id.isEmpty else { return nil }
        return id
    }

    /// The position of this child among the earlier children of its stack with the same
    /// identifier (0 for the first), or 0 outside a stack.
    var stackOccurrence: Int {
        guard relation == .child, let p = parent, p.isStackContainer, let id = identifier else { return 0 }
        var k = 0
        for c in p.children {
            if c === self { break }
            if let cid = c.identifier, cid == id { k += 1 }
        }
        return k
    }

    /// This object's restoration path (SPEC R3): the identifiers from the top of its tree (a
    /// root, or the highest ancestor) down to itself, each exactly as set; nil if it or an
    /// ancestor has no identifier.
    ///
    /// A presented controller's path continues from its presenter's, a view's from its
    /// controller's, a plain object's from its restoration parent's.
    ///
    /// **Stacks.** In a container declared as a stack, children with the same identifier have
    /// the same path; their positions (`restorationComponents`) tell them apart.
    public var restorationPath: [String]? {
        restorationComponents?.map(\.identifier)
    }

    /// The restoration path with each component's stack position (SPEC R3); nil if this object
    /// or an ancestor has no identifier.
    public var restorationComponents: [PathComponent]? {
        var reversed: [PathComponent] = []
        var node: RestorableObject? = self
        while let n = node {
            guard let id = n.identifier else { return nil }
            reversed.append(PathComponent(id, position: n.stackOccurrence))
            node = n.parent
            if reversed.count > 1 << 20 { return nil }
        }
        return reversed.reversed()
    }

    /// The identifiers of this object's ancestors that have one, then its own if it has one,
    /// each with its stack position: its path as far as it has one (the preservation report
    /// names objects left out by it, SPEC R28), and for an object with an identifier the path
    /// it is preserved with when an encode callback references it (SPEC R4).
    var identifiedComponents: [PathComponent] {
        var reversed: [PathComponent] = []
        var node: RestorableObject? = self
        var steps = 0
        while let n = node, steps < 1 << 24 {
            if let id = n.identifier { reversed.append(PathComponent(id, position: n.stackOccurrence)) }
            node = n.parent
            steps += 1
        }
        return reversed.reversed()
    }

    /// How many of this object and its ancestors have an identifier (the length of
    /// `identifiedComponents`), counted up to `limit` at most: the ancestors above the
    /// `limit`-th identifier are not walked.
    func identifiedDepth(upTo limit: Int) -> Int {
        var count = 0
        var node: RestorableObject? = self
        while let n = node, count < limit {
            if n.identifier != nil { count += 1 }
            node = n.parent
        }
        return count
    }

    /// The identifier or class name, for messages.
    var describe: String {
        if let path = restorationComponents { return path.map(\.description).joined(separator: "/") }
        return restorationIdentifier ?? className
    }
}

/// A weak reference to a restorable object, for lists that do not keep their items alive.
struct WeakObject {
    weak var object: RestorableObject?
    init(_ object: RestorableObject) { self.object = object }
}
