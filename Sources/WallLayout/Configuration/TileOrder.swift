/// The order in which a grid's cells take the images.
public enum TileOrder: String, Sendable, Codable, CaseIterable {
    /// Row by row, left to right: the order of reading.
    case across
    /// Column by column within each page, top to bottom, as contact sheets printed "down first":
    /// a page's columns are as tall as the page allows, the last page's as short as its images
    /// allow.
    case down
}
