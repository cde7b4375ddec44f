@testable import AmberCore
import AmberArchive
import Crypto
import Testing

#if canImport(Glibc)
import Glibc
#endif

private let keyA = [UInt8](repeating: 0xA5, count: 32)
private let keyB = [UInt8](repeating: 0x5A, count: 32)

private func sealed(_ archive: [UInt8], key: [UInt8] = keyA, bundleVersion: String = "2.1") throws -> [UInt8] {
    try SealedEnvelope(keyProvider: FixedKeyProvider(key: key), bundleVersion: bundleVersion).seal(archive)
}

private func opener(_ key: [UInt8] = keyA) throws -> SealedEnvelope {
    SealedEnvelope(keyProvider: try FixedKeyProvider(key: key), bundleVersion: "2.1")
}

/// A real archive: one controller preserved by an engine on a memory store.
private func realArchive() throws -> [UInt8] {
    let store = MemoryStore()
    let engine = makeEngine(store)
    let root = controller("Root")
    saving(root, "secret text")
    try engine.addRoot(root)
    _ = try engine.preserve()
    return try #require(store.bytes)
}

@Suite struct EnvelopeTests {
    // R20
    @Test func sealsAndOpensAndHidesThePlaintext() throws {
        let archive = try realArchive()
        let bytes = try sealed(archive)
        #expect(Array(bytes.prefix(8)) == Array("AMBERENV".utf8))
        #expect(bytes[8] == 2)
        #expect(bytes.count == archive.count + 12 + 3 + 32 + 1 + 7 + 16)  // one chunk
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("secret text") && !text.contains("NSKeyedArchiver") && !text.contains("bplist"))
        #expect(try opener().open(bytes) == archive)
        let header = try EnvelopeFormat.header(of: bytes)
        #expect(header.algorithm == .aes256GCM && header.bundleVersion == "2.1")
        #expect(header.formatVersion == 2 && header.chunkSize == 1 << 16)
    }

    // R20: a fresh salt and nonce prefix per archive
    @Test func twoSealsOfTheSameArchiveDiffer() throws {
        let archive = try realArchive()
        let a = try sealed(archive), b = try sealed(archive)
        #expect(a != b)
        #expect(a[15 ..< 47] != b[15 ..< 47])  // salt
        #expect(a[48 ..< 55] != b[48 ..< 55])  // nonce prefix
    }

    // R20, R22
    @Test func everyBitFlipAndEveryTruncationIsRejected() throws {
        let bytes = try sealed(try realArchive())
        let envelope = try opener()
        var accepted = 0
        var codes: Set<String> = []
        for i in 0 ..< bytes.count {
            for bit in 0 ..< 8 {
                var copy = bytes
                copy[i] ^= UInt8(1 << bit)
                do { _ = try envelope.open(copy); accepted += 1 } catch { codes.insert("\(code(error)!)") }
            }
        }
        for length in 0 ..< bytes.count {
            do { _ = try envelope.open(Array(bytes.prefix(length))); accepted += 1 } catch { codes.insert("\(code(error)!)") }
        }
        #expect(accepted == 0)
        #expect(codes.isSubset(of: ["corrupt", "authenticationFailed"]))
    }

    // R20
    @Test func aWrongKeyFailsAuthentication() throws {
        let bytes = try sealed(try realArchive(), key: keyB)
        #expect(throws: AmberError.self) { try opener(keyA).open(bytes) }
        do { _ = try opener(keyA).open(bytes) } catch { #expect(code(error) == .authenticationFailed) }
    }

    // R20: editing the header (the bundle version) or downgrading to "none" is refused
    @Test func headerEditsAndDowngradesAreRefused() throws {
        let archive = try realArchive()
        var edited = try sealed(archive, bundleVersion: "2.1")
        edited[14] = UInt8(ascii: "2")  // "2.1" -> "2.2"
        do { _ = try opener().open(edited); Issue.record("an edited header was accepted") } catch {
            #expect(code(error) == .authenticationFailed)
        }
        let plain = try SealedEnvelope.unencrypted(bundleVersion: "2.1").seal(archive)
        do { _ = try opener().open(plain); Issue.record("an unencrypted archive was accepted") } catch {
            #expect(code(error) == .authenticationFailed)
            #expect(String(describing: error).contains("downgrade"))
        }
        var wrongVersion = try sealed(archive)
        wrongVersion[8] = 0
        do { _ = try opener().open(wrongVersion) } catch { #expect(code(error) == .corrupt) }
    }

    // R20: no encryption, as an explicit choice, still has a header the tools can show
    @Test func unencryptedIsExplicitAndShown() throws {
        let archive = try realArchive()
        let envelope = SealedEnvelope.unencrypted(bundleVersion: "3")
        let bytes = try envelope.seal(archive)
        #expect(try envelope.open(bytes) == archive)
        #expect(try EnvelopeFormat.header(of: bytes).algorithm == EnvelopeAlgorithm.none)
        #expect(envelope.protection.contains("not encrypted"))
        do { _ = try envelope.open(try sealed(archive)) } catch { #expect(code(error) == .authenticationFailed) }
    }

    // R20: the default key file
    // R20 (issue 27): a Swift host that configures nothing gets what a C host gets: an
    // archive sealed with AES-256-GCM under a key file beside it, on disk and in memory alike.
    @Test func anEngineConfiguredWithNothingEncrypts() throws {
        let scratch = ScratchDirectory("defaults")
        defer { scratch.cleanup() }
        var options = EngineOptions()
        options.storage = .directory(scratch.path)
        for configuration in [
            EngineConfiguration(appID: "org.amber.tests", store: FileStore(directory: scratch.path)),
            try EngineConfiguration(appID: "org.amber.tests", options: options),
            EngineConfiguration(appID: "org.amber.tests", store: MemoryStore()),
        ] {
            let engine = Engine(configuration: configuration)
            engine.delegate.shouldSave = { _ in true }
            engine.delegate.shouldRestore = { _ in true }
            let root = controller("root")
            saving(root, "secret text")
            try engine.addRoot(root)
            try engine.preserve()
            let bytes = try #require(try configuration.store.read())
            #expect(try EnvelopeFormat.header(of: bytes).algorithm == .aes256GCM, "R20 \(configuration.store)")
            #expect(!contains(bytes, Array("secret text".utf8)), "R20 the state is not in the clear")
            let next = Engine(configuration: configuration)
            next.delegate.shouldRestore = { _ in true }
            let log = Log()
            let again = controller("root")
            saving(again, "", log: log)
            try next.addRoot(again)
            #expect(next.restore().count(of: .restored) == 1)
            #expect(log.entries.first == "decode root=secret text")
        }
        #expect(FileSystem.directoryEntries(scratch.path) == ["archive.key"])
    }

    @Test func keyFileIsCreatedOwnerOnlyAndRefusedWhenOthersCanReadIt() throws {
        let dir = ScratchDirectory("keyfile")
        defer { dir.cleanup() }
        let provider = KeyFileProvider(directory: dir.path)
        do { _ = try provider.masterKey(for: .open); Issue.record("a missing key file gave a key") } catch {
            #expect(code(error) == .authenticationFailed)
        }
        let key = try provider.masterKey(for: .seal)
        #expect(key.count == 32)
        #expect(FileSystem.permissions(provider.path) == 0o600)
        #expect(try provider.masterKey(for: .open) == key)
        #expect(try KeyFileProvider(directory: dir.path).masterKey(for: .seal) == key)
        chmod(provider.path, 0o640)
        do { _ = try provider.masterKey(for: .open); Issue.record("a group-readable key file was used") } catch {
            #expect(code(error) == .keyUnavailable)
            #expect(String(describing: error).contains("640"))
        }
        chmod(provider.path, 0o600)
        try FileSystem.writeFileAtomically(directory: dir.path, name: "short.key", bytes: [1, 2, 3])
        do { _ = try KeyFileProvider(directory: dir.path, name: "short.key").masterKey(for: .open) } catch {
            #expect(code(error) == .keyUnavailable)
        }
        symlink(provider.path, dir.path + "/link.key")
        do { _ = try KeyFileProvider(directory: dir.path, name: "link.key").masterKey(for: .open); Issue.record("a symbolic link was followed") } catch {
            #expect(code(error) == .keyUnavailable)
        }
    }

    // R20, R9, R16: a key that is unavailable keeps the archive and launches fresh
    @Test func unavailableKeyDefersRestoration() throws {
        let store = MemoryStore()
        var locked = false
        let provider = ClosureKeyProvider { (_: KeyPurpose) throws(AmberError) -> [UInt8] in
            if locked { throw AmberError(.keyUnavailable, "the device is locked") }
            return keyA
        }
        func engine() -> Engine {
            let e = Engine(configuration: EngineConfiguration(
                appID: "org.amber.tests", store: store,
                envelope: SealedEnvelope(keyProvider: provider, bundleVersion: "1")))
            e.delegate.shouldSave = { _ in true }
            e.delegate.shouldRestore = { _ in true }
            return e
        }
        let first = engine()
        let root = controller("Root")
        saving(root, "kept")
        try first.addRoot(root)
        _ = try first.preserve()
        locked = true
        let report = engine().restore()
        #expect(report.freshLaunchReason == .keyUnavailable("the device is locked"))
        #expect(store.bytes != nil)
        locked = false
        let second = engine()
        let log = Log()
        let again = controller("Root")
        saving(again, "", log: log)
        try second.addRoot(again)
        let restored = second.restore()
        #expect(restored.freshLaunchReason == nil && restored.count(of: .restored) == 1)
        #expect(log.entries.contains("decode Root=kept"))
        #expect(store.bytes == nil)
    }

    // R20, R22: an archive sealed under another key is discarded with the reason
    @Test func wrongKeyArchiveIsDiscardedAndReported() throws {
        let store = MemoryStore()
        let sealer = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: store,
            envelope: SealedEnvelope(keyProvider: try FixedKeyProvider(key: keyB), bundleVersion: "1")))
        sealer.delegate.shouldSave = { _ in true }
        try sealer.addRoot(controller("Root"))
        _ = try sealer.preserve()
        let opener = Engine(configuration: EngineConfiguration(
            appID: "org.amber.tests", store: store,
            envelope: SealedEnvelope(keyProvider: try FixedKeyProvider(key: keyA), bundleVersion: "1")))
        opener.delegate.shouldRestore = { _ in true }
        let report = opener.restore()
        guard case .authenticationFailed = report.freshLaunchReason else {
            Issue.record("expected authenticationFailed, got \(String(describing: report.freshLaunchReason))")
            return
        }
        #expect(store.bytes == nil)
    }

    // R22, R14, R16, R20: hostile archives on disk, through a FileStore and a whole launch: each
    // gives a typed reason, a fresh launch, the archive file and the launch guard gone, and the
    // reason in the report. (Bit flips and truncations of the envelope alone: above.)
    @Test func hostileArchivesOnDiskLaunchFreshAndAreDiscarded() throws {
        let scratch = ScratchDirectory("hostile")
        defer { scratch.cleanup() }
        func engine(_ dir: String, key: [UInt8] = keyA, unencrypted: Bool = false, limits: ArchiveLimits = .default) throws -> Engine {
            let envelope = unencrypted
                ? SealedEnvelope.unencrypted(bundleVersion: "2.1")
                : SealedEnvelope(keyProvider: try FixedKeyProvider(key: key), bundleVersion: "2.1")
            let e = Engine(configuration: EngineConfiguration(
                appID: "org.amber.tests", bundleVersion: "2.1", store: FileStore(directory: dir), limits: limits,
                envelope: envelope, systemVersion: "test"))
            e.delegate.shouldSave = { _ in true }
            e.delegate.shouldRestore = { _ in true }
            return e
        }
        /// The bytes of a valid archive on disk, saved by an engine with `key` (or unencrypted).
        func saved(key: [UInt8] = keyA, unencrypted: Bool = false, nesting: Int = 0) throws -> [UInt8] {
            let dir = scratch.path + "/source"
            let e = try engine(dir, key: key, unencrypted: unencrypted)
            let root = controller("Root")
            var value = ArchiveValue.string("deep")
            for _ in 0 ..< nesting { value = .array([value]) }
            root.callbacks.encode = { [value] _, coder in
                try coder.encode("secret", forKey: "value")
                try coder.encode(value, forKey: "nested")
            }
            try e.addRoot(root)
            _ = try e.preserve()
            let store = FileStore(directory: dir)
            let bytes = try #require(try store.read())
            try store.remove()
            return bytes
        }
        let good = try saved()
        var tampered = good
        tampered[tampered.count - 20] ^= 0x01                 // a ciphertext bit
        var editedHeader = good
        editedHeader[14] = UInt8(ascii: "9")                  // bundle version "2.1" -> "2.9"
        var badVersion = good
        badVersion[8] = 3                                     // format version 3
        let cases: [(name: String, bytes: [UInt8], limits: ArchiveLimits, expected: String)] = [
            ("corrupted: not an envelope", Array("bplist00 and then some garbage".utf8), .default, "corrupt"),
            ("corrupted: random bytes with the magic", Array("AMBERENV".utf8) + (0 ..< 200).map { UInt8($0 % 251) }, .default, "corrupt"),
            ("truncated to the header", Array(good.prefix(40)), .default, "corrupt"),
            ("truncated by one byte", Array(good.dropLast()), .default, "authenticationFailed"),
            ("empty file", [], .default, "corrupt"),
            ("tampered ciphertext", tampered, .default, "authenticationFailed"),
            ("tampered header", editedHeader, .default, "authenticationFailed"),
            ("unknown format version", badVersion, .default, "corrupt"),
            ("wrong key", try saved(key: keyB), .default, "authenticationFailed"),
            ("downgraded to unencrypted", try saved(unencrypted: true), .default, "authenticationFailed"),
            // Nesting inside an object's state is checked when it is decoded: the object's
            // decode fails with the limit named, the others restore, the archive is discarded.
            ("nested deeper than the limit", try saved(nesting: 40), ArchiveLimits(maxDepth: 16), "decodeError"),
            ("more objects than the limit", good, ArchiveLimits(maxObjects: 8), "corrupt"),
        ]
        for (n, c) in cases.enumerated() {
            let dir = scratch.path + "/case\(n)"
            let store = FileStore(directory: dir)
            try store.write(c.bytes)
            let restorer = try engine(dir, limits: c.limits)
            let root = controller("Root")
            let log = Log()
            root.callbacks.decode = { _, coder in
                log.add(try coder.decodeString(forKey: "value"))
                _ = try coder.decodeValue(forKey: "nested")
            }
            try restorer.addRoot(root)
            let report = restorer.launch()
            let kind: String
            switch report.freshLaunchReason {
            case .corruptArchive?: kind = "corrupt"
            case .authenticationFailed?: kind = "authenticationFailed"
            case nil:
                if case .decodeError(let message)? = report.records.first?.outcome, message.contains("limit") {
                    kind = "decodeError"
                } else {
                    kind = "restored"
                }
            default: kind = "\(String(describing: report.freshLaunchReason))"
            }
            #expect(kind == c.expected, "\(c.name): \(report)")
            if c.expected != "decodeError" {
                #expect(report.records.isEmpty && log.entries.isEmpty, "\(c.name): nothing is restored")
                #expect(report.description.hasPrefix("fresh launch: "), "\(c.name): the reason is in the report")
            }
            #expect(try store.read() == nil, "\(c.name): the archive is discarded")
            #expect(try store.readGuard() == 0, "\(c.name): the launch guard is removed")
        }
        // The untouched archive restores, so each case above failed for its damage alone.
        let dir = scratch.path + "/intact"
        try FileStore(directory: dir).write(good)
        let restorer = try engine(dir)
        try restorer.addRoot(controller("Root"))
        #expect(restorer.launch().count(of: .restored) == 1)
    }
}
