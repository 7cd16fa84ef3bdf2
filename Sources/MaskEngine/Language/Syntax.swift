/// The syntaxes a column's formats can be written in (docs/mask-syntax.md).
public enum Syntax: String, Sendable, CaseIterable, Hashable {
    /// input-mask's `[]` `{}` syntax (docs/mask-syntax.md), the default.
    case inputMask = "input-mask"
    /// AKMaskField's `{dddd}-{DDDD}` syntax.
    case akmask
    /// Maskara's `+?7|8(DDD)DDD` syntax.
    case maskara
}

/// The settings that only one syntax has.
public struct SyntaxOptions: Sendable, Hashable {
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
    /// Compiles a format written in any of the syntaxes.
    public init(
        syntax: Syntax, format: String, notations: [Notation] = [],
        syntaxOptions: SyntaxOptions = SyntaxOptions(),
        rightToLeft: Bool = false
    ) throws(FormatError) {
        switch syntax {
        case .inputMask:
            try self.init(format: format, notations: notations, rightToLeft: rightToLeft)
        case .akmask:
            self.init(
                format: format, program: try AKMaskFormat.compile(format, template: syntaxOptions.template))
        case .maskara:
            self.init(
                format: format, program: try MaskaraFormat.compile(format, symbols: syntaxOptions.symbols))
        }
    }
}
