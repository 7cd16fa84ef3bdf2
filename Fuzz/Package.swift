// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, kept out of the main package: they have no `main` of their own and link
// only with `--sanitize=fuzzer`. `make fuzz` builds and runs them (see the Makefile).
let package = Package(
    name: "maskclean-fuzz",
    dependencies: [.package(name: "maskclean", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzMask", dependencies: [.product(name: "MaskEngine", package: "maskclean")],
            path: "Targets/FuzzMask"),
        .target(
            name: "FuzzSupport", dependencies: [.product(name: "MaskClean", package: "maskclean")],
            path: "Targets/FuzzSupport"),
        .executableTarget(
            name: "FuzzCSV",
            dependencies: ["FuzzSupport", .product(name: "MaskClean", package: "maskclean")],
            path: "Targets/FuzzCSV"),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzSupport", .product(name: "MaskClean", package: "maskclean")],
            path: "Targets/FuzzJSON"),
        .executableTarget(
            name: "FuzzSpec", dependencies: [.product(name: "MaskClean", package: "maskclean")],
            path: "Targets/FuzzSpec"),
        .executableTarget(
            name: "FuzzYAMLSpec", dependencies: [.product(name: "MaskClean", package: "maskclean")],
            path: "Targets/FuzzYAMLSpec"),
        .executableTarget(
            name: "FuzzPhone",
            dependencies: [
                .product(name: "MaskClean", package: "maskclean"),
                .product(name: "MaskEngine", package: "maskclean"),
            ],
            path: "Targets/FuzzPhone"),
        .executableTarget(
            name: "FuzzReport", dependencies: [.product(name: "MaskClean", package: "maskclean")],
            path: "Targets/FuzzReport"),
    ],
    swiftLanguageModes: [.v6]
)
