// swift-tools-version: 6.1
import PackageDescription

// The engine's micro-benchmarks, kept out of the main package so that building and testing
// maskclean never pulls in the benchmark harness. Run them with `make bench` or
// `swift package --package-path Benchmarks benchmark`.
let package = Package(
    name: "maskclean-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "maskclean", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "MaskEngineBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MaskEngine", package: "maskclean"),
            ],
            path: "Benchmarks/MaskEngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
