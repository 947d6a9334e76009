import CPDFShim
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A PDF document written through libharu: pages of a size in points, each holding one
/// picture (a JPEG embedded as it is, or RGB pixels deflated), a header band above it (a
/// picture too, its text drawn as the sheet's is) and a footer line below it.
public final class PDFDocument {
    private let document: OpaquePointer

    /// One page: its size and what it holds, in points (1/72 in) from its top left corner.
    public struct Page {
        /// The picture: JPEG bytes, embedded as they are, or pixels (RGB), kept lossless.
        public enum Picture {
            /// A JPEG's bytes.
            case jpeg([UInt8])
            /// RGB pixels.
            case pixels(Bitmap)
        }

        /// The page's size.
        public var size: (width: Double, height: Double)
        /// What it shows.
        public var picture: Picture
        /// Where the picture goes.
        public var frame: (x: Double, y: Double, width: Double, height: Double)
        /// A band above the picture, as wide as it (RGB pixels, kept lossless), its top and
        /// height; none when `nil`.
        public var header: (band: Bitmap, top: Double, height: Double)?
        /// An ASCII line below the picture, centred, set in Helvetica.
        public var footer: String?
        /// The footer's size.
        public var fontSize: Double
        /// The footer's baseline, from the top.
        public var footerBaseline: Double

        /// A page of `size` holding `picture` in `frame`.
        public init(
            size: (width: Double, height: Double), picture: Picture,
            frame: (x: Double, y: Double, width: Double, height: Double),
            header: (band: Bitmap, top: Double, height: Double)?, footer: String?, fontSize: Double,
            footerBaseline: Double
        ) {
            (self.size, self.picture, self.frame) = (size, picture, frame)
            (self.header, self.footer, self.fontSize, self.footerBaseline) = (header, footer, fontSize, footerBaseline)
        }
    }

    /// A new document whose information names `title`, when there is one, and `producer` as
    /// the program that made it (else libharu names itself).
    public init(title: String?, producer: String? = nil) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 256)
        guard let created = iw_pdf_create(title, producer, &message, message.count) else {
            throw CodecError(.write, path: "PDF document", reason: message.text)
        }
        document = created
    }

    deinit { iw_pdf_destroy(document) }

    /// Adds `page` after the others.
    public func add(_ page: Page) throws(CodecError) {
        var spec = iw_pdf_page()
        (spec.width, spec.height) = page.size
        (spec.x, spec.y, spec.picture_width, spec.picture_height) = page.frame
        (spec.font_size, spec.footer_y) = (page.fontSize, page.footerBaseline)
        let header = page.header?.band ?? Bitmap(size: Size(width: 0, height: 0), alpha: .none)
        precondition(header.channels == 3)
        if let band = page.header {
            (spec.header_pixel_width, spec.header_pixel_height) = (
                UInt32(band.band.size.width), UInt32(band.band.size.height)
            )
            (spec.header_top, spec.header_height) = (band.top, band.height)
        }
        let status: Int32 = header.pixels.withUnsafeBufferPointer { headerRGB in
            spec.header_rgb = page.header == nil ? nil : headerRGB.baseAddress
            switch page.picture {
            case .jpeg(let bytes):
                return bytes.withUnsafeBufferPointer { jpeg in
                    spec.jpeg = jpeg.baseAddress
                    spec.jpeg_size = jpeg.count
                    return Self.add(document, &spec, page.footer)
                }
            case .pixels(let bitmap):
                precondition(bitmap.channels == 3)
                return bitmap.pixels.withUnsafeBufferPointer { rgb in
                    spec.rgb = rgb.baseAddress
                    (spec.pixel_width, spec.pixel_height) = (UInt32(bitmap.size.width), UInt32(bitmap.size.height))
                    return Self.add(document, &spec, page.footer)
                }
            }
        }
        guard status == 0 else {
            throw CodecError(.write, path: "PDF page", reason: String(cString: iw_pdf_message(document)))
        }
    }

    private static func add(_ document: OpaquePointer, _ spec: inout iw_pdf_page, _ footer: String?) -> Int32 {
        (footer ?? "").withCString { footer in
            spec.footer = footer
            return iw_pdf_add_page(document, &spec)
        }
    }

    /// Writes the document into `file`, not yet committed.
    public func write(into file: AtomicFile) throws(CodecError) {
        guard iw_pdf_write(document, file.handle) == 0 else {
            throw CodecError(.write, path: file.destination, reason: String(cString: iw_pdf_message(document)))
        }
    }
}

/// Bytes written through a `FILE` into memory (`open_memstream`), for libraries that write to
/// a stream.
public final class MemoryStream {
    /// The stream to write to, until ``bytes()``.
    public let handle: UnsafeMutablePointer<FILE>
    // Where the stream keeps its buffer and size: stable until it is closed.
    private let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
    private let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private var open = true

    /// An empty stream.
    public init() throws(CodecError) {
        buffer.initialize(to: nil)
        size.initialize(to: 0)
        guard let handle = open_memstream(buffer, size) else {
            buffer.deallocate()
            size.deallocate()
            throw CodecError(.write, path: "memory", reason: systemErrorText())
        }
        self.handle = handle
    }

    /// Closes the stream and returns what was written.
    public func bytes() -> [UInt8] {
        if open {
            fclose(handle)
            open = false
        }
        guard let start = buffer.pointee else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: size.pointee))
    }

    deinit {
        if open { fclose(handle) }
        free(buffer.pointee)
        buffer.deallocate()
        size.deallocate()
    }
}
