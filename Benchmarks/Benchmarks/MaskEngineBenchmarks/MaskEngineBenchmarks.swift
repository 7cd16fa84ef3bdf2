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

    // The bench spec's phone column: the strategy the pipeline runs it with.
    let specPhone = try! AffineMask(
        format: "+1 ([000]) [000]-[0000]",
        affineFormats: ["+1 ([000]) [000]-[0000] x[9999]", "[000]-[0000]"],
        strategy: .wholeString)
    applies("affine phone (3 formats, wholeString), 5551234567", specPhone, "5551234567")
    applies("affine phone (3 formats, wholeString), (555) 123-4567", specPhone, "(555) 123-4567")
    applies("affine phone (3 formats, wholeString), 555-1234", specPhone, "555-1234")

    // A format's size must not multiply a short value's cost: 200,000 characters in each syntax.
    let length = 200_000
    for (syntax, piece) in [
        (Syntax.inputMask, "+1 ([000]) [000]-[0000] x[9999] "), (.akmask, "+1 ({ddd}) {ddd}-{dddd} x"),
        (.maskara, "+1(DDD)DDD-DDDD "),
    ] {
        let long = try! AffineMask(
            syntax: syntax, format: String(repeating: piece, count: length / piece.count))
        applies("200,000-character format (\(syntax)), 5551234567", long, "5551234567", scale: .one)
    }
    // Long runs of optional steps that a value's characters are passed over.
    let optionalLetters = try! AffineMask(format: "[" + String(repeating: "a", count: length) + "]")
    applies(
        "200,000 optional letter slots (input-mask), 5551234567", optionalLetters, "5551234567", scale: .one)
    let optionalLiterals = try! AffineMask(
        syntax: .maskara, format: String(repeating: "-?", count: length / 2) + "DDDDDDDDDD")
    applies("100,000 optional literals (maskara), 5551234567", optionalLiterals, "5551234567", scale: .one)

    // An affine choice among many formats, on a short value.
    let manyFormats = (0..<10_000).map { index -> String in
        switch index % 4 {
        case 0: return "+\(index) ([000]) [000]-[0000]"
        case 1: return "[000]-[0000] x\(index)"
        case 2: return "[" + String(repeating: "0", count: 1 + index % 40) + "]"
        default: return "{\(index)}[00]/[00]"
        }
    }
    for strategy in [AffinityStrategy.bestStatus, .wholeString] {
        let many = try! AffineMask(
            format: manyFormats[0], affineFormats: Array(manyFormats.dropFirst()), strategy: strategy)
        applies("10,000 formats (\(strategy)), 5551234567", many, "5551234567", scale: .one)
    }
}

func applies(_ name: String, _ mask: AffineMask, _ value: String, scale: BenchmarkScalingFactor = .kilo) {
    Benchmark(name, configuration: .init(scalingFactor: scale)) { benchmark in
        let buffer = ApplyBuffer()
        var value = value
        value.withUTF8 { input in
            for _ in benchmark.scaledIterations {
                blackHole(mask.apply(utf8: input, into: buffer))
            }
        }
    }
}
