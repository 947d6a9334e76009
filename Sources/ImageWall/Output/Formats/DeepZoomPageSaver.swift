import WallCodecs
import WallCore

/// A Deep Zoom pyramid a page (`NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.png`), written band
/// by band for walls of any size; its top level holds exactly the sheet's pixels.
enum DeepZoomPageSaver: PageSaver {
    static let name = "Deep Zoom"
    static let purpose = "a Deep Zoom pyramid a page: OUT.dzi and OUT_files/LEVEL/COL_ROW.png, for zoomable viewers"
    static let fileExtensions = [DeepZoomGeometry.descriptorExtension]
    static let isLossless = true
    static let isPixelCapped = false

    static func write(_ pages: [Int], to path: String, painter: any PagePainter, staged: (any CompletedPage) -> Void)
        throws
    {
        let page = pages[0]
        let size = painter.pageSizes[page]
        let pyramid = try DeepZoomWriter(
            destination: path, size: size, channels: painter.options.background.isOpaque ? 3 : 4,
            format: painter.options.deepZoomTiles, threads: painter.threads)
        staged(pyramid)
        try painter.paintBands(page: page, rows: 0..<size.height) { band, count in
            try painter.profile.measure(.encode) { try pyramid.add(rows: band, count: count) }
        }
        try pyramid.finishWriting()
    }
}
