// Runs files through a harness without libFuzzer: the reproducer of a build without
// -DAMBER_FUZZ, used by the tests to replay the corpus and the findings.

#if canImport(Glibc)
import Glibc
#endif

/// The harnesses by name.
enum Harnesses {
    nonisolated(unsafe) static let all: [String: ([UInt8]) -> Void] = [
        "reader": ReaderHarness.run,
        "envelope": EnvelopeHarness.run,
        "restore": RestoreHarness.run,
        "unarchiver": UnarchiverHarness.run,
    ]
    /// The harness libFuzzer drives (set once, before the driver starts).
    nonisolated(unsafe) static var selected: ([UInt8]) -> Void = { _ in }
    /// AMBER_FUZZ_VERBOSE=1: the harnesses print what they did (the restore harness its report).
    static let verbose = getenv("AMBER_FUZZ_VERBOSE").map { String(cString: $0) == "1" } ?? false
}

/// Writes a line to standard error.
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

enum Reproducer {
    /// Runs each file (a directory: each file in it, sorted) through `harness` once; prints a
    /// line per file and `N inputs, all passed`. A finding traps, so the exit status is 0 when
    /// this returns.
    static func run(_ harness: ([UInt8]) -> Void, paths: [String]) -> Int32 {
        var files: [String] = []
        for path in paths {
            if let entries = Files.list(path) {
                files += entries.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        guard !files.isEmpty else {
            printError("amber-fuzz: no input files")
            return 2
        }
        for file in files {
            guard let bytes = Files.read(file) else {
                printError("amber-fuzz: cannot read \(file)")
                return 2
            }
            harness(bytes)
            print("ok \(file) (\(bytes.count) bytes)")
        }
        print("\(files.count) inputs, all passed")
        return 0
    }
}

/// Small file helpers on the C library (the harness avoids Foundation).
enum Files {
    static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n > 0 { out += chunk[0 ..< n] }
            if n < chunk.count { break }
        }
        return ferror(f) == 0 ? out : nil
    }

    static func write(_ path: String, _ bytes: [UInt8]) throws {
        guard let f = fopen(path, "wb") else { throw HarnessError("cannot create \(path)") }
        defer { fclose(f) }
        let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        guard n == bytes.count else { throw HarnessError("cannot write \(path)") }
    }

    /// The names in a directory, or nil if `path` is not one.
    static func list(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw HarnessError("cannot make \(path)") }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
