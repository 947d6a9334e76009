import Foundation
import Testing
import WallCore
import WallFiles
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
        "a PNG written in bands, with every filter and deflater, reads back to the rows it was given, whole and band by band",
        arguments: PNGFilter.allCases,
        [(3, PNGCompression.runLength), (4, .runLength), (3, .own), (4, .own), (3, .deflate(level: 6))])
    func roundTrip(filter: PNGFilter, setting: (channels: Int, compression: PNGCompression)) throws {
        let (channels, compression) = setting
        let size = Size(width: 37, height: 50)
        let pixels = Self.rows(width: size.width, height: size.height, channels: channels)
        let path = folder.file("bands-\(filter)-\(channels)-\(compression).png")
        let file = try AtomicFile(destination: path)
        let writer = try PNGSegmentWriter(
            file: file, size: size, hasAlpha: channels == 4, compression: compression, software: "test", bandHeight: 7)
        let rowBytes = size.width * channels
        // Bands of 7 rows, the last one short.
        for top in stride(from: 0, to: size.height, by: 7) {
            let count = min(7, size.height - top)
            let segment = try pixels.withUnsafeBufferPointer { all in
                try PNGSegment(
                    rows: UnsafeBufferPointer(rebasing: all[(top * rowBytes)..<((top + count) * rowBytes)]),
                    stride: rowBytes,
                    count: count, width: size.width, channels: channels, filter: filter, compression: compression,
                    last: top + count == size.height)
            }
            try writer.append(segment)
        }
        try writer.finish()
        try file.commit()
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.bitmap.pixels == pixels)
        // Each band alone: its first row's filter does not read the row above.
        let bands = try #require(PNGBands(path: path))
        #expect(bands.bandCount == 8 && bands.bandHeight == 7)
        for band in 0..<bands.bandCount {
            let rows = bands.rows(ofBand: band)
            var alone = [UInt8](repeating: 0, count: rows.count * rowBytes)
            try alone.withUnsafeMutableBufferPointer { try bands.decode(band: band, into: $0) }
            #expect(alone[...] == pixels[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes], "band \(band)")
        }
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
        "the segments' Adler-32 values combine to the whole stream's, whatever the band height: zlib, checking it, inflates the image data",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")), arguments: [1, 5, 16, 50])
    func adlerCombines(band: Int) throws {
        let size = Size(width: 20, height: 50)
        let pixels = Self.rows(width: size.width, height: size.height, channels: 3)
        let rowBytes = size.width * 3
        let path = folder.file("adler-\(band).png")
        let file = try AtomicFile(destination: path)
        let writer = try PNGSegmentWriter(
            file: file, size: size, hasAlpha: false, compression: .runLength, software: nil, bandHeight: band)
        for top in stride(from: 0, to: size.height, by: band) {
            let count = min(band, size.height - top)
            try writer.append(
                pixels.withUnsafeBufferPointer { all in
                    try PNGSegment(
                        rows: UnsafeBufferPointer(rebasing: all[(top * rowBytes)..<((top + count) * rowBytes)]),
                        stride: rowBytes, count: count, width: size.width, channels: 3, filter: .paeth,
                        compression: .runLength, last: top + count == size.height)
                })
        }
        try writer.finish()
        try file.commit()
        let script = """
            import struct, sys, zlib
            data, at, idat = open(sys.argv[1], "rb").read(), 8, b""
            while at < len(data):
                length, kind = struct.unpack(">I4s", data[at:at + 8])
                idat += data[at + 8:at + 8 + length] if kind == b"IDAT" else b""
                at += 12 + length
            print(len(zlib.decompress(idat)))
            """
        let run = try Fixtures.run("/usr/bin/python3", ["-c", script, path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(String(decoding: run.output, as: UTF8.self) == "\((rowBytes + 1) * size.height)\n")
    }
}
