import WallCodecs
import WallCompositor
import WallCore
import WallFiles

/// PNG pages, the default and the format of fixtures: streamed band by band, each band filtered
/// and deflated on its own (see ``SegmentEncoder``), the Software text naming ImageWall.
enum PNGPageSaver: PageSaver {
    static let name = "PNG"
    static let purpose = "one PNG a page, lossless: the format of fixtures"
    static let fileExtensions = ["png"]
    static let isLossless = true

    static func write(_ pages: [Int], to path: String, painter: any PagePainter, staged: (any CompletedPage) -> Void)
        throws
    {
        let page = pages[0]
        let size = painter.pageSizes[page]
        let file = try AtomicFile(destination: path)
        staged(file)
        let png = try PNGSegmentWriter(
            file: file, size: size, hasAlpha: !painter.options.background.isOpaque,
            compression: painter.options.rendering.compression, software: ImageWallRelease.software,
            bandHeight: SheetRenderer.defaultBandHeight)
        try painter.paint(page: page, rows: 0..<size.height, into: png)
        try png.finish()
        try file.finishWriting()
    }
}
