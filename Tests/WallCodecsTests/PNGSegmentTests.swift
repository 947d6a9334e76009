import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

@Suite("PNG in segments")
struct PNGSegmentTests {
    let folder = TemporaryFolder()

    /// Rows of noise and ramps, `channels` bytes a pixel.
    static func rows(width: Int, height: Int, channels: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<(width * height * channels)).map { i in
            state = state &* 1_103_515_245 &+ 12345
            return i % 7 == 0 ? UInt8(state >> 24) : UInt8((i / channels) % 251)
        }
    }

    @Test(
        "a PNG written in bands, with every filter, reads back to the rows it was given",
        arguments: PNGFilter.allCases, [3, 4])
    func roundTrip(filter: PNGFilter, channels: Int) throws {
        let size = Size(width: 37, height: 50)
        let pixels = Self.rows(width: size.width, height: size.height, channels: channels)
        let path = folder.file("bands-\(filter)-\(channels).png")
        let file = try AtomicFile(destination: path)
        let writer = try PNGSegmentWriter(
            file: file, size: size, hasAlpha: channels == 4, compression: .runLength, software: "test")
        let rowBytes = size.width * channels
        // Bands of 7 rows, the last one short.
        for top in stride(from: 0, to: size.height, by: 7) {
            let count = min(7, size.height - top)
            let segment = try pixels.withUnsafeBufferPointer { all in
                try PNGSegment(
                    rows: UnsafeBufferPointer(rebasing: all[(top * rowBytes)..<((top + count) * rowBytes)]),
                    stride: rowBytes,
                    count: count, width: size.width, channels: channels,
                    rowAbove: top == 0
                        ? nil : UnsafeBufferPointer(rebasing: all[((top - 1) * rowBytes)..<(top * rowBytes)]),
                    filter: filter, compression: .runLength, last: top + count == size.height)
            }
            try writer.append(segment)
        }
        try writer.finish()
        try file.commit()
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.bitmap.pixels == pixels)
    }

    @Test("a whole PNG written with each filter uses it: five different files, the same pixels")
    func wholeImageFilters() throws {
        let size = Size(width: 64, height: 48)
        let pixels = Self.rows(width: size.width, height: size.height, channels: 3)
        let bitmap = Bitmap(size: size, alpha: .none, pixels: pixels)
        var files: Set<[UInt8]> = []
        for filter in PNGFilter.allCases where filter != .adaptive {
            let path = folder.file("whole-\(filter).png")
            try PNGEncoder.write(bitmap, to: path, compression: .deflate(level: 6), filter: filter, durable: false)
            files.insert(try #require(Fixtures.read(path)))
            let decoded = try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path))
            #expect(decoded.bitmap.pixels == pixels, "\(filter)")
        }
        #expect(files.count == 5)
    }

    @Test(
        "the segments' Adler-32 values combine to the whole stream's, whatever the band height",
        arguments: [1, 5, 16, 50])
    func adlerCombines(band: Int) throws {
        let size = Size(width: 20, height: 50)
        let pixels = Self.rows(width: size.width, height: size.height, channels: 3)
        let rowBytes = size.width * 3
        let whole = try pixels.withUnsafeBufferPointer { all in
            try PNGSegment(
                rows: all, stride: rowBytes, count: size.height, width: size.width, channels: 3, rowAbove: nil,
                filter: .paeth,
                compression: .runLength, last: true)
        }
        var combined: UInt32 = 1
        var total = 0
        for top in stride(from: 0, to: size.height, by: band) {
            let count = min(band, size.height - top)
            let segment = try pixels.withUnsafeBufferPointer { all in
                try PNGSegment(
                    rows: UnsafeBufferPointer(rebasing: all[(top * rowBytes)..<((top + count) * rowBytes)]),
                    stride: rowBytes,
                    count: count, width: size.width, channels: 3,
                    rowAbove: top == 0
                        ? nil : UnsafeBufferPointer(rebasing: all[((top - 1) * rowBytes)..<(top * rowBytes)]),
                    filter: .paeth, compression: .runLength, last: top + count == size.height)
            }
            combined = segment.adler(after: combined)
            total += segment.filteredSize
        }
        #expect(combined == whole.adler && total == whole.filteredSize)
    }
}
