// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Amber",
    products: [
        .library(name: "AmberArchive", targets: ["AmberArchive"]),
        // The restoration engine's Swift API.
        .library(name: "AmberCore", targets: ["AmberCore"]),
        .executable(name: "amber", targets: ["amber-cli"]),
        // libamber.so: the C ABI of include/amber.h (scripts/build-lib.sh).
        .library(name: "Amber", type: .dynamic, targets: ["Amber"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // 4.x needs only FoundationEssentials (3.x pulls in all of Foundation).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // Binary property lists and the NSKeyedArchiver layout. Pure Swift, no Foundation.
        .target(name: "AmberArchive"),
        // The restoration engine, pure Swift (SPEC R1-R16, R25); the envelope (R20) on swift-crypto.
        // C library calls Swift's C library module does not declare (AmberCore's Platform/Syscalls.swift).
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        .target(
            name: "AmberCore",
            dependencies: ["AmberArchive", "CSystem", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // include/amber.h and include/amber/*.h as a Swift module, and the C ABI implementing it.
        .systemLibrary(name: "CAmber", path: "Sources/CAmber"),
        .target(name: "Amber", dependencies: ["AmberArchive", "AmberCore", "CAmber"], exclude: ["amber.map"]),
        // The `amber` command.
        .executableTarget(
            name: "amber-cli",
            dependencies: [
                "AmberArchive",
                "AmberCore",
                "CAmber",  // the version, from the header that defines it once
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The keyed archiver's demo: the seeds' item store archived (scripts/demo.sh; the
        // engine's demo is bindings/c/demo, scripts/demo-c.sh).
        .executableTarget(name: "amber-demo", dependencies: ["AmberArchive"]),
        // The README's Swift quick start (scripts/test.sh runs it).
        .executableTarget(name: "quickstart-swift", dependencies: ["AmberCore"], path: "examples/quickstart/swift"),
        // Benchmarks: programs that print figures, never tests. BenchSupport holds what they
        // share: the synthetic tree, its Foundation archiving, timing.
        .target(name: "BenchSupport", path: "Benchmarks/Support"),
        .executableTarget(
            name: "amber-bench-archive",
            dependencies: ["AmberArchive", "BenchSupport"],
            path: "Benchmarks/ArchiveBench"
        ),
        // The Foundation peer of the C end-to-end benchmark (scripts/bench-engine.sh).
        .executableTarget(
            name: "amber-bench-engine-foundation",
            dependencies: ["BenchSupport"],
            path: "Benchmarks/EngineBench"
        ),
        // libFuzzer harnesses of the reader, the envelope, restoring and the C API's unarchiver
        // (Fuzz/run-harness.sh builds them with -DAMBER_FUZZ and --sanitize=fuzzer); in other
        // builds a reproducer of inputs.
        .executableTarget(
            name: "amber-fuzz",
            // Crypto: the seeds include version 1 envelopes, sealed by the harness itself.
            // Amber and CAmber: the unarchiver harness calls the C API's functions as a C host does.
            dependencies: ["AmberArchive", "AmberCore", "Amber", "CAmber", .product(name: "Crypto", package: "swift-crypto")],
            path: "Fuzz/Harnesses"
        ),
        .testTarget(name: "AmberArchiveTests", dependencies: ["AmberArchive"]),
        // The C-ABI layer's internal types (the C API itself is tested from C, bindings/c).
        .testTarget(name: "AmberTests", dependencies: ["Amber"]),
        // Crypto: the envelope tests seal version 1 envelopes by hand, as earlier releases did.
        .testTarget(
            name: "AmberCoreTests",
            dependencies: ["AmberArchive", "AmberCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
