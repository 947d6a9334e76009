import WallCodecs
import WallCore
import WallFiles

/// Baseline JPEG pages with libjpeg's standard tables, streamed band by band (to send: a
/// seventh of the PNG or less), ImageWall named in their EXIF Software; no alpha, at most
/// 65,535 px a side.
enum JPEGPageSaver: PageSaver {
    static let name = "JPEG"
    static let purpose = "one baseline JPEG a page, lossy, a seventh of the PNG or less: to mail"
    static let fileExtensions = ["jpg", "jpeg"]
    static let largestSide: Int? = 65535
    static let alphaRefusal: String? =
        "a JPEG sheet has no alpha channel: give an opaque --background, or write PNG or WebP"

    static func write(_ pages: [Int], to path: String, painter: any PagePainter, staged: (any CompletedPage) -> Void)
        throws
    {
        let file = try AtomicFile(destination: path)
        staged(file)
        try painter.paintJPEG(page: pages[0], into: file.handle, name: file.destination, marked: true)
        try file.finishWriting()
    }
}
