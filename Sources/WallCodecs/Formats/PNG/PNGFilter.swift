/// Which PNG row filter a sheet is written with.
public enum PNGFilter: String, Sendable, Codable, CaseIterable {
    /// Each row's filter chosen by the smallest sum of absolute values (libpng's heuristic).
    case adaptive
    /// The row as it is.
    case none
    /// The difference to the pixel on the left.
    case sub
    /// The difference to the pixel above.
    case up
    /// The difference to the mean of left and above.
    case average
    /// The difference to the Paeth predictor of left, above and upper left.
    case paeth

    /// The PNG filter type written in each row, or -1 for adaptive.
    var type: Int32 {
        switch self {
        case .adaptive: return -1
        case .none: return 0
        case .sub: return 1
        case .up: return 2
        case .average: return 3
        case .paeth: return 4
        }
    }
}
