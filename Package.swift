// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Amber",
    products: [
        .library(name: "AmberArchive", targets: ["AmberArchive"]),
        .executable(name: "amber", targets: ["amber-cli"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Binary property lists and the NSKeyedArchiver layout. Pure Swift, no Foundation.
        .target(name: "AmberArchive"),
        // The restoration engine, pure Swift (SPEC R1-R16, R25).
        .target(name: "AmberCore", dependencies: ["AmberArchive"]),
        // The `amber` command.
        .executableTarget(
            name: "amber-cli",
            dependencies: [
                "AmberArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The demo: until the restoration engine exists, the seeds' item store archived.
        .executableTarget(name: "amber-demo", dependencies: ["AmberArchive"]),
        // Benchmarks: programs that print figures, never tests.
        .executableTarget(
            name: "amber-bench-archive",
            dependencies: ["AmberArchive"],
            path: "Benchmarks/ArchiveBench"
        ),
        .testTarget(name: "AmberArchiveTests", dependencies: ["AmberArchive"]),
        .testTarget(name: "AmberCoreTests", dependencies: ["AmberCore"]),
    ],
    swiftLanguageModes: [.v6]
)
