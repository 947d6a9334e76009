import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

#if canImport(Glibc)
    import Glibc
#endif

/// The formats FFmpeg and OpenEXR read, converted to 8-bit a band of rows at a time and box-shrunk
/// as the rows arrive: the same bytes whatever the bands, and OpenEXR's own files (luminance-chroma,
/// display windows, damage) read as its library reads them.
@Suite("Stills converted in bands")
struct StillBandTests {
    let folder = TemporaryFolder()

    /// `path` decoded by `codec`, a band of `rows` rows at a time.
    func decode(_ codec: some ImageCodec, _ path: String, target: Size?) throws -> DecodedImage {
        let info = try ImageProbe().probe(path: path)
        let file = try #require(fopen(path, "rb"))
        defer { fclose(file) }
        return try codec.decode(file, path: path, info: info, target: target, decoder: ImageDecoder())
    }

    /// Samples of every kind of conversion: libswscale's packed (BMP) and planar (PSD) pictures and
    /// its 16-bit ones (SGI, PGM), floats by ImageWall's table (PFM), and OpenEXR's bands.
    static let samples = [
        "bmp-rgb.bmp", "psd-rgb.psd", "sgi-rgb-16bit.sgi", "pnm-gray-16bit.pgm", "pfm-linear.pfm", "tga-rgba.tga",
        "qoi-rgba.qoi", "dds-bgra.dds", "fits-rgb.fits", "exr-linear-alpha.exr",
    ]

    @Test("bands of any height give the bytes of one conversion of the whole picture", arguments: samples)
    func bandsAgree(name: String) throws {
        let path = Fixtures.sample(name)
        let info = try ImageProbe().probe(path: path)
        func codec(_ rows: Int) -> any ImageCodec {
            switch info.format {
            case .bmp: return StillCodec<BMPHeader>(bandRows: rows)
            case .psd: return StillCodec<PSDHeader>(bandRows: rows)
            case .sgi: return StillCodec<SGIHeader>(bandRows: rows)
            case .pnm: return StillCodec<PNMHeader>(bandRows: rows)
            case .tga: return StillCodec<TGAHeader>(bandRows: rows)
            case .qoi: return StillCodec<QOIHeader>(bandRows: rows)
            case .dds: return StillCodec<DDSHeader>(bandRows: rows)
            case .fits: return StillCodec<FITSHeader>(bandRows: rows)
            default:
                var exr = EXRCodec()
                exr.bandRows = rows
                return exr
            }
        }
        let target = Size(width: max(1, info.storedSize.width / 7), height: max(1, info.storedSize.height / 7))
        let whole = try decode(codec(Int.max), path, target: nil)
        #expect(whole.bitmap.size == info.storedSize)
        let shrunk = whole.bitmap.boxShrunk(target: target, margin: ImageDecoder().margin)
        for rows in [1, 7, 64] {
            let banded = try decode(codec(rows), path, target: nil)
            #expect(banded.bitmap == whole.bitmap, "\(rows) rows a band")
            #expect(banded.warnings == whole.warnings && banded.notes == whole.notes)
            let streamed = try decode(codec(rows), path, target: target)
            #expect(streamed.bitmap == shrunk, "\(rows) rows a band, shrunk as they arrive")
        }
    }

    /// An uncompressed scanline OpenEXR file of `width` x `height` half-float pixels whose
    /// channels (sorted by name, as the format keeps them) are each given by `sample(name, x, y)`
    /// where `sampling` (2 for chroma) divides both coordinates.
    static func exr(
        width: Int, height: Int, channels: [(name: String, sampling: Int)], displayWindow: (Int, Int, Int, Int)? = nil,
        sample: (String, Int, Int) -> Float
    ) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 255) } }
        func attribute(_ name: String, _ type: String, _ value: [UInt8]) -> [UInt8] {
            Array(name.utf8) + [0] + Array(type.utf8) + [0] + le(value.count, 4) + value
        }
        func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> [UInt8] {
            le(x0, 4) + le(y0, 4) + le(x1, 4) + le(y1, 4)
        }
        let sorted = channels.sorted { $0.name < $1.name }
        var list: [UInt8] = []
        for channel in sorted {
            list +=
                Array(channel.name.utf8) + [0] + le(1, 4) + [0, 0, 0, 0] + le(channel.sampling, 4)
                + le(channel.sampling, 4)
        }
        var bytes: [UInt8] = [0x76, 0x2F, 0x31, 0x01] + le(2, 4)
        bytes += attribute("channels", "chlist", list + [0])
        bytes += attribute("compression", "compression", [0])
        bytes += attribute("dataWindow", "box2i", box(0, 0, width - 1, height - 1))
        let display = displayWindow ?? (0, 0, width - 1, height - 1)
        bytes += attribute("displayWindow", "box2i", box(display.0, display.1, display.2, display.3))
        bytes += attribute("lineOrder", "lineOrder", [0])
        bytes += attribute("pixelAspectRatio", "float", le(Int(Float(1).bitPattern), 4))
        bytes += attribute("screenWindowCenter", "v2f", le(0, 8))
        bytes += attribute("screenWindowWidth", "float", le(Int(Float(1).bitPattern), 4))
        bytes.append(0)
        var chunks: [[UInt8]] = []
        for y in 0..<height {
            var data: [UInt8] = []
            for channel in sorted where y % channel.sampling == 0 {
                for x in stride(from: 0, to: width, by: channel.sampling) {
                    data += le(Int(Float16(sample(channel.name, x, y)).bitPattern), 2)
                }
            }
            chunks.append(le(y, 4) + le(data.count, 4) + data)
        }
        var offset = bytes.count + 8 * height
        for chunk in chunks {
            bytes += le(offset, 8)
            offset += chunk.count
        }
        return bytes + chunks.joined()
    }

    @Test("a luminance-chroma OpenEXR file, which FFmpeg refuses, is drawn in its colours")
    func luminanceChroma() throws {
        // Red on the left half, blue on the right, as luminance and chroma (Rec. 709 weights):
        // RY = (R - Y) / Y, BY = (B - Y) / Y, the chroma kept at half the resolution.
        let (width, height) = (128, 16)
        let weights: (Float, Float, Float) = (0.2126, 0.7152, 0.0722)
        let bytes = Self.exr(width: width, height: height, channels: [("Y", 1), ("RY", 2), ("BY", 2)]) { name, x, _ in
            let (r, g, b): (Float, Float, Float) = x < width / 2 ? (1, 0, 0) : (0, 0, 1)
            let luminance = weights.0 * r + weights.1 * g + weights.2 * b
            switch name {
            case "Y": return luminance
            case "RY": return (r - luminance) / luminance
            default: return (b - luminance) / luminance
            }
        }
        let path = folder.write(bytes, to: "yc.exr")
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .exr && info.storedSize == Size(width: width, height: height) && !info.hasAlpha)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        #expect(decoded.bitmap.size == Size(width: width, height: height))
        // Away from the edge between them (OpenEXR's chroma filter reaches 13 samples).
        for (x, expected) in [(8, [255, 0, 0]), (width - 9, [0, 0, 255])] {
            let pixel = decoded.bitmap.pixel(x: x, y: height / 2).map(Int.init)
            #expect(zip(pixel, expected).allSatisfy { abs($0 - $1) <= 3 }, "\(x): \(pixel)")
        }
    }

    @Test("the data window is placed within the display window; what lies outside it is not drawn")
    func displayWindow() throws {
        // A 16 x 8 grey ramp whose display window starts 4 pixels right and 2 down of its data.
        let bytes = Self.exr(width: 16, height: 8, channels: [("Y", 1)], displayWindow: (4, 2, 19, 9)) { _, x, _ in
            Float(x + 1) / 16
        }
        let path = folder.write(bytes, to: "window.exr")
        let info = try ImageProbe().probe(path: path)
        #expect(info.storedSize == Size(width: 16, height: 8))
        let decoded = try ImageDecoder().decode(path: path, info: info)
        // The display window's pixel (0, 0) is the data's (4, 2); past the data, black.
        let reference = try ImageDecoder().decode(
            path: folder.write(
                Self.exr(width: 16, height: 8, channels: [("Y", 1)]) { _, x, _ in Float(x + 1) / 16 }, to: "ramp.exr"),
            info: info)
        #expect(decoded.bitmap.pixel(x: 0, y: 0) == reference.bitmap.pixel(x: 4, y: 2))
        #expect(decoded.bitmap.pixel(x: 11, y: 5) == reference.bitmap.pixel(x: 15, y: 7))
        #expect(decoded.bitmap.pixel(x: 12, y: 0) == [0, 0, 0] && decoded.bitmap.pixel(x: 0, y: 6) == [0, 0, 0])
    }

    @Test("an OpenEXR file with a damaged chunk is drawn from the rest and marked")
    func damagedChunk() throws {
        let bytes = Self.exr(width: 32, height: 32, channels: [("B", 1), ("G", 1), ("R", 1)]) { name, x, y in
            name == "G" ? Float(x + y) / 64 : 0.25
        }
        // Row 20's chunk says it holds row 21.
        let chunk = 8 + 3 * 2 * 32, firstChunk = bytes.count - 32 * chunk
        var damaged = bytes
        damaged[firstChunk + 20 * chunk] = 21
        let cleanPath = folder.write(bytes, to: "clean.exr")
        let clean = try ImageDecoder().decode(path: cleanPath, info: try ImageProbe().probe(path: cleanPath))
        let path = folder.write(damaged, to: "damaged.exr")
        let decoded = try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path))
        #expect(decoded.isDamaged)
        #expect(
            decoded.warnings.count == 1 && decoded.warnings[0].hasPrefix("OpenEXR: damaged data met"),
            "\(decoded.warnings)")
        // The other rows are drawn as they are.
        #expect(decoded.bitmap.pixel(x: 5, y: 19) == clean.bitmap.pixel(x: 5, y: 19))
        #expect(decoded.bitmap.pixel(x: 5, y: 21) == clean.bitmap.pixel(x: 5, y: 21))
        #expect(decoded.bitmap.pixel(x: 5, y: 20) == [0, 0, 0])
    }

    @Test("OpenEXR's damaged files never crash, hang or exhaust memory: drawn and marked, or refused")
    func damagedCorpus() throws {
        guard let corpora = Fixtures.corpora else { return }
        let folderPath = corpora + "/formats"
        let names = (directoryEntries(at: folderPath) ?? []).map(\.name).sorted()
        for name in names where name.hasPrefix("openexr__Damaged__") && name.hasSuffix(".exr") {
            let path = folderPath + "/" + name
            guard let info = try? ImageProbe().probe(path: path) else { continue }
            guard
                let decoded = try? ImageDecoder().decode(path: path, info: info, target: Size(width: 100, height: 100))
            else { continue }
            #expect(decoded.bitmap.size.width <= info.storedSize.width)
        }
    }

    @Test("an 8K OpenEXR shrunk for an 800 px tile plans for bands, not for its whole frame")
    func plannedMemory() {
        let info = ImageInfo(
            format: .exr, storedSize: Size(width: 8192, height: 4608), colorModel: .rgb, bitDepth: 32, hasAlpha: false,
            isProgressive: false)
        let bytes = ImageDecoder().workingMemory(info: info, target: Size(width: 800, height: 450))
        #expect(bytes < 100 << 20, "\(bytes >> 20) MiB")
    }
}
