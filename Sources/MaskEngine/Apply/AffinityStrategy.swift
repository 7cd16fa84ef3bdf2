/// How a value's fit to each of a column's formats is scored. The
/// reference's four strategies behave exactly as the reference's; `bestStatus` is maskclean's,
/// and the default for batch work.
public enum AffinityStrategy: String, Sendable, CaseIterable, Hashable {
    /// The format whose result is complete, else lossy, else incomplete; among equals, the
    /// higher `wholeString` affinity. A four-digit postcode fits `[0000]` completely, though
    /// `[00000]-[9999]` is the primary and scores as high by affinity.
    case bestStatus
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
