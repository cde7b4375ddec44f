@testable import AmberCore
import Testing

@Suite struct AppDirectoriesTests {
    private func directories(_ env: [String: String], appID: String = "org.example.app") throws -> AppDirectories {
        try AppDirectories(appID: appID) { env[$0] }
    }

    // R27
    @Test func pathsFollowTheXDGVariables() throws {
        let d = try directories([
            "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/c/", "XDG_CONFIG_HOME": "/p", "XDG_RUNTIME_DIR": "/run/user/7",
            "HOME": "/home/u",
        ])
        #expect(try d.path(for: .documents) == "/d/org.example.app")
        #expect(try d.path(for: .caches) == "/c/org.example.app")
        #expect(try d.path(for: .preferences) == "/p/org.example.app")
        #expect(try d.path(for: .temporary) == "/run/user/7/org.example.app")
    }

    // R27
    @Test func relativeOrMissingVariablesFallBackOnHome() throws {
        let d = try directories(["XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "", "HOME": "/home/u", "TMPDIR": "/var/tmp"])
        #expect(try d.path(for: .documents) == "/home/u/.local/share/org.example.app")
        #expect(try d.path(for: .caches) == "/home/u/.cache/org.example.app")
        #expect(try d.path(for: .preferences) == "/home/u/.config/org.example.app")
        #expect(try d.path(for: .temporary) == "/var/tmp/org.example.app-\(FileSystem.userID())")
        #expect(try directories([:]).path(for: .temporary) == "/tmp/org.example.app-\(FileSystem.userID())")
    }

    // R27
    @Test func applicationIDsThatCouldEscapeAreRefused() {
        for bad in ["", ".", "..", "a/b", "../x", "/abs", "nul\u{0}", String(repeating: "x", count: 256)] {
            #expect(throws: AmberError.self, "\(bad.debugDescription)") { try directories([:], appID: bad) }
            #expect(throws: AmberError.self) { try FileStore.defaultDirectory(appID: bad) }
        }
        #expect(throws: Never.self) { try directories([:], appID: "..dots.are.fine..") }
    }

    // R27
    @Test func directoriesAreCreatedOwnerOnly() throws {
        let scratch = ScratchDirectory("dirs")
        defer { scratch.cleanup() }
        let d = try directories([
            "XDG_DATA_HOME": scratch.path + "/data", "XDG_CACHE_HOME": scratch.path + "/cache",
            "XDG_CONFIG_HOME": scratch.path + "/config", "TMPDIR": scratch.path + "/tmp",
        ])
        for which in AppDirectory.allCases {
            let path = try d.directory(which)
            #expect(FileSystem.isDirectory(path), "\(which)")
            #expect(FileSystem.permissions(path) == 0o700, "\(which)")
        }
    }

    // R27
    @Test func aSharedTemporaryDirectoryMustBeTheUsersOwnAndPrivate() throws {
        let scratch = ScratchDirectory("tmp")
        defer { scratch.cleanup() }
        let d = try directories(["TMPDIR": scratch.path])
        let path = try d.path(for: .temporary)
        try FileSystem.makeDirectories(path, mode: 0o777)
        FileSystem.setPermissions(path, 0o777)
        #expect { try d.directory(.temporary) } throws: { ($0 as? AmberError)?.code == .io }
        FileSystem.setPermissions(path, 0o700)
        #expect(try d.directory(.temporary) == path)
    }

    // R27
    @Test func dataFilesAreWrittenAtomicallyAndTheOldOneSurvivesAFailure() throws {
        let scratch = ScratchDirectory("datafile")
        defer { scratch.cleanup() }
        try FileSystem.makeDirectories(scratch.path)
        let file = scratch.path + "/items.archive"
        try DataFile.write([1, 2, 3], toPath: file)
        #expect(try DataFile.read(path: file) == [1, 2, 3])
        #expect(FileSystem.permissions(file) == 0o600)
        #expect(throws: AmberError.self) { try DataFile.write([9, 9], toPath: file, faults: FaultInjector(failAt: 5)) }
        #expect(try DataFile.read(path: file) == [1, 2, 3])
        #expect(FileSystem.directoryEntries(scratch.path) == ["items.archive"])
        try DataFile.write([4], toPath: file)
        #expect(try DataFile.read(path: file) == [4])
        #expect(try DataFile.read(path: scratch.path + "/none") == nil)
        #expect { try DataFile.write([1], toPath: scratch.path + "/missing/file") } throws: { ($0 as? AmberError)?.code == .io }
        #expect(!FileSystem.isDirectory(scratch.path + "/missing"))
        for bad in ["", "dir/", "x/..", "."] {
            #expect { try DataFile.write([1], toPath: bad) } throws: { ($0 as? AmberError)?.code == .invalidArgument }
        }
    }

    // R27
    @Test func pathsSplitIntoDirectoryAndName() throws {
        for (path, directory, name) in [("/a/b/c", "/a/b", "c"), ("/c", "/", "c"), ("c", ".", "c"), ("a//c", "a/", "c")] {
            let s = try DataFile.split(path)
            #expect(s.directory == directory && s.name == name, "\(path)")
        }
    }
}
