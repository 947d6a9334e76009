import WallCodecs
import WallCore
import WallFiles

/// One PDF of every page, for print, through libharu: each page on a sheet of paper (see
/// ``Paper``), fitted between the margins and the header and footer bands (at the paper's
/// resolution when the sheet was laid out for it), its picture a JPEG streamed band by band
/// into memory at the quality asked (or its pixels kept whole and deflated at quality 0), the
/// title above it from the second page on (the first shows it in the sheet), drawn as the
/// sheet's text is, "page N of M" below; the document's information names the title, and
/// ImageWall as its Producer.
enum PDFPageSaver: PageSaver {
    static let name = "PDF"
    static let purpose = "every page on paper, for print: see --paper"
    static let fileExtensions = ["pdf"]
    static let alphaRefusal: String? = "a PDF sheet is printed on paper: give an opaque --background"
    static let holdsAllPages = true

    static func write(_ pages: [Int], to path: String, painter: any PagePainter, staged: (any CompletedPage) -> Void)
        throws
    {
        let file = try AtomicFile(destination: path)
        staged(file)
        let options = painter.options
        let paper = options.rendering.paper ?? .a4
        let title = options.rendering.title.flatMap { $0.isEmpty ? nil : $0 }
        let document = try PDFDocument(title: title, producer: ImageWallRelease.software)
        let points = { (millimetres: Double) in millimetres * 72 / 25.4 }
        let sizes = painter.pageSizes
        for page in pages {
            let size = sizes[page]
            let picture: PDFDocument.Page.Picture
            if options.rendering.sheetQuality == 0 {
                picture = .pixels(try painter.paintWhole(page: page))
            } else {
                let stream = try MemoryStream()
                try painter.paintJPEG(page: page, into: stream.handle, name: file.destination, marked: false)
                picture = .jpeg(stream.bytes())
            }
            // Fitted to the room between the margins and bands: at the paper's resolution when
            // laid out for it, smaller when the sheet is wider or taller.
            let roomWidth = points(paper.width - 2 * paper.margin)
            let roomHeight = points(paper.height - 2 * paper.margin - 2 * Paper.bandHeight)
            let natural = 72 / Double(paper.dpi)
            let scale = min(natural, roomWidth / Double(size.width), roomHeight / Double(size.height))
            let top = points(paper.margin + Paper.bandHeight)
            let width = Double(size.width) * scale
            // The title heads every page after the first (which shows it in the sheet), drawn
            // as the sheet's text is, at the paper's resolution.
            var header: (band: Bitmap, top: Double, height: Double)?
            if page > 0, title != nil {
                let pixels = { (points: Double) in max(1, Int((points * Double(paper.dpi) / 72).rounded())) }
                let band = try painter.printedTitle(
                    size: Size(width: pixels(width), height: pixels(points(Paper.bandHeight))),
                    pixelSize: pixels(Paper.fontSize))
                header = band.map { ($0, points(paper.margin), points(Paper.bandHeight)) }
            }
            try document.add(
                PDFDocument.Page(
                    size: (points(paper.width), points(paper.height)), picture: picture,
                    frame: (points(paper.margin), top, width, Double(size.height) * scale), header: header,
                    footer: "page \(page + 1) of \(sizes.count)", fontSize: Paper.fontSize,
                    footerBaseline: points(paper.height - paper.margin) - points(1)))
        }
        try painter.profile.measure(.encode) { try document.write(into: file) }
        try file.finishWriting()
    }
}
