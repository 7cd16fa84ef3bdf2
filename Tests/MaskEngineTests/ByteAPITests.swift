import MaskEngine
import Testing

@Suite("The byte API agrees with the String API")
struct ByteAPITests {
    struct Column: Sendable, CustomTestStringConvertible {
        var name: String
        var format: String
        var affineFormats: [String] = []
        var notations: [Notation] = []
        var strategy: AffinityStrategy = .wholeString
        var rightToLeft = false
        var autocomplete = true

        var testDescription: String { name }

        func mask() throws -> AffineMask {
            try AffineMask(
                format: format, affineFormats: affineFormats,
                options: SyntaxOptions(notations: notations, rightToLeft: rightToLeft), strategy: strategy,
                autocomplete: autocomplete)
        }
    }

    static let values = [
        "5551234567", "(555) 123-4567", "555123456789", "555-1234", "555", "",
        "٥٥٥١٢٣٤٥٦٧", "１２３４", "José", "cafe\u{301} 12", "€918", "$12", "£12", "1234.56",
        "1,234,567.89", "\u{1100}1\u{1161}", "\u{301}12", "👨‍👩‍👧 12\r\n34", "²³", "12 ab CD 34",
    ]

    static let columns = [
        Column(name: "phone, one format", format: "+1 ([000]) [000]-[0000]"),
        Column(
            name: "phone, three formats by prefix", format: "+1 ([000]) [000]-[0000]",
            affineFormats: ["[000]-[0000]", "+44 [0000] [000000]"], strategy: .prefix),
        Column(
            name: "phone, three formats by whole string", format: "+1 ([000]) [000]-[0000]",
            affineFormats: ["[000]-[0000]", "+44 [0000] [000000]"]),
        Column(
            name: "two formats by capacity", format: "[0000]", affineFormats: ["[000]-[0000]", "[A…]"],
            strategy: .capacity),
        Column(
            name: "two formats by extracted value capacity", format: "[0000]",
            affineFormats: ["[000]-[0000]", "[_…]"], strategy: .extractedValueCapacity),
        Column(
            name: "currency with a notation", format: "[s][9999]", affineFormats: ["[s][999999999][.][99]"],
            notations: [currencySymbol, optionalPoint]),
        Column(name: "amount right to left", format: "[999],[999],[990]{.}[00]", rightToLeft: true),
        Column(
            name: "amounts right to left, two formats", format: "[999],[999],[990]",
            affineFormats: ["[999] [999] [990]{.}[00]"], strategy: .prefix, rightToLeft: true),
        Column(name: "non-ASCII literals", format: "café [00]-{€}[AA]", autocomplete: false),
        Column(name: "name", format: "[A][" + String(repeating: "-", count: 20) + "]"),
    ]

    @Test(
        "formatted and extracted bytes, status and choice match, with one reused buffer", arguments: columns)
    func agreement(_ column: Column) throws {
        let mask = try column.mask()
        let buffer = ApplyBuffer()
        for value in Self.values {
            let bytes = snapshotOfByteAPI(mask, value, buffer: buffer)
            let string = snapshotOfStringAPI(mask, value)
            #expect(bytes == string, "\(value.debugDescription)")
        }
    }

    @Test("realistic results through the byte API")
    func knownResults() throws {
        let buffer = ApplyBuffer()
        let phones = try AffineMask(
            format: "+1 ([000]) [000]-[0000]", affineFormats: ["[000]-[0000]"], strategy: .prefix)
        let full = snapshotOfByteAPI(phones, "+1 555 123 4567", buffer: buffer)
        #expect(full.formatted == "+1 (555) 123-4567")
        #expect(full.extracted == "5551234567")
        #expect(full.status == .complete)
        #expect(full.chosen == 0)

        let local = snapshotOfByteAPI(phones, "555-1234", buffer: buffer)
        #expect(local.chosen == 1)
        #expect(local.formatted == "555-1234")

        let amount = try AffineMask(format: "[999],[999],[000]", options: SyntaxOptions(rightToLeft: true))
        let grouped = snapshotOfByteAPI(amount, "1234567", buffer: buffer)
        #expect(grouped.formatted == "1,234,567")
        let arabic = snapshotOfByteAPI(amount, "١٢٣٤٥٦٧", buffer: buffer)
        #expect(arabic.formatted == "١,٢٣٤,٥٦٧")
        #expect(arabic.status == .complete)

        let lossy = snapshotOfByteAPI(phones, "+1 555 123 4567 89", buffer: buffer)
        #expect(lossy.chosen == 0)
        #expect(lossy.status == .lossy)
        #expect(lossy.formatted == "+1 (555) 123-4567")
    }

    @Test("a value longer than the buffer grows it, and a short value after it is still right")
    func bufferGrows() throws {
        let digits = try AffineMask(format: "[0…]", affineFormats: ["[A…]"])
        let buffer = ApplyBuffer(capacity: 8)
        let long = String(repeating: "1234567890", count: 100)
        let longOutcome = snapshotOfByteAPI(digits, long, buffer: buffer)
        #expect(longOutcome.formatted == long)
        #expect(longOutcome.chosen == 0)
        let short = snapshotOfByteAPI(digits, "ab-cd", buffer: buffer)
        #expect(short.formatted == "abcd")
        #expect(short.chosen == 1)
        #expect(short == snapshotOfStringAPI(digits, "ab-cd"))
    }

    @Test("Mask's own byte API writes what the String API returns")
    func maskByteAPI() throws {
        let mask = try Mask(format: "{€}[000]-[00]")
        for value in ["12345", "€123-45", "١٢٣٤٥", "12"] {
            var input = value
            let (formatted, extracted, counts) = input.withUTF8 { bytes in
                let capacity = mask.outputCapacity(forInputCount: bytes.count)
                let formatted = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                let extracted = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                defer {
                    formatted.deallocate()
                    extracted.deallocate()
                }
                let counts = mask.apply(
                    utf8: bytes, autocomplete: true, formatted: formatted, extracted: extracted)
                return (
                    String(
                        decoding: UnsafeBufferPointer(start: formatted, count: counts.formattedByteCount),
                        as: UTF8.self),
                    String(
                        decoding: UnsafeBufferPointer(start: extracted, count: counts.extractedByteCount),
                        as: UTF8.self),
                    counts
                )
            }
            let expected = mask.apply(value)
            #expect(formatted == expected.formatted)
            #expect(extracted == expected.extracted)
            #expect(counts.complete == expected.complete)
            #expect(counts.affinity == expected.affinity)
            #expect(counts.status == expected.status)
        }
    }
}
