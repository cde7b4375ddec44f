import Testing
@testable import AmberCore

/// `Array.reverseSuffix(from:)`: the elements from `start` on reversed in place, those before
/// it untouched; what the walk's order (SPEC R2) and the report's paths (SPEC R16) rely on.
@Suite struct ReverseSuffixTests {
    // R2, R16
    @Test func reversesTheElementsFromStart() {
        for count in 0 ..< 7 {
            for start in 0 ... count {
                var a = Array(0 ..< count)
                a.reverseSuffix(from: start)
                #expect(a == Array(0 ..< start) + Array((start ..< count).reversed()), "count \(count), start \(start)")
            }
        }
    }

    // R2, R16
    @Test func keepsEveryObjectOnce() {
        final class Box {}
        let boxes = (0 ..< 5).map { _ in Box() }
        var a = boxes
        a.reverseSuffix(from: 1)
        #expect(a[0] === boxes[0])
        #expect(zip(a[1...], boxes[1...].reversed()).allSatisfy { $0 === $1 })
    }
}
