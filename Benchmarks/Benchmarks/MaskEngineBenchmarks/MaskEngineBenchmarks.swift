import Benchmark
import MaskEngine

/// Applies per second for the engine issue's cases. Each iteration is one apply through the
/// pipeline's API (`AffineMask.apply(utf8:into:)` with a reused `ApplyBuffer`), so the
/// throughput column reads in applies per second (scaled by 1000: "K").
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000)

    let phone = try! AffineMask(format: "+1 ([000]) [000]-[0000]")
    applies("phone, 5551234567", phone, "5551234567")
    applies("phone, (555) 123-4567", phone, "(555) 123-4567")

    let card = try! AffineMask(format: "[0000] [0000] [0000] [0000]")
    applies("card, 16 digits", card, "4111111111111111")

    let date = try! AffineMask(format: "[00]{/}[00]{/}[9900]")
    applies("date, 12/31/2024", date, "12/31/2024")

    let affinePhone = try! AffineMask(
        format: "+1 ([000]) [000]-[0000]",
        affineFormats: ["+1 ([000]) [000]-[0000] x[9999]", "[000]-[0000]"],
        strategy: .prefix)
    applies("affine phone (3 formats, prefix), +1 555 123 4567", affinePhone, "+1 555 123 4567")
}

func applies(_ name: String, _ mask: AffineMask, _ value: String) {
    Benchmark(name) { benchmark in
        let buffer = ApplyBuffer()
        var value = value
        value.withUTF8 { input in
            for _ in benchmark.scaledIterations {
                blackHole(mask.apply(utf8: input, into: buffer))
            }
        }
    }
}
