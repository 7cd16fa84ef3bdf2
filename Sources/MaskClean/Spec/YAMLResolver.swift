/// What a plain (unquoted, untagged) YAML scalar reads as under YAML 1.1's implicit types, the
/// rules PyYAML, Yams and most YAML 1.1 readers apply in this order, the first that matches
/// winning (https://yaml.org/type/: bool, int, float, merge, null, timestamp, value). The spec
/// reader refuses the surprising ones where it wants a string (docs/spec.md#yaml).
enum YAMLResolver {
    enum Reading: Hashable {
        case bool, int, float, merge, null, timestamp, value, string
    }

    // The rules are regex literals in the functions that use them, not stored ones: a Regex kept
    // in a global builds its program lazily where LeakSanitizer cannot follow it, and every run
    // under AddressSanitizer reported it as lost. A spec's scalars are few.
    static func reading(ofPlain text: String) -> Reading {
        if text.wholeMatch(of: /yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF/)
            != nil
        {
            return .bool
        }
        if text.wholeMatch(
            of:
                /[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+/
        ) != nil {
            return .int
        }
        if text.wholeMatch(
            of:
                /[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)/
        ) != nil {
            return .float
        }
        if text == "<<" { return .merge }
        if text.wholeMatch(of: /~|null|Null|NULL|/) != nil { return .null }
        if text.wholeMatch(
            of:
                /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?/
        ) != nil {
            return .timestamp
        }
        if text == "=" { return .value }
        return .string
    }
}
