import WallCompositor

/// A part file: a sheet's compressed rows for one ``SheetPart``, and what they belong to.
///
/// Layout: the 8 bytes `IWPART1\n`; a header (its length, 4 bytes big-endian; ``PartHeader`` as
/// JSON; an XXH3 checksum of the JSON, 8 bytes); one record per segment (`S`, the page, the
/// segment's Adler-32, filtered size and deflated length, the deflated bytes, a checksum of the
/// record); for a Deep Zoom part, one record per top-level tile it made (`T`, the page, column,
/// row, length, the tile file's bytes, a checksum); and an end record (`E`, the number of records,
/// a checksum). Every number is big-endian, as in a PNG.
enum PartFile {
    static let magic = Array("IWPART1\n".utf8)
    /// A header larger than this is not one ImageWall wrote (it lists only page sizes).
    static let headerLimit = 16 << 20

    /// The most filtered bytes a segment of `page` can hold (one band), and the most deflated
    /// bytes those can take (deflate's stored blocks add 5 bytes in 65,535, plus the flush):
    /// a damaged length never asks for more memory than a band.
    static func limits(_ page: PartHeader.Page) -> (filtered: UInt64, deflated: UInt64) {
        let filtered = UInt64(SheetRenderer.defaultBandHeight) * UInt64(page.width * (page.alpha ? 4 : 3) + 1)
        return (filtered, filtered + filtered / 8192 + 1024)
    }
}
