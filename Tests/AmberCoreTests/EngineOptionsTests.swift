@testable import AmberCore
import Testing

/// `EngineOptions`: the host's choices and the engine's defaults, alike for Swift and C hosts
/// (`amber_engine_open` converts into them).
@Suite struct EngineOptionsTests {
    // R19, R20: the defaults: files in the state directory, sealed under a key file beside them.
    @Test func theDefaultsAreFilesInTheStateDirectoryAndAKeyFile() throws {
        let scratch = ScratchDirectory("options")
        defer { scratch.cleanup() }
        var options = EngineOptions()
        options.storage = .directory(scratch.path)
        let configuration = try EngineConfiguration(appID: "org.amber.tests", options: options)
        #expect((configuration.store as? FileStore)?.directory == scratch.path)
        #expect(configuration.keyFile?.path == scratch.path + "/archive.key")
        #expect(configuration.bundleVersion == EngineOptions.defaultBundleVersion)
        #expect(configuration.interfaceIdiom == EngineOptions.defaultInterfaceIdiom)
    }

    // R20: a key file named is used, a store in memory keeps its own key, none is explicit.
    @Test func protectionFollowsTheChoice() throws {
        var options = EngineOptions()
        options.storage = .directory("/tmp/amber-options-unused")
        options.protection = .keyFile("/tmp/amber-options-unused/keys/app.key")
        #expect(try EngineConfiguration(appID: "a", options: options).keyFile?.path == "/tmp/amber-options-unused/keys/app.key")

        options.storage = .memory
        let memory = try EngineConfiguration(appID: "a", options: options)
        #expect(memory.keyFile == nil, "R20 a store in memory uses no key file")
        #expect(((memory.envelope as? SealedEnvelope)?.keyProvider as? EphemeralKeyProvider) === (memory.store as? MemoryStore)?.key)

        options.storage = .custom(HostKeptStore(), directory: "/tmp/amber-options-unused/host")
        options.protection = .keyFile(nil)
        #expect(try EngineConfiguration(appID: "a", options: options).keyFile?.path == "/tmp/amber-options-unused/host/archive.key",
                "R20 a host's store: the key file in the directory it names")

        options.protection = .none
        #expect(try EngineConfiguration(appID: "a", options: options).envelope.protection.contains("not encrypted"))
    }

    // R19: what cannot name a place is refused, with the reason.
    @Test func badChoicesAreRefused() {
        var options = EngineOptions()
        options.storage = .memory
        for bad in ["", ".", "..", "a/b"] {
            let error = #expect(throws: AmberError.self) { _ = try EngineConfiguration(appID: bad, options: options) }
            #expect(error?.code == .invalidArgument && error?.message.contains("application id") == true, "R19 '\(bad)'")
        }
        options.storage = .directory("")
        let empty = #expect(throws: AmberError.self) { _ = try EngineConfiguration(appID: "a", options: options) }
        #expect(empty?.code == .invalidArgument)
        options.storage = .directory("/tmp/amber-options-unused")
        options.protection = .keyFile("/tmp/amber-options-unused/")
        let noName = #expect(throws: AmberError.self) { _ = try EngineConfiguration(appID: "a", options: options) }
        #expect(noName?.code == .invalidArgument && noName?.message.contains("does not name a file") == true)
    }
}

/// A store the host keeps (it holds nothing: only its kind matters here).
private final class HostKeptStore: ArchiveStore {
    func read() throws -> [UInt8]? { nil }
    func write(_ bytes: [UInt8]) throws {}
    func remove() throws {}
    func readGuard() throws -> Int { 0 }
    func writeGuard(_ count: Int) throws {}
    func removeGuard() throws {}
}
