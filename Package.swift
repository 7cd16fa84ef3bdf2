// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "maskclean",
    products: [
        .executable(name: "maskclean", targets: ["maskclean"]),
        .library(name: "MaskEngine", targets: ["MaskEngine"]),
        .library(name: "MaskClean", targets: ["MaskClean"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibCSV",
            providers: [.apt(["libcsv-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // SHA-256 for the spec's fingerprint in every report (docs/report.md): libmd, the BSD
        // message digests.
        .systemLibrary(
            name: "CLibMD",
            providers: [.apt(["libmd-dev"])]
        ),
        // YAML specs (docs/spec.md), read into the same tree as a JSON spec.
        .systemLibrary(
            name: "CLibYAML",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Intel ISA-L's igzip inflate (docs/record-formats.md): its types; the library is loaded
        // at run time when present.
        .systemLibrary(
            name: "CISAL",
            providers: [.apt(["libisal-dev"])]
        ),
        // glibc's malloc settings, which the executable tunes for the process (ExitPath).
        .systemLibrary(name: "CMalloc"),
        .target(name: "MaskEngine"),
        .target(
            name: "MaskClean",
            dependencies: [
                "MaskEngine", "CLibCSV", "CZlib", "CZstd", "CISAL", "CLibYAML", "CLibMD",
            ]
        ),
        .executableTarget(
            name: "maskclean",
            dependencies: [
                "MaskClean",
                "MaskEngine",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "MaskEngineTests",
            dependencies: [
                "MaskEngine",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Conformance")]
        ),
        // What the unit and end-to-end tests share (a temporary folder); no test of its own.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(
            name: "MaskCleanTests",
            dependencies: [
                "MaskClean", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests", dependencies: ["maskclean", "MaskClean", "MaskEngine", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
