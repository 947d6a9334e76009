import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// JPEG XL through libjxl, on files libjxl's own encoder (`cjxl`, from `make deps`) made from
/// the samples: lossy, lossless with alpha, grey, 16-bit, a recompressed JPEG, an EXIF
/// orientation; decoded pixels checked against libjxl's `djxl`.
@Suite("JPEG XL", .enabled(if: JXLFiles.cjxl != nil))
struct JXLTests {
    /// Encodes `source` with `cjxl` and `arguments` into `folder`.
    static func encode(_ source: String, _ name: String, in folder: TemporaryFolder, _ arguments: [String]) throws
        -> String
    {
        let path = folder.file(name)
        let run = try Fixtures.run(JXLFiles.cjxl!, [source, path] + arguments)
        #expect(run.status == 0, "cjxl \(name): \(run.errors)")
        return path
    }

    /// What libjxl's own decoder makes of `path` (upright, as djxl turns it), read back.
    static func reference(_ path: String, in folder: TemporaryFolder) throws -> Bitmap {
        let png = folder.file(UUID().uuidString + ".png")
        let run = try Fixtures.run(JXLFiles.djxl!, [path, png])
        #expect(run.status == 0, "djxl: \(run.errors)")
        return try ImageDecoder().decode(path: png, info: ImageProbe().probe(path: png)).bitmap
    }

    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        precondition(a.size == b.size)
        var largest = 0
        for y in 0..<a.size.height {
            for x in 0..<a.size.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for c in 0..<3 { largest = max(largest, abs(Int(p[c]) - Int(q[c]))) }
            }
        }
        return largest
    }

    @Test("each kind is probed from its header and decoded as libjxl's own decoder does")
    func everyKind() throws {
        let folder = TemporaryFolder()
        let kinds: [(name: String, source: String, arguments: [String], model: ColorModel, bits: Int)] = [
            ("lossy.jxl", "landscape-baseline-420.jpg", ["--lossless_jpeg=0", "-d", "1"], .rgb, 8),
            ("recompressed.jxl", "landscape-baseline-420.jpg", [], .rgb, 8),
            ("lossless-alpha.jxl", "png-rgba.png", ["-d", "0"], .rgba, 8),
            ("gray.jxl", "png-gray.png", ["-d", "1"], .gray, 8),
            ("deep.jxl", "png-rgb-16bit.png", ["-d", "0"], .rgb, 16),
            ("turned.jxl", "orientation-6.jpg", [], .rgb, 8),
        ]
        for kind in kinds {
            let path = try Self.encode(Fixtures.sample(kind.source), kind.name, in: folder, kind.arguments)
            let info = try ImageProbe().probe(path: path)
            let source = try ImageProbe().probe(path: Fixtures.sample(kind.source))
            #expect(info.format == .jxl && info.displayedSize == source.displayedSize, "\(kind.name)")
            #expect(info.colorModel == kind.model && info.bitDepth == kind.bits, "\(kind.name): \(info)")
            #expect(info.orientation == source.orientation, "\(kind.name)")
            let decoded = try ImageDecoder().decode(path: path, info: info)
            #expect(decoded.warnings.isEmpty, "\(kind.name): \(decoded.warnings)")
            let reference = try Self.reference(path, in: folder)
            #expect(decoded.bitmap.size == reference.size, "\(kind.name)")
            let difference = Self.largestDifference(decoded.bitmap, reference)
            #expect(difference <= 2, "\(kind.name): differs from djxl by \(difference)")
        }
    }

    @Test("a decode for a small tile is the box average of the whole picture, shrunk as rows arrive")
    func shrunkOnLoad() throws {
        let folder = TemporaryFolder()
        let path = try Self.encode(Fixtures.sample("png-rgb.png"), "a.jxl", in: folder, ["-d", "0"])
        let info = try ImageProbe().probe(path: path)
        let whole = try ImageDecoder().decode(path: path, info: info).bitmap
        let small = try ImageDecoder().decode(path: path, info: info, target: Size(width: 70, height: 46))
        // 420x280 for a 70x46 tile: shrunk 3 times (each side stays at least twice the tile's).
        #expect(small.bitmap.size == Size(width: 140, height: 94))
        #expect(ImageDecoder().decodePlan(info: info, target: Size(width: 70, height: 46)).contains("shrink 3"))
        var largest = 0
        for y in 0..<small.bitmap.size.height {
            for x in 0..<small.bitmap.size.width {
                let p = small.bitmap.pixel(x: x, y: y)
                for c in 0..<3 {
                    var sum = 0, count = 0
                    for sy in 3 * y..<min(3 * y + 3, 280) {
                        for sx in 3 * x..<min(3 * x + 3, 420) {
                            sum += Int(whole.pixel(x: sx, y: sy)[c])
                            count += 1
                        }
                    }
                    largest = max(largest, abs(Int(p[c]) - (sum + count / 2) / count))
                }
            }
        }
        #expect(largest <= 1, "\(largest)")
    }

    @Test("a 24 MP file drawn on a small tile holds no full-size bitmap: its rows are shrunk as libjxl gives them")
    func boundedMemory() throws {
        let folder = TemporaryFolder()
        let source = folder.file("big.png")
        let made = try Fixtures.run(
            VideoClips.ffmpeg ?? "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=6000x4000:rate=1", "-frames:v", "1", source])
        try #require(made.status == 0, "\(made.errors)")
        let path = try Self.encode(source, "big.jxl", in: folder, ["-d", "2", "-e", "3"])
        func peak(width: Int) -> Double {
            let run = MeasuredRun(
                Fixtures.binary,
                [
                    "render", path, "-o", folder.file("sheet.png"), "--width", "\(width)", "--padding", "0",
                    "--columns",
                    "1", "--no-cache", "-q",
                ])
            #expect(run.status == 0, "\(run.errors)")
            return run.peakMB ?? 0
        }
        // libjxl 0.7 itself holds about 15 bytes a pixel (360 MB here) whatever the output; the
        // whole picture at full size adds its 72 MB bitmap (and the sheet's), a small tile none.
        let small = peak(width: 400), whole = peak(width: 6000)
        #expect(small + 150 < whole, "\(small) MB for a 400 px tile, \(whole) MB at full size")
    }

    @Test("a file cut in its pixels is drawn as far as it decodes with a warning; one cut in its header is refused")
    func truncated() throws {
        let folder = TemporaryFolder()
        let path = try Self.encode(
            Fixtures.sample("landscape-baseline-420.jpg"), "a.jxl", in: folder, ["-d", "1", "--lossless_jpeg=0"])
        let bytes = try #require(Fixtures.read(path))
        let cut = folder.write(Array(bytes.prefix(bytes.count * 2 / 3)), to: "cut.jxl")
        let info = try ImageProbe().probe(path: cut)
        let decoded = try ImageDecoder().decode(path: cut, info: info)
        #expect(
            decoded.warnings.count == 1 && decoded.warnings[0].hasPrefix("truncated JPEG XL"), "\(decoded.warnings)")
        let headless = folder.write(Array(bytes.prefix(3)), to: "headless.jxl")
        #expect {
            try ImageProbe().probe(path: headless)
        } throws: { error in
            (error as? CodecError)?.reason == "truncated JPEG XL: the file ends inside its header"
        }
    }
}

/// libjxl's tools, installed by `make deps` (Debian's `libjxl-tools`).
enum JXLFiles {
    static let cjxl: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/cjxl") ? "/usr/bin/cjxl" : nil
    static let djxl: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/djxl") ? "/usr/bin/djxl" : nil
}
