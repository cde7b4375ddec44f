import AmberArchive
@testable import AmberCore
import Testing

/// The log lines an engine wrote (the sink is called on the engine's thread).
private final class Lines: @unchecked Sendable {
    var all: [String] = []
}

private let secret = "SECRET-7f3a9c"

/// An engine on `store` sealing under a fixed key (or not encrypting), whose one screen writes
/// `secret` under "password", marked sensitive, and "CONTROL-51e2" under "title".
private func sensitiveProgram(_ store: MemoryStore, encrypted: Bool, decoded: @escaping (String) -> Void) throws -> Engine {
    let envelope = encrypted
        ? SealedEnvelope(keyProvider: try FixedKeyProvider(key: [UInt8](repeating: 7, count: 32)), bundleVersion: "1")
        : SealedEnvelope.unencrypted(bundleVersion: "1")
    let engine = Engine(configuration: EngineConfiguration(appID: "org.amber.tests", store: store, envelope: envelope))
    engine.delegate.shouldSave = { _ in true }
    engine.delegate.shouldRestore = { _ in true }
    let screen = controller("screen", "Login")
    try engine.addRoot(screen)
    screen.callbacks.encode = { _, coder in
        try coder.markSensitive("password")  // before the write
        try coder.encode(secret, forKey: "password")
        try coder.encode("CONTROL-51e2", forKey: "title")
    }
    screen.callbacks.decode = { _, coder in decoded(try coder.decodeString(forKey: "password")) }
    return engine
}

private func contains(_ bytes: [UInt8], _ text: String) -> Bool {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return false }
    return (0 ... bytes.count - needle.count).contains { Array(bytes[$0 ..< $0 + needle.count]) == needle }
}

@Suite struct SensitiveValueTests {
    // R34: kept only encrypted, named under amber.sensitive, given back to the decode callback.
    @Test func testR34SensitiveValueIsEncryptedNamedAndRestored() throws {
        let store = MemoryStore()
        var restored: String?
        let lines = Lines()
        let engine = try sensitiveProgram(store, encrypted: true) { restored = $0 }
        engine.logSink = LogSink(level: .debug) { _, line in lines.all.append(line) }
        let result = try engine.relaunch(setUp: { e in
            let screen = controller("screen", "Login")
            try e.addRoot(screen)
            e.delegate.shouldRestore = { _ in true }
            screen.callbacks.decode = { _, coder in
                #expect(coder.holdsSensitiveValues)
                restored = try coder.decodeString(forKey: "password")
            }
        })
        #expect(result.preservation.saved)
        #expect(restored == secret)
        #expect(!lines.all.isEmpty && !lines.all.contains { $0.contains(secret) })
    }

    // R34: the archive names the key, not the value; the plaintext holds the value (the control).
    @Test func testR34ArchiveNamesTheSensitiveKeys() throws {
        let store = MemoryStore()
        let engine = try sensitiveProgram(store, encrypted: true) { _ in }
        try engine.preserve()
        let sealed = try #require(store.bytes)
        #expect(!contains(sealed, secret) && !contains(sealed, "CONTROL-51e2"))  // encrypted
        let plain = try engine.configuration.envelope.open(sealed)
        #expect(contains(plain, "amber.sensitive") && contains(plain, secret))
    }

    // R34: without encryption nothing is written, and the mark says why.
    @Test func testR34NoEncryptionWritesNothing() throws {
        let store = MemoryStore()
        let engine = try sensitiveProgram(store, encrypted: false) { _ in }
        #expect(throws: AmberError.self) { try engine.preserve() }
        #expect(store.bytes == nil && store.writeCount == 0)
        do {
            try engine.preserve()
        } catch let e as AmberError {
            #expect(e.code == .keyUnavailable)
            #expect(e.message.contains("'password' was marked sensitive"))
            #expect(!e.message.contains(secret))
        }
        // Reserved keys cannot be marked; a coder used after its callback cannot mark.
        var kept: StateCoder?
        let other = try sensitiveProgram(MemoryStore(), encrypted: true) { _ in }
        other.roots[0].callbacks.encode = { _, coder in
            kept = coder
            #expect(throws: AmberError(.reservedKey, "'amber.x' is a reserved key and cannot be marked sensitive (in the coder of '/screen')")) {
                try coder.markSensitive("amber.x")
            }
        }
        try other.preserve()
        // It still names its object, after its pass has given the report its records.
        #expect(throws: AmberError(.misuse, "the coder of '/screen' was used after its callback returned")) {
            try kept?.markSensitive("password")
        }
    }

    // R34 with R32: reusing clean states keeps no sensitive value in memory. The state that marks
    // a key sensitive is encoded again at every save, and the archive still names the key.
    @Test func testR34SensitiveStateIsNeverKeptForReuse() throws {
        let store = MemoryStore()
        let engine = try sensitiveProgram(store, encrypted: true) { _ in }
        try engine.setAutosave(AutosavePolicy())
        let screen = try #require(engine.roots.first)
        var encodes = 0
        let encode = try #require(screen.callbacks.encode)
        screen.callbacks.encode = { object, coder in
            encodes += 1
            try encode(object, coder)
        }
        try engine.preserve()
        try engine.preserve()
        #expect(encodes == 2)
        #expect(screen.stateRecording == nil)
    }
}
