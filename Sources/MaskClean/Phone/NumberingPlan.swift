import FoundationEssentials

/// The numbering plans of every region: libphonenumber's metadata, as the facts
/// `NumberingPlanData.swift` lists (`Tools/numbering-plan.py` writes it), read once, on first use.
/// A country code's patterns are compiled into one `NumberAutomaton` the first time a number of
/// that code is read.
public enum NumberingPlan {
    /// Whether `code` (any case) is a region with telephone numbers: ISO 3166-1 alpha-2, or `001`
    /// for the non-geographic codes (+800, +808, …).
    public static func isRegion(_ code: String) -> Bool { regions.index[code.uppercased()] != nil }

    /// Every region's code, as the table lists them (`001` once).
    public static var regionCodes: [String] { regions.index.keys.sorted() }

    static let regions = Regions(table: table)

    /// The automaton of `callingCode`, made on first use; nil for a code no region has.
    static func automaton(callingCode: Int) -> NumberAutomaton? {
        guard (0..<1000).contains(callingCode), let members = regions.byCallingCode[callingCode] else {
            return nil
        }
        automataLock.lock()
        defer { automataLock.unlock() }
        if let made = automata[callingCode] { return made }
        let plans = members.map { regions.all[$0] }
        for plan in plans { plan.load() }
        let made = NumberAutomaton(callingCode: callingCode, regions: plans)
        automata[callingCode] = made
        return made
    }

    nonisolated(unsafe) private static var automata: [Int: NumberAutomaton] = [:]
    private static let automataLock = Lock()
}

/// The table, read.
struct Regions: Sendable {
    let all: [RegionPlan]
    /// A region's index in `all`, by code (a non-geographic code's `001` is its first).
    let index: [String: Int]
    /// The regions of a country code, the main one (whose formats the code uses) first, then the
    /// others in the table's order: the order libphonenumber tries them in.
    let byCallingCode: [Int: [Int]]
    /// Whether a number is a country code, by number (0…999): read for every cell.
    let isCallingCode: [Bool]
    /// The regions by their two letters (`letterIndex`), for region cells: no string per cell.
    private let letterRegions: [RegionPlan?]

    /// Reads the region lines; a region's other lines are read with its country code's
    /// automaton (`RegionPlan.load`), so that a run pays only for the codes its numbers have.
    init(table: String) {
        var all: [RegionPlan] = []
        for line in table.utf8.split(separator: 0x0A) {
            if line.starts(with: "region\t".utf8) {
                all.append(RegionPlan(Self.fields(line)))
            } else {
                all.last!.lines.append(line)
            }
        }
        self.all = all
        var index: [String: Int] = [:]
        var byCallingCode: [Int: [Int]] = [:]
        for (position, region) in all.enumerated() {
            if index[region.id] == nil { index[region.id] = position }
            if region.isMain {
                byCallingCode[region.callingCode, default: []].insert(position, at: 0)
            } else {
                byCallingCode[region.callingCode, default: []].append(position)
            }
        }
        self.index = index
        self.byCallingCode = byCallingCode
        isCallingCode = (0..<1000).map { byCallingCode[$0] != nil }
        var letterRegions: [RegionPlan?] = Array(repeating: nil, count: 26 * 26)
        for (code, position) in index {
            let letters = Array(code.utf8)
            if letters.count == 2, let slot = Self.letterIndex(letters[0], letters[1]) {
                letterRegions[slot] = all[position]
            }
        }
        self.letterRegions = letterRegions
        for members in byCallingCode.values {
            for (place, member) in members.enumerated() { all[member].indexInCallingCode = place }
        }
    }

    /// The region whose code is these two ASCII letters, any case.
    func byLetters(_ first: UInt8, _ second: UInt8) -> RegionPlan? {
        Self.letterIndex(first, second).flatMap { letterRegions[$0] }
    }

    private static func letterIndex(_ first: UInt8, _ second: UInt8) -> Int? {
        let first = first | 0x20
        let second = second | 0x20
        guard (0x61...0x7A).contains(first), (0x61...0x7A).contains(second) else { return nil }
        return Int(first - 0x61) * 26 + Int(second - 0x61)
    }

    static func fields(_ line: Substring.UTF8View) -> [String] {
        line.split(separator: 0x09, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// A pattern of the table; the table is checked by the tests, so a bad one is a bug.
    static func pattern(_ text: String) -> PlanPattern {
        do { return try PlanPattern(text) } catch { preconditionFailure("numbering plan: \(error)") }
    }
}

/// One region's plan (a `territory` of libphonenumber's metadata). A class, as a number's reading
/// reaches its region's plan several times: a struct of this size would be copied, and its
/// references counted, each time. Filled while the table is read, then never changed.
final class RegionPlan: @unchecked Sendable {
    let id: String
    /// `id` as bytes, for the country column.
    let idBytes: [UInt8]
    let callingCode: Int
    /// The region whose formats its country code uses (`mainCountryForCode`, or the code's only one).
    let isMain: Bool
    /// Its place among its country code's regions (`Regions.byCallingCode`).
    var indexInCallingCode = 0
    /// How numbers abroad are dialled from here (`00`, `011`, `8~10` written `810`).
    let internationalPrefix: PlanPattern?
    /// The international prefix when it is plain digits (`00`, `011`): matched without a pattern.
    let literalInternationalPrefix: [UInt8]?
    /// The trunk prefix of national numbers (`0`, `1`, `8`); empty when the region has none.
    let nationalPrefix: [UInt8]
    /// What is taken off the front of a national number: a pattern, or the national prefix.
    let prefixForParsing: PlanPattern?
    /// The national prefix for parsing when it is plain digits: matched without a pattern.
    let literalPrefixForParsing: [UInt8]?
    /// What a matched prefix becomes (`9$1`), when the region rewrites it.
    let prefixTransform: [UInt8]?
    /// The leading digits that tell this region's numbers from its country code's others.
    let leadingDigits: PlanPattern?
    /// What comes between a number and its extension: ` ext. `, or the region's own (` x`).
    let extensionPrefix: [UInt8]
    /// The region's lines after its own, until `load` reads them.
    var lines: [Substring.UTF8View] = []
    private var loaded = false
    /// Any number of the region (`generalDesc`); every region of the table has one.
    var general: PlanPattern?
    var types: [NumberType] = []
    /// The possible lengths of its numbers (bit n: n digits), and those only dialled locally.
    var lengths: UInt32 = 0
    var localOnlyLengths: UInt32 = 0
    var formats: [NumberFormatRule] = []

    struct NumberType: Sendable {
        let name: String
        let lengths: UInt32
        let pattern: PlanPattern
    }

    init(_ fields: [String]) {
        id = fields[1]
        idBytes = Array(fields[1].utf8)
        callingCode = Int(fields[2])!
        isMain = fields[3] == "1"
        internationalPrefix = fields[4].isEmpty ? nil : Regions.pattern(fields[4])
        literalInternationalPrefix = Self.literal(fields[4])
        nationalPrefix = Array(fields[5].utf8)
        let forParsing = fields[6].isEmpty ? fields[5] : fields[6]
        prefixForParsing = forParsing.isEmpty ? nil : Regions.pattern(forParsing)
        literalPrefixForParsing = Self.literal(forParsing)
        prefixTransform = fields[7].isEmpty ? nil : Array(fields[7].utf8)
        leadingDigits = fields[8].isEmpty ? nil : Regions.pattern(fields[8])
        extensionPrefix = Array((fields[9].isEmpty ? " ext. " : fields[9]).utf8)
    }

    /// Reads the region's general pattern, types and formats, once (under the automata's lock).
    func load() {
        guard !loaded else { return }
        loaded = true
        for line in lines {
            let fields = Regions.fields(line)
            switch fields[0] {
            case "general": general = Regions.pattern(fields[1])
            case "type": addType(fields)
            case "format": formats.append(NumberFormatRule(fields))
            default: preconditionFailure("numbering plan: unknown line \(fields[0])")
            }
        }
        lines = []
    }

    /// `text` as bytes when it is a pattern of digits only, which matches just itself.
    private static func literal(_ text: String) -> [UInt8]? {
        !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) ? Array(text.utf8) : nil
    }

    func addType(_ fields: [String]) {
        let national = Self.lengthBits(fields[2])
        types.append(NumberType(name: fields[1], lengths: national, pattern: Regions.pattern(fields[4])))
        lengths |= national
        localOnlyLengths = (localOnlyLengths | Self.lengthBits(fields[3])) & ~lengths
    }

    static func lengthBits(_ text: String) -> UInt32 {
        text.split(separator: ",").reduce(0) { $0 | 1 << UInt32($1)! }
    }

    /// The formats for international numbers: those not marked `NA`, when the region gives any
    /// an international format of its own; otherwise the national ones (libphonenumber's rule).
    var hasInternationalFormats: Bool { formats.contains { $0.international != .sameAsNational } }

    /// libphonenumber's `testNumberLength` for a number of `count` digits.
    func lengthVerdict(_ count: Int) -> LengthVerdict {
        guard lengths != 0 else { return .invalidLength }
        if count < 32, localOnlyLengths & (1 << UInt32(count)) != 0 { return .localOnly }
        let minimum = lengths.trailingZeroBitCount
        let maximum = 31 - lengths.leadingZeroBitCount
        if count < minimum { return .tooShort }
        if count > maximum { return .tooLong }
        return lengths & (1 << UInt32(count)) != 0 ? .possible : .invalidLength
    }

    enum LengthVerdict { case possible, localOnly, tooShort, tooLong, invalidLength }
}

/// One `numberFormat`: the groups a number of its leading digits is written in.
struct NumberFormatRule: Sendable {
    /// The pattern's groups, each `(\d{min,max})`, in order.
    let groups: [ClosedRange<Int>]
    let pattern: PlanPattern
    let leadingDigits: PlanPattern?
    /// `$1 $2 $3`.
    let format: String
    let international: International
    /// `$NP$FG`, `($FG)`…: how the national format writes the first group; empty: as it is.
    let nationalRule: String

    enum International: Sendable, Equatable {
        case sameAsNational
        /// `NA`: international numbers are never written with this format.
        case none
        case format(String)
    }

    init(_ fields: [String]) {
        pattern = Regions.pattern(fields[1])
        groups = Self.groups(fields[1])
        leadingDigits = fields[2].isEmpty ? nil : Regions.pattern(fields[2])
        format = fields[3]
        international =
            switch fields[4] {
            case "-": .sameAsNational
            case "NA": .none
            default: .format(fields[4])
            }
        nationalRule = fields[5]
    }

    /// `(\d{3})(\d{4,5})` as 3...3, 4...5: every format pattern of the table is such groups
    /// (the tests check it).
    static func groups(_ text: String) -> [ClosedRange<Int>] {
        var groups: [ClosedRange<Int>] = []
        var rest = Substring(text)
        while rest.hasPrefix("(\\d") {
            rest = rest.dropFirst(3)
            var low = 1
            var high = 1
            if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}") {
                let counts = rest[rest.index(after: rest.startIndex)..<close].split(separator: ",")
                low = Int(counts[0]) ?? 1
                high = counts.count > 1 ? Int(counts[1]) ?? low : low
                rest = rest[rest.index(after: close)...]
            }
            guard rest.hasPrefix(")") else { return [] }
            rest = rest.dropFirst()
            groups.append(low...high)
        }
        return rest.isEmpty ? groups : []
    }

    /// How `count` digits split into the groups: the first group as long as it can be while the
    /// others still fit (the greedy split of the pattern's regular expression); nil when they
    /// cannot hold `count` digits.
    func split(_ count: Int) -> [Int]? {
        var lengths: [Int] = []
        var left = count
        for (position, group) in groups.enumerated() {
            let restMinimum = groups[(position + 1)...].reduce(0) { $0 + $1.lowerBound }
            let restMaximum = groups[(position + 1)...].reduce(0) { $0 + $1.upperBound }
            let length = min(group.upperBound, left - restMinimum)
            guard length >= group.lowerBound, left - length <= restMaximum else { return nil }
            lengths.append(length)
            left -= length
        }
        return left == 0 && !groups.isEmpty ? lengths : nil
    }
}
