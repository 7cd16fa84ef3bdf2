/// How a value's fit to each of a column's formats is scored (DESIGN §1).
public enum AffinityStrategy: String, Sendable, CaseIterable, Hashable {
    /// The affinity of applying the format: +1 per character consumed, −1 per character skipped
    /// and per step that consumed nothing.
    case wholeString
    /// The length of the common prefix of the value and its formatted form.
    case prefix
    /// How close the value's length is to the format's text capacity.
    case capacity
    /// How close the extracted value's length is to the format's value capacity.
    case extractedValueCapacity
}
