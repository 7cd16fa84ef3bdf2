import FoundationEssentials
import MaskEngine

/// What a phone column's formatted cell holds (`phoneFormat`, docs/spec.md#phone-columns).
public enum PhoneFormat: String, Sendable, CaseIterable, Hashable {
    /// `+44 20 7946 0958`: the country code, then the number grouped as its country groups it.
    case international
    /// `020 7946 0958`: the number as it is dialled inside its country.
    case national
    /// `+442079460958`.
    case e164
}

/// What a phone column (`kind: phone`) asks of its cells: the region of numbers written without a
/// country code, and the formatted cell's form.
public struct PhoneRules: Sendable, Hashable {
    /// ISO 3166-1 alpha-2, upper case; nil: a number without a country code has no country.
    public var defaultRegion: String?
    public var format: PhoneFormat

    /// Refuses a `defaultRegion` the numbering plan does not know (any case is accepted).
    public init(defaultRegion: String?, format: PhoneFormat = .international) throws(PhoneRulesError) {
        if let region = defaultRegion {
            guard NumberingPlan.isRegion(region) else { throw .unknownRegion(region) }
            self.defaultRegion = region.uppercased()
        }
        self.format = format
    }
}

public enum PhoneRulesError: Error, Equatable, Sendable {
    /// Not a region of the numbering plan (ISO 3166-1 alpha-2 codes that have telephone numbers).
    case unknownRegion(String)
}

/// One phone cell read: its status and its values, valid until the reader's next `read`.
public struct PhoneReading {
    public var status: CellStatus
    /// The number in the column's `phoneFormat`, with ` ext. N` for an extension; empty when no
    /// country could be told (and for an empty cell).
    public var formatted: UnsafeBufferPointer<UInt8>
    /// The E.164 form (`+442079460958`), without the extension; empty as `formatted` is.
    public var e164: UnsafeBufferPointer<UInt8>
    /// The region the number belongs to (alpha-2; `001` for the non-geographic codes such as
    /// +800); empty when none can be told.
    public var region: UnsafeBufferPointer<UInt8>
    /// How many characters other than digits, separators, a leading `+` and an extension were
    /// dropped (a letter typed for a digit): a valid number with any is `lossy`.
    public var droppedCharacters: Int
}

/// Reads the phone cells of one column for one worker: its buffers are reused from cell to cell,
/// so a reader is never shared between threads.
///
/// A cell is read as libphonenumber parses a number (`PhoneNumberUtil.parse`), step for step: its
/// digits, a leading `+` and an extension are picked out (anything else is dropped and makes a
/// valid number `lossy`); the country code comes after `+`, after the region's international
/// prefix or `00`, or is the region's; the national prefix is taken off when what remains is still
/// a possible number of the region; and the national number's outcome (`NumberAutomaton`) says
/// whether it is valid, which region it belongs to and which format writes it.
///
/// Per cell, nothing is allocated: the digits live in the reader's own fixed buffers
/// (`DigitBuffer`), and a number's plans and automaton are classes reached by reference.
public final class PhoneReader {
    public let rules: PhoneRules
    /// `defaultRegion`'s plan.
    private let defaultRegion: RegionPlan?
    /// The automata this reader has used, by country code: the shared ones are behind a lock.
    @exclusivity(unchecked) private var automata: [NumberAutomaton?] = Array(repeating: nil, count: 1000)
    /// The masks of the codes' formats this reader has compiled, by country code.
    @exclusivity(unchecked) private var masks: [FormatMasks?] = Array(repeating: nil, count: 1000)
    /// The cell's digits; its national number; scratch numbers for taking a country code and a
    /// national prefix off; its extension's digits.
    @exclusivity(unchecked) private var digits = DigitBuffer()
    @exclusivity(unchecked) private var national = DigitBuffer()
    @exclusivity(unchecked) private var rest = DigitBuffer()
    @exclusivity(unchecked) private var scratch = DigitBuffer()
    @exclusivity(unchecked) private var extensionDigits = DigitBuffer()
    private let formattedBytes = ByteBuffer(capacity: 256)
    private let e164Bytes = ByteBuffer(capacity: 32)
    private let regionBytes = ByteBuffer(capacity: 8)
    /// A mask's output, before it is copied after the country code.
    private let maskFormatted = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    private let maskExtracted = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)

    public init(rules: PhoneRules) {
        self.rules = rules
        defaultRegion = rules.defaultRegion.flatMap { NumberingPlan.regions.index[$0] }.map {
            NumberingPlan.regions.all[$0]
        }
    }

    deinit {
        maskFormatted.deallocate()
        maskExtracted.deallocate()
        for buffer in [digits, national, rest, scratch, extensionDigits] { buffer.deallocate() }
    }

    /// Reads one cell. `region` is the record's `regionColumn` cell, when the column has one: the
    /// region (alpha-2, any case) of a number written without a country code; an empty one leaves
    /// `defaultRegion`, and one the plan does not know makes such a number `invalid`.
    public func read(_ value: UnsafeBufferPointer<UInt8>, region: UnsafeBufferPointer<UInt8>? = nil)
        -> PhoneReading
    {
        formattedBytes.truncate(to: 0)
        e164Bytes.truncate(to: 0)
        regionBytes.truncate(to: 0)
        let (plus, dropped) = PhoneText.scan(value, digits: &digits, extensionDigits: &extensionDigits)
        let status = digits.count == 0 ? .empty : number(plus: plus, dropped: dropped, region: region)
        return PhoneReading(
            status: status, formatted: formattedBytes.bytes, e164: e164Bytes.bytes, region: regionBytes.bytes,
            droppedCharacters: dropped)
    }

    /// The cell's status, with its values written.
    private func number(plus: Bool, dropped: Int, region regionCell: UnsafeBufferPointer<UInt8>?)
        -> CellStatus
    {
        // More digits than any number has: nothing to read.
        guard digits.count <= DigitBuffer.capacity else { return .invalid }
        var region = defaultRegion
        var unknownRegion = false
        switch regionCell.map(Self.region) ?? .blank {
        case .blank: break
        case .known(let plan): region = plan
        case .unknown:
            region = nil
            unknownRegion = true
        }
        // The country code: after `+`, an international prefix or `00`; or the region's own.
        var codeStart: Int?
        if plus {
            codeStart = 0
        } else if let plan = region, let end = internationalPrefixEnd(plan) {
            codeStart = end
        } else if digits.count > 2, digits[0] == 0x30, digits[1] == 0x30, digits[2] != 0x30 {
            codeStart = 2
        } else if unknownRegion {
            region = nil
        }
        let automaton: NumberAutomaton
        var parseRegion = 0
        if let codeStart {
            let left = digits.count - codeStart
            guard left > 2, digits[codeStart] != 0x30, let (code, length) = callingCode(at: codeStart) else {
                return left <= 2 && startsCallingCode(at: codeStart) ? .incomplete : .invalid
            }
            automaton = self.automaton(code)
            national.set(digits, from: codeStart + length)
        } else {
            guard let plan = region else { return .invalid }
            automaton = self.automaton(plan.callingCode)
            parseRegion = plan.indexInCallingCode
            national.set(digits, from: 0)
            // A number that starts with the region's own country code, without `+`: taken as one
            // when the rest is a number of the region and the whole is not, or the whole is too long.
            if digits.starts(with: automaton.callingCodeText) {
                rest.set(digits, from: automaton.callingCodeText.count)
                if stripNationalPrefix(of: rest, into: &scratch, automaton, parseRegion) {
                    swap(&rest, &scratch)
                }
                if (!viable(digits, automaton, parseRegion) && viable(rest, automaton, parseRegion))
                    || plan.lengthVerdict(digits.count) == .tooLong
                {
                    swap(&national, &rest)
                }
            }
        }
        // The national prefix goes when what remains is still a possible length of the region.
        var keptPrefix = false
        if stripNationalPrefix(of: national, into: &scratch, automaton, parseRegion) {
            switch automaton.regions[parseRegion].lengthVerdict(scratch.count) {
            case .tooShort, .localOnly, .invalidLength: keptPrefix = true
            case .possible, .tooLong: swap(&national, &scratch)
            }
        }
        guard national.count <= NumberAutomaton.maximumLength else { return .invalid }
        let outcome = automaton.outcome(national.bytes)
        write(automaton, outcome)
        if outcome.valid { return dropped > 0 ? .lossy : .complete }
        // A number still being typed (`020 7946`) keeps its prefix by libphonenumber's rule, as
        // what remains is too short: it is incomplete when it goes on as a number without it.
        let live = outcome.live || (keptPrefix && automaton.outcome(scratch.bytes).live)
        return live || national.count < 2 ? .incomplete : .invalid
    }

    /// The formatted, E.164 and region values of a number whose country code and national
    /// number are known.
    private func write(_ automaton: NumberAutomaton, _ outcome: NumberAutomaton.Outcome) {
        if outcome.region >= 0 { regionBytes.append(automaton.regions[Int(outcome.region)].idBytes) }
        e164Bytes.append(UInt8(ascii: "+"))
        e164Bytes.append(automaton.callingCodeText)
        e164Bytes.append(national.bytes)
        switch rules.format {
        case .e164:
            formattedBytes.append(e164Bytes.bytes)
        case .international:
            formattedBytes.append(UInt8(ascii: "+"))
            formattedBytes.append(automaton.callingCodeText)
            formattedBytes.append(UInt8(ascii: " "))
            writeNational(automaton, format: Int(outcome.internationalFormat), national: false)
        case .national:
            writeNational(automaton, format: Int(outcome.nationalFormat), national: true)
        }
        if extensionDigits.count > 0 {
            formattedBytes.append(automaton.main.extensionPrefix)
            formattedBytes.append(extensionDigits.bytes)
        }
    }

    /// The national number in format `format` of the code's main region (-1: as it is).
    private func writeNational(_ automaton: NumberAutomaton, format: Int, national isNational: Bool) {
        let digits = national.bytes
        guard format >= 0 else { return formattedBytes.append(digits) }
        let masks =
            self.masks[automaton.callingCode]
            ?? {
                let made = FormatMasks(region: automaton.main, lengths: automaton.lengths)
                self.masks[automaton.callingCode] = made
                return made
            }()
        switch masks.writing(format: format, length: digits.count, national: isNational) {
        case .mask(let mask):
            let counts = mask.apply(
                utf8: digits, autocomplete: false, formatted: maskFormatted, extracted: maskExtracted)
            formattedBytes.append(UnsafeBufferPointer(start: maskFormatted, count: counts.formattedByteCount))
        case .groups(let text, let split):
            NumberFormatRule.write(digits, text: text, split: split, into: formattedBytes)
        case .digits:
            formattedBytes.append(digits)
        }
    }

    private func automaton(_ callingCode: Int) -> NumberAutomaton {
        if let known = automata[callingCode] { return known }
        let made = NumberingPlan.automaton(callingCode: callingCode)!
        automata[callingCode] = made
        return made
    }

    /// The country code at `start` of the digits: the shortest of 1 to 3 digits that is one
    /// (libphonenumber's rule; no code is the start of another).
    private func callingCode(at start: Int) -> (Int, Int)? {
        let isCallingCode = NumberingPlan.regions.isCallingCode
        var code = 0
        for length in 1...3 where start + length <= digits.count {
            code = code * 10 + Int(digits[start + length - 1] - 0x30)
            if isCallingCode[code] { return (code, length) }
        }
        return nil
    }

    /// Whether the digits from `start` (at most 2) could still begin a country code.
    private func startsCallingCode(at start: Int) -> Bool {
        let count = digits.count - start
        guard count > 0 else { return true }
        guard digits[start] != 0x30 else { return false }
        var prefix = 0
        for index in start..<digits.count { prefix = prefix * 10 + Int(digits[index] - 0x30) }
        return NumberingPlan.regions.byCallingCode.keys.contains { code in
            var code = code
            while String(code).count > count { code /= 10 }
            return code == prefix
        }
    }

    /// Where the region's international prefix ends at the start of the digits: only when a digit
    /// other than 0 follows (no country code starts with 0).
    private func internationalPrefixEnd(_ plan: RegionPlan) -> Int? {
        let end: Int
        if let literal = plan.literalInternationalPrefix {
            guard digits.starts(with: literal) else { return nil }
            end = literal.count
        } else {
            guard let pattern = plan.internationalPrefix, let match = pattern.prefixMatch(digits.bytes)?.end
            else { return nil }
            end = match
        }
        return end < digits.count && digits[end] != 0x30 ? end : nil
    }

    /// Whether `number` fits region `region`'s general pattern, whatever its length.
    private func viable(_ number: DigitBuffer, _ automaton: NumberAutomaton, _ region: Int) -> Bool {
        guard number.count <= NumberAutomaton.maximumLength else { return false }
        return automaton.outcome(number.bytes).viable & (1 << UInt64(region)) != 0
    }

    /// libphonenumber's `maybeStripNationalPrefixAndCarrierCode`: `number` without the region's
    /// national prefix (or its pattern for parsing, with its transformation) in `out`, unless a
    /// number that fitted the region's general pattern would no longer fit it; false when nothing
    /// was taken off (`out` is then undefined).
    private func stripNationalPrefix(
        of number: DigitBuffer, into out: inout DigitBuffer, _ automaton: NumberAutomaton, _ region: Int
    ) -> Bool {
        let plan = automaton.regions[region]
        guard number.count > 0, let pattern = plan.prefixForParsing else { return false }
        let end: Int
        var captures: [Range<Int>?] = []
        if let literal = plan.literalPrefixForParsing {
            guard number.starts(with: literal) else { return false }
            end = literal.count
        } else {
            guard let match = pattern.prefixMatch(number.bytes) else { return false }
            end = match.end
            captures = match.captures
        }
        out.count = 0
        // A transformation applies when the pattern's last group took part (Java's rule: with no
        // group, the whole match stands for it).
        if let transform = plan.prefixTransform, captures.isEmpty || captures.last! != nil {
            var position = 0
            while position < transform.count {
                let byte = transform[position]
                position += 1
                if byte == UInt8(ascii: "$"), position < transform.count,
                    (0x30...0x39).contains(transform[position])
                {
                    let index = Int(transform[position] - 0x30)
                    position += 1
                    if index == 0 {
                        out.append(number, 0..<end)
                    } else if index <= captures.count, let range = captures[index - 1] {
                        out.append(number, range)
                    }
                } else {
                    out.append(byte)
                }
            }
        }
        out.append(number, end..<number.count)
        return !viable(number, automaton, region) || viable(out, automaton, region)
    }

    /// What a region cell says: nothing (empty, or white space), a region, or a code no region has.
    private enum RegionCell {
        case blank
        case known(RegionPlan)
        case unknown
    }

    /// The region a region cell names. Two ASCII letters, the usual cell, are looked up without a
    /// string.
    private static func region(_ cell: UnsafeBufferPointer<UInt8>) -> RegionCell {
        var start = 0
        var end = cell.count
        while start < end, cell[start] == 0x20 || cell[start] == 0x09 { start += 1 }
        while end > start, cell[end - 1] == 0x20 || cell[end - 1] == 0x09 { end -= 1 }
        guard start < end else { return .blank }
        let regions = NumberingPlan.regions
        if end - start == 2, let plan = regions.byLetters(cell[start], cell[start + 1]) {
            return .known(plan)
        }
        // Spaces and tabs around the region are not part of it (Unicode's space separators too).
        let scalars = String(decoding: UnsafeBufferPointer(rebasing: cell[start..<end]), as: UTF8.self)
            .unicodeScalars
        let isBlank = { (scalar: Unicode.Scalar) in
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let text = String(
            String.UnicodeScalarView(scalars.drop(while: isBlank).reversed().drop(while: isBlank).reversed()))
        guard !text.isEmpty else { return .blank }
        return regions.index[text.uppercased()].map { .known(regions.all[$0]) } ?? .unknown
    }
}

/// A number's digits (ASCII), in memory of their own: as many as any number has and more, so that
/// a cell's digits are kept without an allocation. Digits past `capacity` are counted, not kept: a
/// cell with that many is no number. A reader owns its buffers and frees them.
struct DigitBuffer {
    static let capacity = 40

    let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    var count = 0

    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: min(count, Self.capacity))
    }

    subscript(index: Int) -> UInt8 { base[index] }

    mutating func append(_ byte: UInt8) {
        if count < Self.capacity { base[count] = byte }
        count += 1
    }

    mutating func append(_ other: DigitBuffer, _ range: Range<Int>) {
        for index in range { append(other.base[index]) }
    }

    /// This buffer as `other`'s digits from `start` on.
    mutating func set(_ other: DigitBuffer, from start: Int) {
        count = 0
        append(other, start..<other.count)
    }

    func starts(with prefix: [UInt8]) -> Bool {
        guard count >= prefix.count else { return false }
        for index in prefix.indices where base[index] != prefix[index] { return false }
        return true
    }

    func deallocate() { base.deallocate() }
}
