// The C restoration path of a make callback, built from the previous one's.

import AmberCore
#if canImport(Glibc)
import Glibc
#endif

/// The restoration path of the last make callback as C strings, kept from one callback to the
/// next. Records come parents first, so a record's path is mostly the previous record's path up
/// to its parent, plus its own last component: only that component is copied, where making the
/// whole path would copy every component of every record.
final class CPathCache {
    /// The restore whose records `records` names (`StateDecoder.restorationID`; 0: none).
    private var restoreID: UInt64 = 0
    /// By level: the record whose last component it is (-1: a level of a path kept whole).
    private var records: [Int] = []
    /// By level: the component's C string (malloc'd, reused while it is large enough).
    private var buffers: [UnsafeMutablePointer<CChar>] = []
    private var capacities: [Int] = []
    /// The array given to the host: `depth` pointers into `buffers`.
    private var array: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private var arrayCapacity = 16
    private var depth = 0

    init() {
        array = .allocate(capacity: arrayCapacity)
        array[0] = nil
    }

    deinit {
        for b in buffers { free(b) }
        array.deallocate()
    }

    /// Level `level` (at most `depth`) becomes record `record`'s component `text`.
    private func set(_ level: Int, _ record: Int, _ text: String) throws(AmberError) {
        var text = text
        let n = text.utf8.count
        if level == buffers.count {
            guard let b = malloc(max(n + 1, 32)) else { throw AmberError(.limitExceeded, "out of memory for a path") }
            buffers.append(b.assumingMemoryBound(to: CChar.self))
            capacities.append(max(n + 1, 32))
            records.append(-1)
        } else if capacities[level] < n + 1 {
            guard let b = realloc(buffers[level], n + 1) else { throw AmberError(.limitExceeded, "out of memory for a path") }
            buffers[level] = b.assumingMemoryBound(to: CChar.self)
            capacities[level] = n + 1
        }
        if level >= arrayCapacity {
            let bigger = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: arrayCapacity * 2)
            bigger.update(from: array, count: arrayCapacity)
            array.deallocate()
            array = bigger
            arrayCapacity *= 2
        }
        let b = buffers[level]
        text.withUTF8 { utf8 in
            if let base = utf8.baseAddress { memcpy(b, base, utf8.count) }
        }
        b[n] = 0
        array[level] = UnsafePointer(b)
        records[level] = record
    }

    /// The C path of the record `decoder` decodes: valid until the next call.
    func path(of decoder: StateDecoder) throws(AmberError) -> (UnsafePointer<UnsafePointer<CChar>?>, Int) {
        let index = decoder.recordIndex
        let parent = decoder.restorationParent(ofRecord: index)
        do {
            if decoder.restorationID == restoreID, parent >= 0 {
                // The parent's level, looked for from the top (usually one of the last few).
                var level = depth - 1
                while level >= 0, records[level] != parent { level -= 1 }
                if level >= 0 {
                    depth = level + 1
                    try set(depth, index, decoder.restorationComponent(ofRecord: index))
                    depth += 1
                    return (UnsafePointer(array), depth)
                }
            }
            // Built whole: the record's ancestors up to one without parent, whose path is kept whole.
            restoreID = decoder.restorationID
            depth = 0
            var chain = [index]
            var p = parent
            while p >= 0 {
                chain.append(p)
                p = decoder.restorationParent(ofRecord: p)
            }
            let top = chain.removeLast()
            let head = decoder.restorationPath(ofRecord: top)
            for (k, component) in head.enumerated() {
                try set(depth, k == head.count - 1 ? top : -1, component)
                depth += 1
            }
            for r in chain.reversed() {
                try set(depth, r, decoder.restorationComponent(ofRecord: r))
                depth += 1
            }
            if depth == 0 { array[0] = nil }
            return (UnsafePointer(array), depth)
        } catch {
            restoreID = 0
            depth = 0
            throw error
        }
    }
}
