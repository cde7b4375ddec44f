// Harness `envelope`: arbitrary bytes through the envelope (SPEC R20) and the keyed-archive
// reader, as the engine reads an archive (SPEC R22).
//
// The first byte picks what the rest is (so that the fuzzer also gets past authentication):
//   0 mod 3: a sealed archive, opened as it is with the fixed key (header parsing,
//            authentication, wrong algorithm, truncation);
//   1 mod 3: an archive, sealed with the fixed key by the harness (in chunks of 64 bytes, so
//            that short inputs make multi-chunk envelopes), then opened: the plaintext must
//            come back unchanged, then it is read; a flipped byte, the first two chunks
//            swapped and the last one dropped must not open;
//   2 mod 3: an envelope opened by an engine set up without encryption (the explicit option):
//            the payload after the header goes to the reader as it is.
// Whatever opens is read with KeyedUnarchiver, walking every key and nested object.
// Findings: a trap (including the round-trip check), a sanitizer report, a timeout.

import AmberArchive
import AmberCore

enum EnvelopeHarness {
    static let key: [UInt8] = (0 ..< 32).map { UInt8($0 &* 7 &+ 1) }
    nonisolated(unsafe) static let sealer = SealedEnvelope(keyProvider: try! FixedKeyProvider(key: key), bundleVersion: "fuzz 1")
    /// The same key and bundle version, chunks of 64 bytes (the format's smallest).
    nonisolated(unsafe) static let chunkedSealer = SealedEnvelope(
        keyProvider: try! FixedKeyProvider(key: key), bundleVersion: "fuzz 1", chunkShift: 6)
    nonisolated(unsafe) static let unencrypted = SealedEnvelope.unencrypted(bundleVersion: "fuzz 1")
    /// Small limits so that every input stays fast (the engine's defaults are larger).
    static let limits = ArchiveLimits(maxBytes: 1 << 20, maxObjects: 1 << 16, maxDepth: 64, maxValueLength: 1 << 20)

    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let rest = Array(input.dropFirst())
        let plain: [UInt8]
        switch mode % 3 {
        case 0:
            guard let opened = try? sealer.open(rest) else { return }
            plain = opened
        case 1:
            let sealed: [UInt8]
            do { sealed = try chunkedSealer.seal(rest) } catch { fatalError("sealing \(rest.count) bytes failed: \(error)") }
            do { plain = try sealer.open(sealed) } catch { fatalError("a sealed archive did not open: \(error)") }
            guard plain == rest else { fatalError("open(seal(x)) != x for \(rest.count) bytes") }
            var tampered = sealed
            tampered[tampered.count / 2] ^= 0x20
            if (try? sealer.open(tampered)) != nil { fatalError("a tampered envelope opened") }
            // Chunks of 64 + 16 bytes after the 12 + 6 + 40 header bytes ("fuzz 1").
            let header = 12 + 6 + 40, stride = 64 + 16
            if rest.count > 128 {  // the first two chunks are full
                var swapped = Array(sealed[..<header])
                swapped += sealed[header + stride ..< header + 2 * stride]
                swapped += sealed[header ..< header + stride]
                swapped += sealed[(header + 2 * stride)...]
                if (try? sealer.open(swapped)) != nil { fatalError("an envelope with two chunks swapped opened") }
            }
            if rest.count > 64 {
                let cut = Array(sealed.prefix(header + (rest.count - 1) / 64 * stride))
                if (try? sealer.open(cut)) != nil { fatalError("an envelope cut at a chunk boundary opened") }
            }
        default:
            _ = try? EnvelopeFormat.header(of: rest)
            guard let opened = try? unencrypted.open(rest) else { return }
            plain = opened
        }
        read(plain)
    }

    /// Reads an archive as the engine does: every key of every object, as every type.
    static func read(_ plain: [UInt8]) {
        let un: KeyedUnarchiver
        do { un = try KeyedUnarchiver(bytes: plain, limits: limits, registry: FuzzInterface.codingClasses) } catch {
            if Harnesses.verbose { print("not read: \(error)") }
            return
        }
        // A step may decode a whole array (decodeValue, decodeObjects), so the budget also bounds
        // the harness's time on an input that refers to one large array from many keys.
        var walk = Walk(budget: 2_000)
        walk.walk(un)
        if Harnesses.verbose { print("read, walk budget left \(walk.budget)") }
    }

    /// A walk over an archive's objects: every key of each object, decoded as every type.
    /// Each object is walked once; a later reference to it is entered (so that the unarchiver's
    /// own checks of depth and cycles run) but not walked again, which keeps the walk linear
    /// in the archive's size where walking each reference could take exponential time.
    struct Walk {
        /// Steps left; the walk stops at 0.
        var budget: Int
        var walked: Set<Int> = []

        mutating func walk(_ un: KeyedUnarchiver) {
            for key in un.allKeys() {
                budget -= 1
                guard budget > 0 else { return }
                _ = un.containsValue(forKey: key)
                _ = try? un.decodeValue(forKey: key)
                _ = try? un.decodeString(forKey: key)
                _ = try? un.decodeInt64(forKey: key)
                _ = try? un.decodeBool(forKey: key)
                _ = try? un.decodeDouble(forKey: key)
                _ = try? un.decodeIndexPath(forKey: key)
                _ = try? un.decodeUUID(forKey: key)
                _ = try? un.decodeObject(forKey: key, ofClasses: [FuzzInterface.itemClass])
                _ = try? un.decodeObjects(forKey: key, ofClasses: nil)
                _ = try? un.decodeObject(forKey: key) { (nested: KeyedUnarchiver, _: String) in nested.allKeys().count }
                // As the engine reaches records and states: by UID, and through arrays of UIDs.
                if let uid = try? un.objectUID(forKey: key) {
                    enter(un, uid)
                }
                for uid in (try? un.decodeObjectUIDs(forKey: key)) ?? [] {
                    budget -= 1
                    guard budget > 0 else { return }
                    enter(un, uid)
                }
            }
        }

        mutating func enter(_ un: KeyedUnarchiver, _ uid: Int) {
            let first = walked.insert(uid).inserted
            _ = try? un.withObject(uid: uid) { (nested: KeyedUnarchiver, _: String) in
                if first { walk(nested) }
            }
        }
    }
}
