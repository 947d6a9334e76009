import WallCodecs
import WallCore
import WallFiles

/// Lossy WebP pages, ImageWall named in their EXIF Software. libwebp encodes a whole picture,
/// so a page is gathered whole (WebP's 16,383 px a side bounds it).
enum WebPPageSaver: PageSaver {
    static let name = "WebP"
    static let purpose = "one WebP a page, lossy, smaller still, at most 16,383 px a side: to show"
    static let fileExtensions = ["webp"]
    static let largestSide: Int? = 16383

    static func write(_ pages: [Int], to path: String, painter: any PagePainter, staged: (any CompletedPage) -> Void)
        throws
    {
        let file = try AtomicFile(destination: path)
        staged(file)
        let sheet = try painter.paintWhole(page: pages[0])
        var settings = WebPEncodeOptions()
        settings.quality = Float(painter.options.rendering.sheetQuality)
        settings.exif = ExifWriter.tiff(software: ImageWallRelease.software)
        try painter.profile.measure(.encode) { try WebPEncoder.write(sheet, options: settings, into: file) }
        try file.finishWriting()
    }
}
