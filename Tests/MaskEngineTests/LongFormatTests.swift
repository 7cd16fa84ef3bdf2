import Testing

@testable import MaskEngine

/// A format's length, and the number of formats, must not change what a short value gives: the
/// walk skips runs of like optional steps at once, and the affine choice skips formats, so these
/// pin the results of long formats and of many formats on short values. (Correctness only: the
/// time these shapes take is measured in the Benchmarks package.)
@Suite("Long formats and many formats on short values")
struct LongFormatTests {
    static let length = 20_000

    @Test("input-mask: a long run of optional slots a value's characters do not fit")
    func optionalSlotsPassedOver() throws {
        let long = try Mask(format: "[" + String(repeating: "a", count: Self.length) + "]")
        let result = long.apply("555 12")
        #expect(result.formatted == "")
        #expect(result.extracted == "")
        #expect(result.status == .lossy)
        // The first character passes over every slot (−1 each) and is dropped with the rest.
        #expect(result.affinity == -Self.length - 6)
        #expect(long.apply("ab1c").formatted == "ab")
        #expect(long.apply("ab1c").affinity == 2 - (Self.length - 2) - 2)
    }

    @Test("input-mask: optional slots of two kinds, then a mandatory one")
    func mixedOptionalRuns() throws {
        let run = String(repeating: "a", count: Self.length / 2)
        let long = try Mask(format: "[" + run + "][" + String(repeating: "9", count: 3) + "][" + run + "][0]")
        let short = try Mask(format: "[aa][999][aa][0]")
        for value in ["5", "x5", "12345", "a1b2c3", ""] {
            let longResult = long.apply(value)
            let shortResult = short.apply(value)
            #expect(longResult.formatted == shortResult.formatted, "\(value)")
            #expect(longResult.extracted == shortResult.extracted, "\(value)")
            #expect(longResult.status == shortResult.status, "\(value)")
        }
    }

    @Test("maskara: long runs of optional literals and optional slots")
    func maskaraOptionalRuns() throws {
        let literals = try Mask(
            syntax: .maskara, format: String(repeating: "-?", count: Self.length / 2) + "DD")
        #expect(literals.apply("12").formatted == "12")
        #expect(literals.apply("12").affinity == 2 - Self.length / 2)
        #expect(literals.apply("-12").formatted == "-12")
        #expect(literals.apply("ab").status == .incomplete)
        let slots = try Mask(syntax: .maskara, format: String(repeating: "X?", count: Self.length / 2) + "D")
        #expect(slots.apply("ab7").formatted == "AB7")
        #expect(slots.apply("7").formatted == "7")
        #expect(slots.apply("7").extracted == "7")
        #expect(slots.apply("7").status == .complete)
    }

    @Test("every syntax: a long format on short values gives what its first part gives")
    func longFormatsInEverySyntax() throws {
        let cases: [(Syntax, String, String)] = [
            (.inputMask, "+1 ([000]) [000]-[0000] ", "+1 (555) 123-4567 +1 ("),
            (.akmask, "+1 ({ddd}) {ddd}-{dddd} ", "+1 (555) 123-4567 +1 ("),
            (.maskara, "+1(DDD)DDD-DDDD ", "+1(555)123-4567 +1("),
        ]
        for (syntax, piece, formatted) in cases {
            let long = try Mask(
                syntax: syntax, format: String(repeating: piece, count: Self.length / piece.count))
            let result = long.apply("5551234567")
            #expect(result.formatted == formatted, "\(syntax)")
            #expect(result.extracted == "5551234567", "\(syntax)")
            #expect(result.status == .incomplete, "\(syntax)")
        }
    }

    @Test("akmask: a long format compiles quickly and keeps the space for any literal")
    func akmaskLiterals() throws {
        let long = try Mask(syntax: .akmask, format: String(repeating: "-", count: Self.length) + "{dd}")
        let result = long.apply("  12")
        #expect(result.formatted == String(repeating: "-", count: Self.length) + "12")
        #expect(result.status == .complete)
    }

    @Test("plain ASCII is told apart at every length and position")
    func plainASCIIAtEveryPosition() {
        for count in 0...20 {
            let plain = [UInt8](repeating: UInt8(ascii: "5"), count: count)
            #expect(plain.withUnsafeBufferPointer(\.isPlainASCII), "\(count) digits")
            for position in 0..<count {
                for odd: UInt8 in [0x0D, 0x80, 0xC3, 0xFF] {
                    var bytes = plain
                    bytes[position] = odd
                    #expect(
                        !bytes.withUnsafeBufferPointer(\.isPlainASCII), "\(odd) at \(position) of \(count)")
                }
                var controls = plain
                controls[position] = 0x0A
                #expect(controls.withUnsafeBufferPointer(\.isPlainASCII), "LF at \(position) of \(count)")
            }
        }
    }
}
