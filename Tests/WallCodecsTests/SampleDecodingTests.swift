import Testing
import WallCore
import WallSamples
import _WallTestSupport

@testable import WallCodecs

@Suite("SampleImages: probe and decode")
struct SampleDecodingTests {
    @Test("the generator's catalogue and SampleImages/ hold the same files")
    func catalogueMatchesFolder() {
        #expect(Fixtures.files(in: Fixtures.sampleImages) == SampleCatalog.all.map(\.fileName))
        #expect(SampleCatalog.all.count >= 24)
    }

    @Test("probe reads what the generator wrote", arguments: SampleCatalog.all)
    func probe(spec: SampleSpec) throws {
        let info = try ImageProbe().probe(path: Fixtures.sample(spec.fileName))
        #expect(info.storedSize == spec.probedStoredSize)
        #expect(info.displayedSize == spec.displayedSize)
        #expect(info.orientation == spec.probedOrientation)
        #expect(info.hasAlpha == spec.encoding.hasAlpha)
        switch spec.encoding {
        case .jpeg(let color, let subsampling, let progressive):
            #expect(info.format == .jpeg)
            #expect(info.isProgressive == progressive)
            #expect(info.bitDepth == 8)
            let expected: ColorModel = [.ycbcr: .ycbcr, .rgb: .rgb, .gray: .gray, .cmyk: .cmyk, .ycck: .ycck][color]!
            #expect(info.colorModel == expected)
            if color == .ycbcr { #expect(info.chromaSubsampling == subsampling) }
        case .png(let color, let depth, _, let interlaced):
            #expect(info.format == .png)
            #expect(info.isProgressive == interlaced)
            #expect(info.bitDepth == depth)
            let expected: ColorModel = [
                .gray: .gray, .grayAlpha: .grayAlpha, .rgb: .rgb, .rgba: .rgba, .palette: .palette,
            ][color]!
            #expect(info.colorModel == expected)
        case .heif(let av1, _, let thumbnail):
            #expect(info.format == (av1 ? .avif : .heif))
            #expect(info.colorModel == .ycbcr && info.bitDepth == 8 && !info.isProgressive)
            // The thumbnail keeps the picture's shape, its longest side as asked.
            #expect(info.reducedSizes?.map { max($0.width, $0.height) } == (thumbnail > 0 ? [thumbnail] : nil))
        case .webp(let lossless, let alpha, _):
            #expect(info.format == .webp)
            #expect(info.colorModel == (lossless ? (alpha ? .rgba : .rgb) : .ycbcr))
        case .tiff(let color, let depth, _, _, _):
            #expect(info.format == .tiff && info.bitDepth == depth)
            let expected: ColorModel = [.gray: .gray, .rgb: .rgb, .rgba: .rgba, .cmyk: .cmyk, .palette: .palette][
                color]!
            #expect(info.colorModel == expected)
        case .gif(_, let interlaced, _):
            #expect(info.format == .gif && info.colorModel == .palette && info.isProgressive == interlaced)
        case .jxl(_, let alpha):
            #expect(info.format == .jxl && info.colorModel == (alpha ? .rgba : .rgb) && info.bitDepth == 8)
        case .video:
            // 1.5 s of black and 2.5 s of the picture at 5 frames a second (whole frames: 4.2 s).
            #expect(
                info.format == .video && info.colorModel == .ycbcr && abs((info.duration ?? 0) - 4) < 0.3,
                "\(info.duration ?? 0)")
        case .ffmpegImage(let encoder, let pixelFormat, let alpha, _):
            let formats: [String: ImageFormat] = [
                "bmp": .bmp, "targa": .tga, "sgi": .sgi, "pcx": .pcx, "qoi": .qoi, "ppm": .pnm, "pgm": .pnm,
                "pfm": .pnm,
                "xwd": .xwd, "fits": .fits, "libopenjpeg": .jpeg2000, "jpegls": .jpegls, "exr": .exr,
            ]
            #expect(info.format == formats[encoder])
            let gray = pixelFormat.hasPrefix("gray")
            #expect(info.colorModel == (gray ? .gray : alpha ? .rgba : .rgb))
            let depth =
                pixelFormat.contains("f32") ? 32 : pixelFormat.contains("48") || pixelFormat.contains("16") ? 16 : 8
            #expect(info.bitDepth == depth)
        case .psd(let alpha):
            #expect(info.format == .psd && info.colorModel == (alpha ? .rgba : .rgb) && info.bitDepth == 8)
        case .dds:
            #expect(info.format == .dds && info.colorModel == .rgba)
        case .vector(let pdf):
            #expect(info.format == (pdf ? .pdf : .svg) && info.colorModel == (pdf ? .rgb : .rgba))
        case .xbm:
            #expect(info.format == .xbm && info.colorModel == .bilevel && info.bitDepth == 1)
        }
    }

    @Test("full-size decode is upright with the intended colours", arguments: SampleCatalog.all)
    func decode(spec: SampleSpec) throws {
        let path = Fixtures.sample(spec.fileName)
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.bitmap.size == spec.displayedSize)
        #expect(decoded.bitmap.alpha == (spec.encoding.hasAlpha ? .straight : .none))
        for spot in spec.spots {
            let pixel = decoded.bitmap.pixel(x: spot.x, y: spot.y)
            let alpha = pixel.count == 4 ? Int(pixel[3]) : 255
            #expect(abs(alpha - Int(spot.expected.alpha)) <= spec.tolerance, "\(spot): alpha \(alpha)")
            guard spot.expected.alpha > 0 else { continue }  // colour under alpha 0 is free
            let channels = [Int(spot.expected.red), Int(spot.expected.green), Int(spot.expected.blue)]
            for c in 0..<3 {
                #expect(abs(Int(pixel[c]) - channels[c]) <= spec.tolerance, "\(spot): got \(pixel)")
            }
        }
    }

    /// Samples whose format shrinks on load: JPEG (DCT scaling), non-interlaced PNG and TIFF
    /// (rows box-averaged as they arrive), still WebP (libwebp's scaler), HEIF with a thumbnail,
    /// the formats FFmpeg reads (box-averaged after decoding; JPEG 2000 at a reduced level).
    static let shrinking = SampleCatalog.all.filter { spec in
        switch spec.encoding {
        case .jpeg, .tiff, .jxl, .video, .ffmpegImage, .psd, .dds, .xbm: return true
        case .png(_, _, _, let interlaced): return !interlaced
        case .webp(_, _, let frames): return frames == 1
        case .heif(_, _, let thumbnail): return thumbnail > 0
        case .gif, .vector: return false
        }
    }

    @Test("shrink-on-load keeps at least twice the target and the orientation", arguments: shrinking)
    func shrinkOnLoad(spec: SampleSpec) throws {
        let path = Fixtures.sample(spec.fileName)
        let info = try ImageProbe().probe(path: path)
        let target = Size(width: max(1, spec.displayedSize.width / 8), height: max(1, spec.displayedSize.height / 8))
        let decoded = try ImageDecoder().decode(path: path, info: info, target: target)
        #expect(decoded.bitmap.size.width >= 2 * target.width && decoded.bitmap.size.height >= 2 * target.height)
        #expect(decoded.bitmap.size.width < spec.displayedSize.width)  // it did shrink
        // Corner colours survive at the reduced size, in the right places.
        let scale = Double(decoded.bitmap.size.width) / Double(spec.displayedSize.width)
        for spot in spec.spots.prefix(4) {
            let pixel = decoded.bitmap.pixel(x: Int(Double(spot.x) * scale), y: Int(Double(spot.y) * scale))
            let channels = [Int(spot.expected.red), Int(spot.expected.green), Int(spot.expected.blue)]
            for c in 0..<3 { #expect(abs(Int(pixel[c]) - channels[c]) <= 32, "\(spot): got \(pixel)") }
        }
    }

    /// The samples drawn as vectors.
    static let vectors = SampleCatalog.all.filter {
        if case .vector = $0.encoding { return true } else { return false }
    }

    @Test("a vector picture is drawn at the tile's size, its colours where they belong", arguments: vectors)
    func vectorAtTileSize(spec: SampleSpec) throws {
        let path = Fixtures.sample(spec.fileName)
        let info = try ImageProbe().probe(path: path)
        for target in [
            Size(width: spec.displayedSize.width / 3, height: spec.displayedSize.height / 3),
            Size(width: spec.displayedSize.width * 2, height: spec.displayedSize.height * 2),
        ] {
            let decoded = try ImageDecoder().decode(path: path, info: info, target: target)
            #expect(decoded.bitmap.size == target)
            let scale = Double(target.width) / Double(spec.displayedSize.width)
            for spot in spec.spots.prefix(4) {
                let pixel = decoded.bitmap.pixel(x: Int(Double(spot.x) * scale), y: Int(Double(spot.y) * scale))
                let channels = [Int(spot.expected.red), Int(spot.expected.green), Int(spot.expected.blue)]
                for c in 0..<3 { #expect(abs(Int(pixel[c]) - channels[c]) <= 3, "\(spot) at \(target): got \(pixel)") }
            }
        }
    }

    @Test("libjpeg scale choice follows the factor-of-two rule")
    func scaleChoice() {
        let stored = Size(width: 4000, height: 3000)
        // 1/8 gives 500x375: enough for 250x187, not for 251 wide or 188 high.
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 250, height: 187)) == 1)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 251, height: 187)) == 2)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 250, height: 188)) == 2)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 1000, height: 750)) == 4)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 1001, height: 750)) == 8)
        #expect(JPEGCodec.scaleNumerator(stored: stored, target: Size(width: 8000, height: 6000)) == 8)
    }
}
