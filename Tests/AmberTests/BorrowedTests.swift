import Testing
@testable import Amber

// R6, R12: every amber_coder_* and amber_decoder_* call borrows its coder or decoder this way.

/// `Borrowed`: the object itself, for the length of the call, without a reference taken.
@Suite struct BorrowedTests {
    final class Counter {
        var count = 0
    }

    struct Refused: Error, Equatable {}

    @Test func givesTheObjectAndWhatTheBodyReturns() {
        let counter = Counter()
        let borrowed = Borrowed(Unmanaged.passUnretained(counter))
        let result = borrowed.with { c -> Int in
            #expect(c === counter)
            c.count += 1
            return c.count * 10
        }
        #expect(result == 10)
        #expect(counter.count == 1)
    }

    @Test func passesTheBodysErrorUp() {
        let counter = Counter()
        #expect(throws: Refused()) {
            try Borrowed(Unmanaged.passUnretained(counter)).with { (_: Counter) throws(Refused) in throw Refused() }
        }
    }

    /// The borrow keeps no reference: once the holder lets go, the object is gone.
    @Test func keepsNoReference() {
        var holder: Counter? = Counter()
        weak let watcher = holder
        let unmanaged = Unmanaged.passUnretained(holder!)
        let count = Borrowed(unmanaged).with { c -> Int in
            c.count = 7
            return c.count
        }
        #expect(count == 7 && watcher?.count == 7)
        holder = nil
        #expect(watcher == nil)
    }
}
