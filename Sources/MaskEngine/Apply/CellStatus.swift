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

    public init(complete: Bool, droppedDataCharacters: Int) {
        if !complete {
            self = .incomplete
        } else {
            self = droppedDataCharacters > 0 ? .lossy : .complete
        }
    }
}
