// amber-fuzz: the libFuzzer harnesses of the reader, the envelope, restoring and the C API's
// unarchiver of application data (SPEC R20, R22, R25, R26), and their seed corpora.
//
// A normal build (swift build --product amber-fuzz):
//   amber-fuzz make-seeds DIR             writes the seed corpora: DIR/envelope/, DIR/restore/,
//                                         DIR/unarchiver/
//   amber-fuzz make-reader-seeds DIR      writes the reader seeds the library itself makes into
//                                         DIR (Fuzz/make-seeds.sh adds plistlib's)
//   amber-fuzz HARNESS FILE|DIR...        runs files through a harness once (a reproducer;
//                                         prints one line per file and a summary)
// A fuzzing build (-DAMBER_FUZZ --sanitize=fuzzer --sanitize=address: Fuzz/run-harness.sh),
// where libFuzzer's own main runs:
//   amber-fuzz HARNESS [libFuzzer flags] CORPUS...|FILE...
//
// HARNESS is `reader` (ReaderHarness.swift), `envelope` (EnvelopeHarness.swift), `restore`
// (RestoreHarness.swift) or `unarchiver` (UnarchiverHarness.swift). A finding
// is a trap, a sanitizer report, a timeout or an out-of-memory: bad input must only ever give
// errors and fresh launches.

#if canImport(Glibc)
import Glibc
#endif

func usage() -> Never {
    let names = Harnesses.all.keys.sorted().joined(separator: "|")
    #if AMBER_FUZZ
    printError("usage: amber-fuzz \(names) [libFuzzer flags] CORPUS...|FILE...")
    #else
    printError("usage: amber-fuzz make-seeds DIR\n       amber-fuzz make-reader-seeds DIR\n       amber-fuzz \(names) FILE|DIR...")
    #endif
    exit(2)
}

#if AMBER_FUZZ
/// libFuzzer calls this first with the command line: argv[1] names the harness, and is removed
/// before libFuzzer parses its flags. libFuzzer starts itself again for -merge, -fork and -jobs
/// with the command line it parsed, without that name, so the name is also handed down in the
/// environment (`AMBER_FUZZ_HARNESS`), where such a child finds it.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let args = argv.pointee else { usage() }
    if argc.pointee >= 2, let name = args[1], let harness = Harnesses.all[String(cString: name)] {
        Harnesses.selected = harness
        setenv(harnessVariable, name, 1)
        for i in 1 ..< Int(argc.pointee) { args[i] = args[i + 1] }  // argv[argc] is NULL
        argc.pointee -= 1
    } else if let name = getenv(harnessVariable), let harness = Harnesses.all[String(cString: name)] {
        Harnesses.selected = harness
    } else {
        usage()
    }
    return 0
}

/// Names the harness for the processes libFuzzer starts itself (see fuzzerInitialize).
let harnessVariable = "AMBER_FUZZ_HARNESS"

/// libFuzzer calls this for each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Harnesses.selected(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
@main
struct AmberFuzz {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else { usage() }
        if arguments[1] == "make-seeds" || arguments[1] == "make-reader-seeds" {
            guard arguments.count == 3 else { usage() }
            do {
                if arguments[1] == "make-seeds" { try Seeds.write(to: arguments[2]) } else { try ReaderSeeds.write(to: arguments[2]) }
            } catch {
                printError("amber-fuzz: \(error)")
                exit(1)
            }
            return
        }
        guard let harness = Harnesses.all[arguments[1]] else { usage() }
        exit(Reproducer.run(harness, paths: Array(arguments.dropFirst(2))))
    }
}
#endif
