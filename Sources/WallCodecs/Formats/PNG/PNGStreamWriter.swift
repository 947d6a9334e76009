import CPNGShim
import WallCore

/// Which PNG row filters the encoder may use.
public enum PNGFilter: String, Sendable, Codable, CaseIterable {
    /// libpng's default: tries every filter on each row and keeps the best guess (slow).
    case adaptive
    case none, sub, up, average, paeth

    /// libpng's PNG_FILTER_* mask, or -1 for its default.
    var mask: Int32 {
        switch self {
        case .adaptive: return -1
        case .none: return 0x08
        case .sub: return 0x10
        case .up: return 0x20
        case .average: return 0x40
        case .paeth: return 0x80
        }
    }
}

/// Writes an 8-bit RGB or RGBA PNG row by row, so the whole image never has to be in memory.
///
/// Output is deterministic: no time chunk, fixed zlib and filter settings.
public final class PNGStreamWriter {
    private let encoder: OpaquePointer
    private let path: String
    /// The image size.
    public let size: Size
    /// `true` for RGBA output.
    public let hasAlpha: Bool
    private var rowsWritten = 0

    /// Starts a PNG in `file`.
    /// - Parameters:
    ///   - compression: run-length or LZ77 deflate at a level.
    ///   - software: written as a `tEXt` Software chunk when given.
    public init(
        file: AtomicFile, size: Size, hasAlpha: Bool, compression: PNGCompression,
        filter: PNGFilter, software: String? = nil
    ) throws(CodecError) {
        guard let encoder = iw_png_encoder_create(file.handle) else {
            throw CodecError(.write, path: file.destination, reason: "out of memory")
        }
        self.encoder = encoder
        self.path = file.destination
        self.size = size
        self.hasAlpha = hasAlpha
        let status = (software ?? "").withCString { softwareText in
            var options = iw_png_encode_options()
            options.width = UInt32(size.width)
            options.height = UInt32(size.height)
            options.color_type = hasAlpha ? 6 : 2
            options.bit_depth = 8
            (options.compression_level, options.run_length) = compression.zlibSettings
            options.filters = filter.mask
            options.software = software == nil ? nil : softwareText
            return iw_png_write_header(encoder, &options)
        }
        guard status == 0 else { throw libraryError() }
    }

    deinit { iw_png_encoder_destroy(encoder) }

    private func libraryError() -> CodecError {
        CodecError(.write, path: path, reason: String(cString: iw_png_encoder_message(encoder)))
    }

    /// Appends `count` rows, `size.width × (hasAlpha ? 4 : 3)` bytes each, tightly packed.
    public func write(rows: UnsafeBufferPointer<UInt8>, count: Int) throws(CodecError) {
        let stride = size.width * (hasAlpha ? 4 : 3)
        precondition(rows.count >= stride * count && rowsWritten + count <= size.height)
        guard iw_png_write_rows(encoder, rows.baseAddress!, stride, UInt32(count)) == 0 else {
            throw libraryError()
        }
        rowsWritten += count
    }

    /// Ends the PNG after the last row.
    public func finish() throws(CodecError) {
        precondition(rowsWritten == size.height, "PNG finished with rows missing")
        guard iw_png_write_end(encoder) == 0 else { throw libraryError() }
    }
}
