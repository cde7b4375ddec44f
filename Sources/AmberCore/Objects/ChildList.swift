/// A controller's children in order, where taking one away costs O(1): its slot is vacated
/// (it holds `vacancy`) and the list is compacted the next time it is read. So freeing N
/// children one by one, or closing an engine of N objects, is linear: removing from the middle
/// of an array shifts everything after it.
///
/// Each child keeps its slot in `RestorableObject.slotInParent`, a hint: an insertion in the
/// middle shifts the slots after it, and a removal then finds the child by a search.
struct ChildList {
    /// The children and vacated slots, in order.
    private(set) var slots: [RestorableObject] = []
    /// How many of `slots` are vacated.
    private var vacancies = 0

    /// What a vacated slot holds: an object in no tree, never given out and never changed
    /// (only compared by identity), so it is safe to share between threads.
    nonisolated(unsafe) static let vacancy = RestorableObject(kind: .controller, className: "")

    /// Whether there is no child.
    var isEmpty: Bool { slots.count == vacancies }

    /// The children, compacted first if any slot is vacated.
    mutating func children() -> [RestorableObject] {
        if vacancies > 0 { compact() }
        return slots
    }

    mutating func reserveCapacity(_ n: Int) { slots.reserveCapacity(n) }

    /// Appends a child.
    mutating func append(_ child: RestorableObject) {
        child.slotInParent = slots.count
        slots.append(child)
    }

    /// Inserts a child at `index` among the children (clamped to their range).
    mutating func insert(_ child: RestorableObject, at index: Int) {
        if vacancies > 0 { compact() }
        let i = max(0, min(index, slots.count))
        slots.insert(child, at: i)
        child.slotInParent = i
    }

    /// Takes a child away; nothing happens if it is not one.
    mutating func remove(_ child: RestorableObject) {
        var i = child.slotInParent
        if !(i >= 0 && i < slots.count && slots[i] === child) {
            guard let found = slots.firstIndex(where: { $0 === child }) else { return }
            i = found
        }
        child.slotInParent = -1
        if i == slots.count - 1 {
            slots.removeLast()
        } else {
            slots[i] = ChildList.vacancy
            vacancies += 1
        }
    }

    /// Takes every child away and gives them back, in order.
    mutating func removeAll() -> [RestorableObject] {
        let all = children()
        slots = []
        for c in all { c.slotInParent = -1 }
        return all
    }

    /// Drops the vacated slots; each child's slot is its index again.
    private mutating func compact() {
        slots.removeAll { $0 === ChildList.vacancy }
        vacancies = 0
        for (i, c) in slots.enumerated() { c.slotInParent = i }
    }
}
