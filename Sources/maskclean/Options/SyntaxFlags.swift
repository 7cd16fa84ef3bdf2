import ArgumentParser
import MaskEngine

/// `apply`'s `--syntax`, and the settings that only one syntax has.
struct SyntaxFlags: ParsableArguments {
    @Option(help: "The syntax the formats are written in.")
    var syntax: Syntax = .inputMask

    @Option(help: "akmask only: the template, one character or one per position of the mask.")
    var template: String?

    @Option(help: "maskara only: the literal symbol characters (default: + - space and parentheses).")
    var symbols: String?

    /// akmask's and maskara's options; `apply` adds input-mask's (`--notation`, `--rtl`).
    var options: SyntaxOptions { SyntaxOptions(template: template, symbols: symbols) }
}

/// `--syntax`: the engine's syntaxes, as they are named.
extension Syntax: ExpressibleByArgument {}
