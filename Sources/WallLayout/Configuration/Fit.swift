/// How an image fills a cell whose shape differs from its own.
public enum Fit: String, Sendable, Codable, CaseIterable {
    /// Fill the cell and crop what sticks out.
    case cover
    /// Show the whole image inside the cell, the rest left as background.
    case contain
}
