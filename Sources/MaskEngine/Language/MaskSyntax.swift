/// The mask languages a column's formats can be written in (DIALECTS.md).
public enum MaskSyntax: String, Sendable, CaseIterable, Hashable {
    /// input-mask's `[]` `{}` language (DESIGN §1), the default.
    case inputMask = "input-mask"
    /// AKMaskField's `{dddd}-{DDDD}` language.
    case akmask
    /// Maskara's `+?7|8(DDD)DDD` language.
    case maskara
}

/// The settings that only one mask language has.
public struct DialectOptions: Sendable, Hashable {
    /// `akmask`: AKMaskField's `maskTemplate`: one character, or one per display position.
    public var template: String?
    /// `maskara`: the literal symbol characters (Maskara's `allowedSymbolTokens`).
    public var symbols: String?

    public init(template: String? = nil, symbols: String? = nil) {
        self.template = template
        self.symbols = symbols
    }
}

extension Mask {
    /// Compiles a format written in any of the mask languages.
    public init(
        syntax: MaskSyntax, format: String, notations: [Notation] = [],
        dialect: DialectOptions = DialectOptions(),
        rightToLeft: Bool = false
    ) throws(FormatError) {
        switch syntax {
        case .inputMask:
            try self.init(format: format, notations: notations, rightToLeft: rightToLeft)
        case .akmask:
            self.init(format: format, program: try AKMaskFormat.compile(format, template: dialect.template))
        case .maskara:
            self.init(format: format, program: try MaskaraFormat.compile(format, symbols: dialect.symbols))
        }
    }
}
