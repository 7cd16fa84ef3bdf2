import MaskEngine

/// Compiles an arbitrary format with arbitrary notations and applies it to an arbitrary value,
/// both ways (String and bytes), left to right and right to left. Any crash, or the two ways
/// disagreeing, is a finding.
///
/// Input: one options byte, then the format, the notation sets and the value, separated by
/// 0x00 bytes. Invalid UTF-8 is taken as the standard library repairs it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMask(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let options = data[0]
    let parts = UnsafeBufferPointer(start: data + 1, count: size - 1).split(
        separator: 0, omittingEmptySubsequences: false)
    let texts = parts.map { String(decoding: $0, as: UTF8.self) }
    let format = texts.first ?? ""
    let value = texts.count > 1 ? texts[texts.count - 1] : ""
    // Each middle part declares a notation: its first character, accepting the rest.
    let notations = texts.dropFirst().dropLast().compactMap { text -> Notation? in
        guard let character = text.first else { return nil }
        return Notation(
            character: character, characterSet: String(text.dropFirst()), isOptional: text.count % 2 == 0)
    }
    let strategy = AffinityStrategy.allCases[Int(options >> 2) % AffinityStrategy.allCases.count]
    // Bits 5 and 6 pick the syntax; the other two take neither notations nor right to left.
    let syntax = [Syntax.inputMask, .akmask, .maskara, .inputMask][Int(options >> 5) & 3]
    let syntaxOptions = SyntaxOptions(
        notations: syntax == .inputMask ? notations : [],
        rightToLeft: syntax == .inputMask && options & 2 != 0,
        template: syntax == .akmask && notations.first != nil ? String(notations[0].character) : nil,
        symbols: syntax == .maskara ? notations.first?.characterSet : nil)
    let affine =
        options & 0x10 != 0 ? [format + "[0]", "[" + String(format.prefix(3)) + "]", format + "D"] : []
    guard (try? Notation.checkDistinct(notations)) != nil,
        let mask = try? AffineMask(
            syntax: syntax, format: format, affineFormats: affine,
            options: syntaxOptions, strategy: strategy, autocomplete: options & 1 != 0)
    else { return 0 }
    let result = mask.apply(value)
    var copy = value
    let buffer = ApplyBuffer(capacity: 1)
    let outcome = copy.withUTF8 { mask.apply(utf8: $0, into: buffer) }
    let formatted = String(decoding: buffer.formatted, as: UTF8.self)
    let extracted = String(decoding: buffer.extracted, as: UTF8.self)
    precondition(outcome.chosen == result.chosen, "chosen format differs")
    precondition(
        formatted == result.result.formatted, "formatted differs: \(formatted) / \(result.result.formatted)")
    precondition(extracted == result.result.extracted, "extracted differs")
    precondition(outcome.counts.complete == result.result.complete, "complete differs")
    _ = mask.template(value, placeholder: "_")
    _ = mask.masks.map { ($0.placeholder, $0.minimumTextLength, $0.maximumTextLength) }
    return 0
}
