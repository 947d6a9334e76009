import CPNGShim
import WallCore

/// Decodes a non-interlaced 8-bit RGB or RGBA PNG pushed in pieces (as a ``PNGSegmentWriter``
/// makes it), handing each row on as libpng decodes it: a sheet's pixels from its compressed
/// rows, one row held at a time.
public final class PNGRowStream {
    private let decoder: OpaquePointer
    private let name: String
    private let sink: RowHandler
    private var started = false

    private final class RowHandler {
        let handle: (UnsafeBufferPointer<UInt8>) throws -> Void
        var width = 0
        var channels = 0
        var failure: (any Error)?
        init(_ handle: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) { self.handle = handle }
    }

    /// A stream for the PNG called `name` in errors, handing each row to `row` (RGB or RGBA,
    /// as stored; only valid during the call).
    public init(name: String, row: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) throws(CodecError) {
        guard let decoder = iw_png_decoder_create(0x7FFF_FFFF, 0x7FFF_FFFF) else {
            throw CodecError(.decode, path: name, reason: "out of memory")
        }
        self.decoder = decoder
        self.name = name
        sink = RowHandler(row)
    }

    deinit { iw_png_decoder_destroy(decoder) }

    /// Decodes `bytes`, the PNG's next piece, handing on the rows it completes.
    public func feed(_ bytes: [UInt8]) throws {
        let status = bytes.withUnsafeBytes { iw_png_feed(decoder, $0.baseAddress, $0.count) }
        try check(status)
        if !started && iw_png_header_ready(decoder) != 0 {
            started = true
            var header = iw_png_header()
            iw_png_get_header(decoder, &header)
            guard header.interlaced == 0, header.bit_depth == 8, header.channels == 3 || header.channels == 4 else {
                throw CodecError(.decode, path: name, reason: "not a sheet's PNG (8-bit RGB or RGBA, not interlaced)")
            }
            sink.width = Int(header.width)
            sink.channels = Int(header.channels)
            iw_png_set_row_sink(
                decoder,
                { context, row, _ in
                    guard let context, let row else { return }
                    let handler = Unmanaged<RowHandler>.fromOpaque(context).takeUnretainedValue()
                    guard handler.failure == nil else { return }
                    do {
                        try handler.handle(UnsafeBufferPointer(start: row, count: handler.width * handler.channels))
                    } catch {
                        handler.failure = error
                    }
                }, Unmanaged.passUnretained(sink).toOpaque())
            try check(iw_png_feed(decoder, nil, 0))  // the bytes held back at the header
        }
    }

    /// Whether the image data has ended.
    public var isFinished: Bool { iw_png_finished(decoder) != 0 }

    private func check(_ status: Int32) throws {
        if let failure = sink.failure { throw failure }
        guard status == 0 else {
            throw CodecError(.decode, path: name, reason: String(cString: iw_png_decoder_message(decoder)))
        }
    }
}
