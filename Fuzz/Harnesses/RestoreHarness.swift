// Harness `restore`: restoring from arbitrary bytes with a fixed key (SPEC R9-R16, R20, R22).
//
// An engine with an AES-256-GCM envelope under a fixed key, on a memory store holding the
// input, with the small interface of FuzzInterface.swift built as at a launch, restores.
// The first byte picks what the rest is:
//   even: an archive, which the harness seals with the fixed key first, so that the fuzzer gets
//         past authentication into the archive's layout, the lookup chain and the callbacks;
//   odd:  the stored bytes as they are (envelopes that do not authenticate, truncations).
// Oracles besides "nothing traps": every restore ends with the archive and the launch guard
// discarded (SPEC R14; no harness callback extends restoration and the fixed key is always
// available); a fresh launch has a reason and no records, a restoration has no reason (R16).

import AmberArchive
import AmberCore

enum RestoreHarness {
    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        var stored = Array(input.dropFirst())
        if mode & 1 == 0 {
            do { stored = try EnvelopeHarness.sealer.seal(stored) } catch { fatalError("sealing failed: \(error)") }
        }
        let store = MemoryStore(bytes: stored, guardCount: Int(mode >> 1) % 3 == 2 ? 1 : 0)
        let engine: Engine
        let made: [RestorableObject]
        do {
            engine = try FuzzInterface.engine(store: store, envelope: EnvelopeHarness.sealer)
            made = try FuzzInterface.defaultInterface(into: engine)
        } catch { fatalError("the interface: \(error)") }
        let report = engine.restore()
        let text = report.description
        if Harnesses.verbose { print(text) }
        for record in report.records { _ = record.outcome.description }
        if let reason = report.freshLaunchReason {
            guard report.records.isEmpty else { fatalError("a fresh launch (\(reason)) with \(report.records.count) records") }
        }
        guard store.bytes == nil else { fatalError("the archive was kept after restoring: \(report)") }
        guard store.guardCount == 0 else { fatalError("the launch guard was kept after restoring: \(report)") }
        // The restored interface can be preserved again.
        if report.freshLaunchReason == nil {
            _ = try? engine.preserve()
        }
        withExtendedLifetime(made) {}
    }
}
