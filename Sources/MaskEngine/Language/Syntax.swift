/// The syntaxes a column's formats can be written in (docs/mask-syntax.md).
///
/// Each case names one `MaskSyntax` type, which is the whole of that syntax: how its formats
/// compile, how its programs walk a value and what leaves a value complete. A compiled
/// `Program` carries that type, so nothing after compiling asks which syntax a format came from.
/// Adding a syntax is one `MaskSyntax` type and one case here.
public enum Syntax: String, Sendable, CaseIterable, Hashable {
    /// input-mask's `[]` `{}` syntax (docs/mask-syntax.md), the default.
    case inputMask = "input-mask"
    /// AKMaskField's `{dddd}-{DDDD}` syntax.
    case akmask
    /// Maskara's `+?7|8(DDD)DDD` syntax.
    case maskara

    /// The spec keys of the options that only this syntax takes (`SyntaxOptions`); a column of
    /// another syntax that sets one is refused, since it would be ignored.
    public var optionKeys: [String] { definition.optionKeys }

    /// The type that is this syntax: the one place a case is looked up.
    var definition: any MaskSyntax.Type {
        switch self {
        case .inputMask: InputMaskSyntax.self
        case .akmask: AKMaskSyntax.self
        case .maskara: MaskaraSyntax.self
        }
    }
}

/// The settings that only one syntax has: one value for a column, whatever its syntax, so that
/// a new syntax's settings are a new field here rather than a new parameter everywhere.
public struct SyntaxOptions: Sendable, Hashable {
    /// `input-mask`: the notations the formats see, resolved (see `Notation.merged`).
    public var notations: [Notation]
    /// `input-mask`: the formats are applied from the end of the value (amounts, thousands grouping).
    public var rightToLeft: Bool
    /// `akmask`: AKMaskField's `maskTemplate`: one character, or one per display position.
    public var template: String?
    /// `maskara`: the literal symbol characters (Maskara's `allowedSymbolTokens`).
    public var symbols: String?
    /// Every syntax: characters whose loss makes a value lossy, as letters and digits do (a
    /// column's `significant`: the sign and decimal point of a number).
    public var significant: String

    public init(
        notations: [Notation] = [], rightToLeft: Bool = false, template: String? = nil,
        symbols: String? = nil,
        significant: String = ""
    ) {
        self.notations = notations
        self.rightToLeft = rightToLeft
        self.template = template
        self.symbols = symbols
        self.significant = significant
    }
}

/// Where a syntax's rules differ from input-mask's, which has none of these: how its programs
/// walk a value, and what a value must reach to be complete.
struct SyntaxRule: OptionSet, Sendable {
    let rawValue: UInt8

    /// A mandatory slot that a character does not fit stops the walk, and the rest of the value
    /// is dropped (AKMaskField, Maskara). Otherwise the character is skipped (input-mask).
    static let misfitStops = SyntaxRule(rawValue: 1 << 0)
    /// A literal that matches writes itself rather than the character that matched it
    /// (AKMaskField, where a space stands for any literal).
    static let matchedLiteralWritesItself = SyntaxRule(rawValue: 1 << 1)
    /// Letters that value slots take are upper-cased in the formatted value (Maskara).
    static let uppercasesFormatted = SyntaxRule(rawValue: 1 << 2)
    /// The formatted value ends at the last filled slot, plus the literals right after it when
    /// autocompleting; literals typed or inserted after that slot do not count (AKMaskField).
    static let formattedEndsAtLastSlot = SyntaxRule(rawValue: 1 << 3)
    /// A character that does not match a literal is tried at the next slot, every literal up to
    /// it inserted untried (AKMaskField). Otherwise it is tried at the next step, literal or not.
    static let mismatchSkipsToSlot = SyntaxRule(rawValue: 1 << 4)
    /// A free literal the value stops before leaves it incomplete, as a mandatory slot does
    /// (Maskara, where every element not marked `?` is mandatory). Otherwise only slots and fixed
    /// characters must be reached.
    static let freeLiteralsAreMandatory = SyntaxRule(rawValue: 1 << 5)
}

/// How a program's walk is reached, as a type: a syntax (`MaskSyntax`), whose walk is then
/// compiled into the caller, or `EachProgramsSyntax`, which asks each program for its own.
protocol ProgramWalk: SendableMetatype {
    /// Walks a value through `program` (`Program.run`).
    static func run(
        _ program: Program, _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>,
        dropped: UnsafeMutablePointer<UInt8>?, inputIsPlainASCII: Bool?
    ) -> ApplyCounts
}

/// One syntax, whole (docs/mask-syntax.md): a type per syntax, so that the walk is compiled
/// once for each with every rule a constant in it, and input-mask's walk pays nothing for the
/// others' rules. Its `run` (a `ProgramWalk`) is implemented once, in `Program+Run.swift`.
protocol MaskSyntax: ProgramWalk, Sendable {
    static var rules: SyntaxRule { get }

    /// The spec keys of the `SyntaxOptions` this syntax reads (`Syntax.optionKeys`).
    static var optionKeys: [String] { get }

    /// Compiles a format; each syntax reads the options that are its own (`optionKeys`) and
    /// ignores the rest (the spec refuses them before they get here).
    static func compile(format: String, options: SyntaxOptions) throws(FormatError) -> Program

    /// The chooser of a mask whose formats are all of this syntax: this syntax's walk compiled
    /// into the strategy's choice (`Chooser`). Implemented once, in `Program+Run.swift`.
    static func chooser(_ strategy: AffinityStrategy, formats: Int) -> Chooser
}

extension MaskSyntax {
    static var misfitStops: Bool { rules.contains(.misfitStops) }
    static var matchedLiteralWritesItself: Bool { rules.contains(.matchedLiteralWritesItself) }
    static var uppercasesFormatted: Bool { rules.contains(.uppercasesFormatted) }
    static var formattedEndsAtLastSlot: Bool { rules.contains(.formattedEndsAtLastSlot) }
    static var mismatchSkipsToSlot: Bool { rules.contains(.mismatchSkipsToSlot) }
}

extension Mask {
    /// Compiles a format written in any of the syntaxes.
    public init(syntax: Syntax, format: String, options: SyntaxOptions = SyntaxOptions()) throws(FormatError)
    {
        let program = try syntax.definition.compile(format: format, options: options)
        self.init(format: format, program: program.counting(significant: options.significant))
    }
}
