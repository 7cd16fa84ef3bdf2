import Foundation
import Testing

@testable import MaskClean

/// Issue 29, item 3: the most common shapes per column and status (docs/report.md#shapes).
@Suite("Shapes of the cells short of complete")
struct ShapeTallyTests {
    /// The rule, written plainly: letters `A`/`a` by case, numerals `9`, the rest as it is.
    static func referenceShape(_ value: String) -> String {
        var shape = ""
        for (index, character) in value.enumerated() {
            if index == ShapeTally.shapeLength { return shape + "…" }
            if character.isNumber {
                shape.append("9")
            } else if character.isLetter {
                shape.append(character.isUppercase ? "A" : "a")
            } else {
                shape.append(character)
            }
        }
        return shape
    }

    @Test("shapes of ASCII and other scripts, cut after 64 characters")
    func shapes() {
        for (value, shape) in [
            ("(555) 734-6354 ext. 31", "(999) 999-9999 aaa. 99"), ("N/A", "A/A"), ("Ðorđe", "Aaaaa"),
            ("٣٤٥-12", "999-99"), ("すし 3", "aa 9"),
            (String(repeating: "7", count: 70), String(repeating: "9", count: 64) + "…"),
        ] {
            var bytes = value
            #expect(bytes.withUTF8 { ShapeTally.shape($0) } == shape, "\(value)")
            #expect(Self.referenceShape(value) == shape, "the reference agrees on \(value)")
        }
    }

    @Test("a shape of long characters kept as they are (emoji sequences) stops after a sample's 256 bytes")
    func longCharacters() {
        // A family emoji is one character of 25 bytes, a symbol, kept as it is.
        var value = String(repeating: "👨‍👩‍👧‍👦", count: 64)
        let shape = value.withUTF8 { ShapeTally.shape($0) }
        #expect(shape.utf8.count <= Sample.valueBytesKept + "…".utf8.count)
        #expect(shape.hasSuffix("…") && shape.hasPrefix("👨‍👩‍👧‍👦"))
        // Letters with marks stacked on them are one placeholder each.
        var accented = String(repeating: "e" + String(repeating: "\u{301}", count: 20), count: 3)
        #expect(accented.withUTF8 { ShapeTally.shape($0) } == "aaa")
    }

    @Test("counts equal a plain count of the reference's shapes, ranked by count then first seen")
    func countsAgree() {
        var random = SplitMix64(seed: 29)
        let pieces = ["555", "-", "12", "x", "N/A", " ", "ext.", "Ü", "٣", "(", ")", "9999"]
        var tally = ShapeTally()
        var reference: [String: Int] = [:]
        var firstSeen: [String] = []
        for _ in 0..<5000 {
            let count = Int(random.next() % 4) + 1
            let value = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            var bytes = value
            bytes.withUTF8 { tally.add($0) }
            let shape = Self.referenceShape(value)
            if reference[shape] == nil { firstSeen.append(shape) }
            reference[shape, default: 0] += 1
        }
        let expected = firstSeen.enumerated().sorted {
            reference[$0.element]! != reference[$1.element]!
                ? reference[$0.element]! > reference[$1.element]! : $0.offset < $1.offset
        }.prefix(ShapeTally.shown).map { ($0.element, reference[$0.element]!) }
        #expect(tally.top().map(\.shape) == expected.map(\.0))
        #expect(tally.top().map(\.count) == expected.map(\.1))
        #expect(tally.counts.reduce(0, +) == 5000 && tally.otherCells == 0)
    }

    @Test("past 4,096 distinct shapes, new ones are counted as other cells, and the counts still add up")
    func bounded() {
        var tally = ShapeTally()
        for index in 0..<5000 {
            // Each index's bits as letters and dashes: 5,000 distinct shapes.
            var value = String(String(index, radix: 2).map { $0 == "1" ? "a" : "-" }) + "."
            value.withUTF8 { tally.add($0) }
        }
        #expect(tally.shapes.count == ShapeTally.kept)
        #expect(tally.counts.reduce(0, +) + tally.otherCells == 5000)
    }

    @Test("a later chunk's tally adds to an earlier one's as counting its cells there would")
    func merging() {
        let values = ["555-12", "555-1234x", "none", "555-99", "N/A", "none"]
        var whole = ShapeTally()
        var first = ShapeTally()
        var second = ShapeTally()
        for (index, value) in values.enumerated() {
            var bytes = value
            bytes.withUTF8 { whole.add($0) }
            var again = value
            again.withUTF8 { index < 3 ? first.add($0) : second.add($0) }
        }
        first.merge(second)
        #expect(first == whole)
    }
}
