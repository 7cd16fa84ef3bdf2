/// A usage error's words: text, and the outputs and settings it is about by their roles, which
/// the library knows, rather than by the flags that name them, which only the executable knows.
/// Written as a string literal whose interpolations of an `OutputRole` or a `Setting` stay
/// roles: `"\(OutputRole.report(.html)) needs a file name"`, `"\(Setting.firstRow) must be
/// from 1"`; everything else interpolated is text.
public struct UsageMessage: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public enum Part: Sendable, Equatable {
        case text(String)
        case output(OutputRole)
        case setting(Setting)
    }

    /// The parts in order, adjacent texts joined, none empty.
    public private(set) var parts: [Part]

    public init(_ text: String) {
        parts = text.isEmpty ? [] : [.text(text)]
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    /// The message with every output named as `name` says and every setting as `setting` says
    /// (in words, unless told otherwise): by its flag on the command line.
    public func rendered(
        naming name: (OutputRole) -> String, setting: (Setting) -> String = { $0.description }
    ) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .output(let role): name(role)
            case .setting(let given): setting(given)
            }
        }.joined()
    }

    /// The two messages one after the other.
    public static func + (first: UsageMessage, second: UsageMessage) -> UsageMessage {
        var joined = first
        for part in second.parts {
            if case .text(let text) = part, case .text(let before) = joined.parts.last {
                joined.parts[joined.parts.count - 1] = .text(before + text)
            } else {
                joined.parts.append(part)
            }
        }
        return joined
    }

    /// The message in the library's words: each output by its role, each setting in words.
    public var description: String { rendered { $0.description } }

    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            if case .text(let before) = parts.last {
                parts[parts.count - 1] = .text(before + literal)
            } else {
                parts.append(.text(literal))
            }
        }

        public mutating func appendInterpolation(_ role: OutputRole) {
            parts.append(.output(role))
        }

        public mutating func appendInterpolation(_ setting: Setting) {
            parts.append(.setting(setting))
        }

        /// Another message's parts, its roles and settings kept.
        public mutating func appendInterpolation(_ message: UsageMessage) {
            for part in message.parts {
                if case .text(let text) = part { appendLiteral(text) } else { parts.append(part) }
            }
        }

        public mutating func appendInterpolation(_ value: some Any) {
            appendLiteral(String(describing: value))
        }
    }
}
