/// The status of one masked cell (docs/cell-status.md).
public enum CellStatus: String, Sendable, CaseIterable, Hashable {
    /// Every mandatory slot is filled and no data character was dropped.
    case complete
    /// Every mandatory slot is filled, but data characters were dropped (too long, wrong type).
    case lossy
    /// A mandatory slot is left unfilled.
    case incomplete
    /// The input is missing, null or the empty string; it is not masked.
    case empty
    /// The value fits a format (it would be complete or lossy) but fails its column's check: an
    /// impossible date, a wrong check digit. A format never decides it; maskclean's checks do.
    case invalid

    public init(complete: Bool, droppedDataCharacters: Int) {
        if !complete {
            self = .incomplete
        } else {
            self = droppedDataCharacters > 0 ? .lossy : .complete
        }
    }
}
