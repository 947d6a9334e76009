import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// An output format's writer: what its pages can hold, and how a plan's pages are written in
/// it. One type a format, each in its own file in `Output/Formats/`, found through
/// ``PageFormat/saver`` (as libvips finds a saver by suffix): a new output format is a case of
/// ``PageFormat`` and one file.
package protocol PageSaver {
    /// The format's usual name, for messages ("PNG", "Deep Zoom").
    static var name: String { get }
    /// What the format is for, as `--format`'s help lists it ("one PNG a page, lossless: the
    /// format of fixtures").
    static var purpose: String { get }
    /// The extensions that name the format (lowercase, no dot); the first is the one written.
    static var fileExtensions: [String] { get }
    /// The most pixels a page may have on a side, when the format has a limit.
    static var largestSide: Int? { get }
    /// Why a page with alpha (a transparent `--background`) is refused, when the format has no
    /// alpha channel; `nil` when it holds alpha.
    static var alphaRefusal: String? { get }
    /// Whether a page holds exactly the pixels painted, so that parts assemble into it byte for
    /// byte.
    static var isLossless: Bool { get }
    /// Whether a page must fit ``RunLimits/maxSheetPixels``: a picture a viewer opens whole,
    /// not one written tile by tile for walls of any size.
    static var isPixelCapped: Bool { get }
    /// Whether every page goes into one file (a document), rather than a file each.
    static var holdsAllPages: Bool { get }

    /// Writes `pages` as `painter` paints them to `path` (one page, or every page when
    /// ``holdsAllPages``), carrying ImageWall's marker where the format holds one (so that a
    /// later render of the folder leaves the sheet out). Each file is handed to `staged` as soon
    /// as it exists, so that a failure discards it; it comes back complete, not yet in place.
    static func write(_ pages: [Int], to path: String, painter: any PagePainter, staged: (any CompletedPage) -> Void)
        throws
}

/// What a saver is given: the pages' sizes and the render's settings, and each page's rows
/// painted in bands, top to bottom (the render's ``PageWriter``).
package protocol PagePainter {
    /// The render's options (background, encoder settings, paper, title).
    var options: WallOptions { get }
    /// Threads encoding at once.
    var threads: Int { get }
    /// Where encoding time is counted.
    var profile: StageProfile? { get }
    /// Each page's size, in pixels.
    var pageSizes: [Size] { get }

    /// Paints `rows` of `page` and hands each band, `count` rows of RGB (or straight RGBA on a
    /// transparent background), to `emit`.
    func paintBands(
        page: Int, rows: Range<Int>, emit: (UnsafeBufferPointer<UInt8>, _ count: Int) throws -> Void
    ) throws
    /// Paints `rows` of `page` and hands its PNG segments, each band compressed alone, to `sink`.
    func paint(page: Int, rows: Range<Int>, into sink: any SegmentSink) throws
    /// The title band of a printed page after the first, `size` px, its text `pixelSize` px
    /// tall; `nil` without a title.
    func printedTitle(size: Size, pixelSize: Int) throws -> Bitmap?
}

extension PagePainter {
    /// Page `page` painted whole, for encoders that take a whole picture.
    func paintWhole(page: Int) throws -> Bitmap {
        var sheet = Bitmap(size: pageSizes[page], alpha: options.background.isOpaque ? .none : .straight)
        var filled = 0
        let rowBytes = sheet.rowBytes
        try paintBands(page: page, rows: 0..<sheet.size.height) { band, count in
            let bytes = count * rowBytes
            sheet.pixels.replaceSubrange(filled..<filled + bytes, with: band[0..<bytes])
            filled += bytes
        }
        return sheet
    }

    /// Page `page` as a baseline JPEG with the standard tables at the sheet's quality, its
    /// bands streamed into `handle` (called `name` in errors) as they are painted: the sheet is
    /// never held. `marked`, it carries ImageWall's name as its EXIF Software.
    func paintJPEG(page: Int, into handle: UnsafeMutablePointer<FILE>, name: String, marked: Bool) throws {
        let size = pageSizes[page]
        var settings = JPEGEncodeOptions(storage: .ycbcr)
        settings.quality = options.rendering.sheetQuality
        settings.optimizedTables = false
        if marked { settings.app1 = ExifWriter.app1(software: ImageWallRelease.software) }
        let writer = try JPEGStreamWriter(handle: handle, name: name, size: size, options: settings)
        try paintBands(page: page, rows: 0..<size.height) { band, count in
            try profile.measure(.encode) { try writer.write(rows: band, count: count) }
        }
        try writer.finish()
    }
}

extension PageSaver {
    static var largestSide: Int? { nil }
    static var alphaRefusal: String? { nil }
    static var isLossless: Bool { false }
    static var isPixelCapped: Bool { true }
    static var holdsAllPages: Bool { false }
}

/// A page written but not yet in place: put in place with the others once all are complete,
/// or discarded.
package protocol CompletedPage: StagedOutput {}

extension AtomicFile: CompletedPage {}

/// Where a page's PNG segments go, in order: its PNG, or a part file.
package protocol SegmentSink: AnyObject, Sendable {
    /// Takes the next segment.
    func append(_ segment: PNGSegment) throws
}

extension PNGSegmentWriter: SegmentSink {}
