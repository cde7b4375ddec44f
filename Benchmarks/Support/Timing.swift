// What every benchmark measures time with.

/// The clock every benchmark times with.
public let benchClock = ContinuousClock()

/// Seconds one run of `body` takes.
public func seconds(_ body: () throws -> Void) rethrows -> Double {
    let d = try benchClock.measure { try body() }
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// The median of `xs`, NaN for none.
public func median(_ xs: [Double]) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
