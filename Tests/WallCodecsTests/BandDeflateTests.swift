import Foundation
import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

/// ImageWall's deflater, read back by zlib: every kind of input, bands joined into one stream,
/// the same bytes every time, and no larger than zlib's run-length deflate on a sheet's rows.
@Suite("ImageWall's deflater")
struct BandDeflateTests {
    /// Bytes of every kind a sheet's filtered rows hold: noise, runs of every length from 1 to
    /// 600 (past the longest match, 258), long runs of zeros, and a ramp.
    static func mixed(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var length = 1
        while bytes.count < count {
            state = state &* 1_103_515_245 &+ 12345
            switch state >> 30 {
            case 0:
                bytes += (0..<97).map { _ in
                    state = state &* 69069 &+ 1; return UInt8(state >> 24)
                }
            case 1: bytes += [UInt8](repeating: UInt8(truncatingIfNeeded: state >> 16), count: length)
            case 2: bytes += [UInt8](repeating: 0, count: 3000)
            default: bytes += (0..<300).map { UInt8($0 % 256) }
            }
            length = length % 600 + 1
        }
        return Array(bytes.prefix(count))
    }

    /// Noise that does not compress: seeded random bytes.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    func roundTrip(_ bytes: [UInt8], bands cuts: [Int]) -> Bool {
        var stream: [UInt8] = []
        var start = 0
        for (n, cut) in cuts.enumerated() {
            stream += bytes.withUnsafeBufferPointer {
                BandDeflate.deflate(UnsafeBufferPointer(rebasing: $0[start..<cut]), last: n == cuts.count - 1)
            }
            start = cut
        }
        return BandDeflate.inflate(stream, size: bytes.count) == bytes
    }

    @Test(
        "zlib inflates what it writes to the bytes given, at every size around a block's and a stored block's",
        arguments: [0, 1, 2, 5, 8, 9, 258, 259, 65_535, 65_536, 131_070, 131_071, 131_072, 400_000])
    func sizes(count: Int) {
        for seed: UInt32 in [1, 7] {
            let bytes = Self.mixed(count, seed: seed)
            #expect(roundTrip(bytes, bands: [count]), "\(count) bytes, seed \(seed)")
        }
        #expect(roundTrip([UInt8](repeating: 200, count: count), bands: [count]))
    }

    @Test("bands deflated apart join into one stream: each ends on a byte, none refers to the one before")
    func bands() {
        let bytes = Self.mixed(300_000, seed: 3)
        #expect(roundTrip(bytes, bands: [0, 1, 70_000, 70_000, 200_000, 300_000]))
        // A run across a band's edge is coded again after it: the second band never reaches back.
        let runs = [UInt8](repeating: 9, count: 1_000)
        #expect(roundTrip(runs, bands: [500, 1_000]))
        var rest: [UInt8] = []
        runs.withUnsafeBufferPointer {
            rest = BandDeflate.deflate(UnsafeBufferPointer(rebasing: $0[500...]), last: true)
        }
        #expect(BandDeflate.inflate(rest, size: 500) == Array(runs[500...]))
    }

    @Test("the plain code and the BMI2 version write the same bytes (this CPU's choice against the plain)")
    func versions() {
        let inputs =
            [0, 1, 9, 258, 65_536, 131_071, 131_072, 400_000].enumerated().flatMap { n, count in
                [Self.mixed(count, seed: UInt32(n + 11)), [UInt8](repeating: 200, count: count)]
            } + [Self.noise(150_000, seed: 5)]
        for bytes in inputs {
            for last in [false, true] {
                let chosen = bytes.withUnsafeBufferPointer { BandDeflate.deflate($0, last: last) }
                let plain = bytes.withUnsafeBufferPointer { BandDeflate.deflatePlain($0, last: last) }
                #expect(chosen == plain, "\(bytes.count) bytes, BMI2 \(BandDeflate.usesBMI2)")
                if last { #expect(BandDeflate.inflate(plain, size: bytes.count) == bytes) }
            }
        }
    }

    @Test("noise that does not compress is stored: at most 5 bytes a 64 KB more than it is")
    func incompressible() {
        let noise = Self.noise(200_000, seed: 88)
        let stream = noise.withUnsafeBufferPointer { BandDeflate.deflate($0, last: true) }
        #expect(stream.count <= noise.count + 5 * (noise.count / 65_535 + 1) + 2)
        #expect(BandDeflate.inflate(stream, size: noise.count) == noise)
        // Broken streams are refused by the reference reader, not taken for the bytes.
        #expect(BandDeflate.inflate(Array(stream.dropLast(10)), size: noise.count) == nil)
        #expect(BandDeflate.inflate(stream, size: noise.count - 1) == nil)
    }

    @Test("the same bytes every time; no larger than zlib's run-length deflate on a sheet's filtered rows")
    func sheet() throws {
        // SampleImages' sheet as rows a sheet encoder filters (Paeth), in bands of 16 rows.
        let path = Fixtures.sample("landscape-baseline-420.jpg")
        let picture = try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path)).bitmap
        let rowBytes = picture.size.width * 3
        var fast = 0, zlib = 0
        var streams: [[UInt8]] = []
        for top in stride(from: 0, to: picture.size.height, by: 16) {
            let count = min(16, picture.size.height - top)
            let last = top + count == picture.size.height
            let rows = picture.pixels.withUnsafeBufferPointer {
                UnsafeBufferPointer(rebasing: $0[(top * rowBytes)..<((top + count) * rowBytes)])
            }
            let own = try PNGSegment(
                rows: rows, stride: rowBytes, count: count, width: picture.size.width, channels: 3, filter: .paeth,
                compression: .own, last: last)
            let again = try PNGSegment(
                rows: rows, stride: rowBytes, count: count, width: picture.size.width, channels: 3, filter: .paeth,
                compression: .own, last: last)
            let rle = try PNGSegment(
                rows: rows, stride: rowBytes, count: count, width: picture.size.width, channels: 3, filter: .paeth,
                compression: .runLength, last: last)
            #expect(own == again)
            #expect(own.adler == rle.adler && own.filteredSize == rle.filteredSize)
            streams.append(own.deflated)
            fast += own.deflated.count
            zlib += rle.deflated.count
        }
        #expect(fast <= zlib * 105 / 100, "\(fast) bytes against zlib's \(zlib)")
        #expect(streams.count > 1)
    }
}
