import WallCore

/// Reads image headers: format, stored size, orientation and colour, without decoding pixels.
///
/// A probe reads the first 64 KiB of a file and, only when a JPEG's frame header lies further
/// in, a few more bytes per marker segment.
public struct ImageProbe: Sendable {
    /// Images with more pixels than this are refused before any decoding.
    public var maxImagePixels: Int

    /// The default pixel limit: 16384 × 16384 = 268 MP.
    public static let defaultMaxImagePixels = 16384 * 16384

    /// Creates a probe refusing images over `maxImagePixels` pixels.
    public init(maxImagePixels: Int = ImageProbe.defaultMaxImagePixels) {
        self.maxImagePixels = maxImagePixels
    }

    /// Each page's header of a file of several pages (``ImageInfo/pageCount``), in order, whose
    /// first page's header is `first`: the file opened once; a page that cannot be read, or is
    /// over the pixel limit, is its error. A file of one page is `first` alone.
    public func probePages(of first: ImageInfo, path: String) throws(CodecError) -> [Result<ImageInfo, CodecError>] {
        guard (first.pageCount ?? 1) > 1 else { return [.success(first)] }
        return try first.format.codec.probePages(of: first, path: path).map { page in
            page.flatMap { info in
                Result { () throws(CodecError) in try withinLimit(info, path: path, as: "page \(info.page ?? 1)") }
            }
        }
    }

    /// Reads the header of page `page` (from 1) of the file at `path`, a file of several pages
    /// drawn page by page.
    public func probe(path: String, page: Int) throws(CodecError) -> ImageInfo {
        let first = try probe(path: path)
        let pages = try probePages(of: first, path: path)
        guard pages.indices.contains(page - 1) else {
            throw CodecError(.probe, path: path, reason: "it has no page \(page) (it has \(pages.count))")
        }
        return try pages[page - 1].get()
    }

    /// Reads the header of the file at `path`.
    public func probe(path: String) throws(CodecError) -> ImageInfo {
        let reader = try FileReader(path: path, headBytes: 65536)
        guard reader.fileSize > 0 else { throw CodecError(.probe, path: path, reason: "file is empty") }
        let format: ImageFormat
        switch FileClaim.identify(FileSignature(head: reader.head, path: path)) {
        case .image(let claimed): format = claimed
        case .unread(let reason): throw CodecError(.probe, path: path, reason: reason.description)
        }
        return try withinLimit(format.codec.probe(reader, path: path), path: path, as: "image")
    }

    /// `info`, refused when its pixels are over the limit: "`what` is 40000x40000 pixels, over…".
    private func withinLimit(_ info: ImageInfo, path: String, as what: String) throws(CodecError) -> ImageInfo {
        guard let pixels = info.storedSize.area, pixels <= maxImagePixels else {
            throw CodecError(
                .probe, path: path,
                reason: "\(what) is \(info.storedSize) pixels, over the limit of \(maxImagePixels) "
                    + "pixels (--max-image-pixels)")
        }
        return info
    }
}
