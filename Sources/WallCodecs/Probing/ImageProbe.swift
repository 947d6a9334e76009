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

    /// Reads the header of page `page` (from 1) of the file at `path`, a file of several pages
    /// (``ImageInfo/pageCount``) drawn page by page.
    public func probe(path: String, page: Int) throws(CodecError) -> ImageInfo {
        let first = try probe(path: path)
        guard page != 1 || first.pageCount != nil else { return first }
        guard let count = first.pageCount, (1...count).contains(page) else {
            throw CodecError(
                .probe, path: path, reason: "it has no page \(page) (it has \(first.pageCount ?? 1))")
        }
        return try withinLimit(
            first.format.codec.probe(page: page, of: first, path: path), path: path, as: "page \(page)")
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
