import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Finished cells of one batch variant, parked in an anonymous temporary file between
/// decoding and painting, so that no variant has to hold its tiles in memory.
final class TileSpill: @unchecked Sendable {
    private let descriptor: Int32
    private let offsets: [Int]
    private let sizes: [Size]
    let channels: Int

    /// A spill for cells of `sizes`, `channels` bytes a pixel.
    init(sizes: [Size], channels: Int) throws {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = (folder + "/imagewall-spill-XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw FileError(.write, path: "temporary spill file", reason: systemErrorText())
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }  // gone when closed
        descriptor = fd
        self.sizes = sizes
        self.channels = channels
        var offsets: [Int] = []
        var offset = 0
        for size in sizes {
            offsets.append(offset)
            offset += size.width * size.height * channels
        }
        self.offsets = offsets
    }

    deinit { close(descriptor) }

    func store(_ bitmap: Bitmap, at index: Int) throws {
        precondition(bitmap.channels == channels && bitmap.size == sizes[index])
        try bitmap.pixels.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = pwrite(
                    descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offsets[index] + done))
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else {
                    throw FileError(.write, path: "temporary spill file", reason: systemErrorText())
                }
                done += wrote
            }
        }
    }

    func load(_ index: Int) throws -> Bitmap {
        // Read whole, or not at all: the pixels are not cleared first.
        try Bitmap(size: sizes[index], alpha: channels == 4 ? .premultiplied : .none) { pixels in
            let bytes = UnsafeMutableRawBufferPointer(pixels)
            var done = 0
            while done < bytes.count {
                let got = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offsets[index] + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { throw FileError(.write, path: "temporary spill file", reason: "short read") }
                done += got
            }
        }
    }
}
