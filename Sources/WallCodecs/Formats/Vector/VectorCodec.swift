import CVectorShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Vector pictures: SVG through librsvg, PDF (and Illustrator files, PDF inside) through poppler,
/// drawn by cairo at the size the tile asks, so that a drawing is as sharp at 200 px as at
/// 2,000 and never rasterised large and shrunk. The size laid out is the SVG's own (its width and
/// height at 96 px an inch, else its viewBox) or the PDF's first page (points at 96 px an inch).
/// A PDF is drawn from its first page, on white. The libraries load on the first such file.
struct VectorCodec: ImageCodec {
    /// Told apart by their text: PDF's header, an XML document whose root is `<svg>`.
    var priority: ClaimPriority { .signature }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        if VectorCodec.isPDF(head) { return .pdf }
        if VectorCodec.isSVG(head) { return .svg }
        return nil
    }

    /// By the bytes, or an SVGZ (gzip) by its name.
    func claim(_ file: FileSignature) -> FileClaim? {
        if let format = sniff(file.head) { return .image(format) }
        if file.fileExtension == "svgz", file.head.starts(with: [0x1F, 0x8B]) { return .image(.svg) }
        return nil
    }

    /// "%PDF-" within the first kilobyte, where readers look for it.
    static func isPDF(_ head: [UInt8]) -> Bool {
        let marker = Array("%PDF-".utf8)
        let window = head.prefix(1024)
        guard window.count >= marker.count else { return false }
        return (0...(window.count - marker.count)).contains { window[$0..<$0 + marker.count].elementsEqual(marker) }
    }

    /// An XML document whose first element is `<svg` (after a byte-order mark, the XML
    /// declaration, comments, processing instructions and a document type).
    static func isSVG(_ head: [UInt8]) -> Bool {
        !startsWithoutMarkup(head) && isSVGDocument(head)
    }

    /// Whether the first character after the byte-order mark and white space is not `<`, read
    /// from the first 256 bytes alone: the answer for every binary file (a HEIF's 64 KB read as
    /// text cost 17 M instructions a file) and every text file that is no markup. A first
    /// character that starts past byte 191 is left to the whole reading.
    static func startsWithoutMarkup(_ head: [UInt8]) -> Bool {
        let lead = String(decoding: head.prefix(256), as: UTF8.self)
        var rest = Substring(lead)
        if rest.first == "\u{FEFF}" { rest = rest.dropFirst() }
        rest = rest.drop { $0.isWhitespace }
        guard let first = rest.first else { return false }
        return first != "<" && lead.utf8.count - rest.utf8.count < 192
    }

    /// ``isSVG(_:)`` read from the whole head, as text.
    static func isSVGDocument(_ head: [UInt8]) -> Bool {
        var text = Substring(String(decoding: head.prefix(65536), as: UTF8.self))
        if text.first == "\u{FEFF}" { text = text.dropFirst() }
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?") {
                guard let end = text.range(of: "?>") else { return false }
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!--") {
                guard let end = text.range(of: "-->") else { return false }
                text = text[end.upperBound...]
            } else if text.hasPrefix("<!DOCTYPE") || text.hasPrefix("<!doctype") {
                // The document type may hold an internal subset in brackets.
                guard let end = text.firstIndex(where: { $0 == ">" || $0 == "[" }) else { return false }
                if text[end] == "[" {
                    guard let close = text[end...].range(of: "]") else { return false }
                    text = text[close.upperBound...]
                    guard let gt = text.firstIndex(of: ">") else { return false }
                    text = text[text.index(after: gt)...]
                } else {
                    text = text[text.index(after: end)...]
                }
            } else {
                return text.hasPrefix("<svg") || text.hasPrefix("<svg:svg")
            }
        }
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        let format = VectorCodec.format(file.head)
        let (vector, about) = try VectorCodec.open(path, format: format, stage: .probe)
        iw_vector_close(vector)
        let size = VectorCodec.pixelSize(about)
        guard size.width > 0, size.height > 0 else {
            throw CodecError(.probe, path: path, reason: "the picture has no size")
        }
        var info = ImageInfo(
            format: format, storedSize: size, colorModel: format == .svg ? .rgba : .rgb, bitDepth: 8,
            hasAlpha: format == .svg, isProgressive: false)
        if about.pages > 1 {
            info.drawnFrom = "page 1 of \(about.pages)"
            info.pageCount = Int(about.pages)
        }
        return info
    }

    /// Each page of a PDF at its own size, drawn from itself; the document opened once.
    func probePages(of info: ImageInfo, path: String) throws(CodecError) -> [Result<ImageInfo, CodecError>] {
        let (vector, about) = try VectorCodec.open(path, format: info.format, stage: .probe)
        defer { iw_vector_close(vector) }
        return (1...max(1, Int(about.pages))).map { page in
            var width = 0.0, height = 0.0
            guard iw_pdf_page_size(vector, Int32(page - 1), &width, &height) == 0 else {
                return .failure(CodecError(.probe, path: path, reason: "\(info.format.name): it has no page \(page)"))
            }
            var paged = info
            paged.storedSize = VectorCodec.pixelSize(
                iw_vector_info(width: width, height: height, pages: about.pages, sized: 1))
            paged.page = page
            paged.drawnFrom = "page \(page) of \(about.pages)"
            return .success(paged)
        }
    }

    static func format(_ head: [UInt8]) -> ImageFormat { isPDF(head) ? .pdf : .svg }

    /// The size laid out: the picture's own, rounded up to whole pixels.
    static func pixelSize(_ about: iw_vector_info) -> Size {
        guard about.width.isFinite, about.height.isFinite, about.width < 1e9, about.height < 1e9 else {
            return Size(width: Int.max / 4, height: Int.max / 4)
        }
        return Size(width: max(1, Int(about.width.rounded(.up))), height: max(1, Int(about.height.rounded(.up))))
    }

    static func open(_ path: String, format: ImageFormat, stage: CodecStage) throws(CodecError)
        -> (OpaquePointer, iw_vector_info)
    {
        var about = iw_vector_info()
        var message = [CChar](repeating: 0, count: 512)
        let vector =
            format == .pdf
            ? iw_pdf_open(path.systemPath, &about, &message, message.count)
            : iw_svg_open(path.systemPath, &about, &message, message.count)
        guard let vector else { throw CodecError(stage, path: path, reason: "\(format.name): \(message.text)") }
        return (vector, about)
    }

    /// The size drawn: the tile's (stored pixels), else the picture's own.
    static func drawnSize(info: ImageInfo, target: Size?) -> Size {
        guard let target, target.width > 0, target.height > 0 else { return info.storedSize }
        return target
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let (vector, _) = try VectorCodec.open(path, format: info.format, stage: .decode)
        defer { iw_vector_close(vector) }
        let size = VectorCodec.drawnSize(info: info, target: target)
        var bitmap = Bitmap(size: size, alpha: .straight)
        var message = [CChar](repeating: 0, count: 512)
        let page = Int32((info.page ?? 1) - 1)
        let status = bitmap.pixels.withUnsafeMutableBufferPointer { out in
            iw_vector_draw(
                vector, page, Int32(size.width), Int32(size.height), out.baseAddress, &message, message.count)
        }
        guard status == 0 else { throw CodecError(.decode, path: path, reason: "\(info.format.name): \(message.text)") }
        return DecodedImage(bitmap: info.hasAlpha ? bitmap : VectorCodec.opaque(bitmap), warnings: [])
    }

    /// A page drawn on white, without its alpha.
    static func opaque(_ bitmap: Bitmap) -> Bitmap {
        let count = bitmap.size.width * bitmap.size.height
        var rgb = [UInt8](repeating: 0, count: count * 3)
        for i in 0..<count {
            rgb[3 * i] = bitmap.pixels[4 * i]
            rgb[3 * i + 1] = bitmap.pixels[4 * i + 1]
            rgb[3 * i + 2] = bitmap.pixels[4 * i + 2]
        }
        return Bitmap(size: bitmap.size, alpha: .none, pixels: rgb)
    }

    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let size = VectorCodec.drawnSize(info: info, target: target)
        let page = info.page.map { "page \($0), " } ?? ""
        return page + "drawn \(size.width)x\(size.height) by \(String(cString: iw_vector_versions()))"
    }

    /// The picture drawn, and what cairo and the library hold beside it (a second copy of the
    /// pixels, at most, for a group or a filter).
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let area = VectorCodec.drawnSize(info: info, target: target).area ?? 0
        return (area * 4, area * 4 + (8 << 20))
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }
}
