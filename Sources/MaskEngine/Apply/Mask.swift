/// A compiled format: build it once, apply it to any number of values from any number of threads.
///
/// ```swift
/// let phone = try Mask(format: "+1 ([000]) [000]-[0000]")
/// phone.apply("5551234567").formatted  // "+1 (555) 123-4567"
/// ```
public struct Mask: Sendable {
    /// The format as written.
    public let format: String
    let program: Program

    /// The format is applied from the end of the value (amounts, thousands grouping).
    public var rightToLeft: Bool { program.rightToLeft }

    /// Compiles an input-mask format (docs/mask-syntax.md). `options.notations` is the resolved list
    /// the format sees (see `Notation.merged`).
    public init(format: String, options: SyntaxOptions = SyntaxOptions()) throws(FormatError) {
        self.format = format
        self.program = try InputMaskSyntax.compile(format: format, options: options)
            .counting(significant: options.significant)
    }

    init(format: String, program: Program) {
        self.format = format
        self.program = program
    }

    // MARK: Facts

    /// What the format shows before anything is typed: `0` for a digit, `a` for a letter, `-`
    /// for an alphanumeric, a notation's own character, literals as they are; an ellipsis ends it.
    public var placeholder: String {
        let text = program.placeholder(from: 0)
        return rightToLeft ? String(text.reversed()) : text
    }

    /// Characters of a complete formatted value, at the least.
    public var minimumTextLength: Int { program.minimumTextLength }
    /// Characters the formatted value can hold; `nil` when an ellipsis makes it unbounded.
    public var maximumTextLength: Int? { program.isElliptical ? nil : program.capacityTextLength }
    /// Characters of a complete extracted value, at the least.
    public var minimumValueLength: Int { program.minimumValueLength }
    /// Characters the extracted value can hold; `nil` when an ellipsis makes it unbounded.
    public var maximumValueLength: Int? { program.isElliptical ? nil : program.capacityValueLength }

    /// The bytes each of the formatted and extracted buffers must hold for an input of
    /// `inputCount` UTF-8 bytes. Invalid UTF-8 is read as U+FFFD, three bytes for each bad one.
    public func outputCapacity(forInputCount inputCount: Int) -> Int {
        3 * inputCount + program.literalByteCount
    }

    // MARK: Applying

    /// Applies the format to a whole value, as if it were typed with the caret at its end.
    public func apply(_ value: String, autocomplete: Bool = true) -> MaskResult {
        var value = value
        return value.withUTF8 { input in
            let capacity = outputCapacity(forInputCount: input.count)
            return withScratch(capacity * 3) { scratch in
                let formatted = scratch
                let extracted = scratch + capacity
                let dropped = scratch + 2 * capacity
                let counts = run(
                    input, autocomplete: autocomplete, formatted: formatted, extracted: extracted,
                    dropped: dropped)
                let tail = program.placeholder(from: counts.stop)
                return MaskResult(
                    formatted: String(
                        decoding: UnsafeBufferPointer(start: formatted, count: counts.formattedByteCount),
                        as: UTF8.self),
                    extracted: String(
                        decoding: UnsafeBufferPointer(start: extracted, count: counts.extractedByteCount),
                        as: UTF8.self),
                    complete: counts.complete,
                    affinity: counts.affinity,
                    tailPlaceholder: rightToLeft ? String(tail.reversed()) : tail,
                    dropped: String(
                        decoding: UnsafeBufferPointer(start: dropped, count: counts.droppedByteCount),
                        as: UTF8.self))
            }
        }
    }

    /// Applies the format to the UTF-8 bytes of a value, writing the formatted and extracted
    /// bytes to the given buffers, each of which must hold `outputCapacity(forInputCount:)`
    /// bytes. Nothing is allocated for plain ASCII input.
    public func apply(
        utf8 input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>
    ) -> ApplyCounts {
        run(input, autocomplete: autocomplete, formatted: formatted, extracted: extracted, dropped: nil)
    }

    func run(
        _ input: UnsafeBufferPointer<UInt8>, autocomplete: Bool,
        formatted: UnsafeMutablePointer<UInt8>, extracted: UnsafeMutablePointer<UInt8>,
        dropped: UnsafeMutablePointer<UInt8>?
    ) -> ApplyCounts {
        program.run(
            input, autocomplete: autocomplete, formatted: formatted, extracted: extracted, dropped: dropped)
    }
}

/// What applying a format to a value gives, as Strings.
public struct MaskResult: Hashable, Sendable {
    /// The value as the format shows it.
    public var formatted: String
    /// The characters of `[]` slots and `{}` blocks.
    public var extracted: String
    /// No mandatory slot is left unfilled.
    public var complete: Bool
    /// How well the value fits the format (docs/mask-syntax.md).
    public var affinity: Int
    /// The placeholder of the part of the format the value did not reach.
    public var tailPlaceholder: String
    /// The characters carrying data (letters, digits, custom notation characters) that the
    /// format had no room or no slot for.
    public var dropped: String

    public var status: CellStatus {
        CellStatus(complete: complete, droppedDataCharacters: dropped.isEmpty ? 0 : 1)
    }
}

/// What applying a format to a value gives, for the byte-buffer API.
public struct ApplyCounts: Sendable {
    public var formattedByteCount: Int
    public var extractedByteCount: Int
    var droppedByteCount: Int
    /// No mandatory slot is left unfilled.
    public var complete: Bool
    /// How well the value fits the format (docs/mask-syntax.md).
    public var affinity: Int
    /// Characters carrying data that were dropped.
    public var droppedDataCharacters: Int
    /// The step the walk stopped before.
    var stop: Int
    /// The value was walked byte by byte: plain ASCII, and literals that never merge with their
    /// neighbours. Every character written is then one scalar, so characters can be counted on
    /// the bytes.
    var isPlain: Bool
    /// One past the last step a character of the value met (`WalkCounts.reach`).
    var reach = 0
    /// The formatted bytes before the autocomplete tail.
    var formattedBeforeTail = 0

    public var status: CellStatus {
        CellStatus(complete: complete, droppedDataCharacters: droppedDataCharacters)
    }
}

/// A scratch buffer for one call: on the stack when small, on the heap otherwise.
func withScratch<Result>(_ count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Result) -> Result {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { buffer in
        body(buffer.baseAddress!)
    }
}

/// A run of value steps with no literal between them: the day, the month or the year of a date
/// format such as `[00]/[00]/[0000]`.
public struct ValueGroup: Sendable, Hashable {
    /// The characters a complete value puts in it, at the least.
    public var minimumLength: Int
    /// The most it can hold; nil after an ellipsis.
    public var maximumLength: Int?

    public init(minimumLength: Int, maximumLength: Int?) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
    }
}

extension Mask {
    /// The format's groups of value steps, left to right as the formatted value shows them: a
    /// literal ends a group (`[00]/[00]/[0000]` has three, `[00000000]` one).
    public var valueGroups: [ValueGroup] {
        var groups: [ValueGroup] = []
        var current: ValueGroup?
        let steps = rightToLeft ? Array(program.steps.reversed()) : program.steps
        for step in steps {
            if step.isLiteral {
                if let group = current { groups.append(group) }
                current = nil
                continue
            }
            var group = current ?? ValueGroup(minimumLength: 0, maximumLength: 0)
            switch step.kind {
            case .slot: group.minimumLength += 1
            case .ellipsis: group.maximumLength = nil
            default: break
            }
            if step.kind != .ellipsis { group.maximumLength = group.maximumLength.map { $0 + 1 } }
            current = group
        }
        if let group = current { groups.append(group) }
        return groups
    }

    /// The format's literal characters, in order: whatever the formatted value shows that no
    /// value character put there.
    public var literalCharacters: [Character] {
        program.steps.filter(\.isLiteral).map { program.literals[Int($0.index)].character }
    }

    /// The literals the extracted value keeps too (input-mask's `{}`), in order.
    public var extractedLiteralCharacters: [Character] {
        program.steps.filter { $0.kind == .fixed }.map { program.literals[Int($0.index)].character }
    }
}
