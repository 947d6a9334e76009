import Testing
import WallCodecs
import WallCore
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Files whose headers claim far more pixels than their bytes can make.
private let stillBombs: [(String, [UInt8])] = {
    var bombs: [(String, [UInt8])] = []
    bombs.append(("psd-300000.psd", StillFormatTests.psdHeader(width: 300000, height: 300000)))
    bombs.append(
        ("psd-wide.psd", StillFormatTests.psdHeader(width: 30000, height: 8000) + [UInt8](repeating: 0x80, count: 1000))
    )
    var qoi: [UInt8] = Array("qoif".utf8) + StillFormatTests.be(16000, 4) + StillFormatTests.be(16000, 4)
    qoi += [4, 0] + [UInt8](repeating: 0xFE, count: 400)
    bombs.append(("huge.qoi", qoi))
    bombs.append(("huge.ppm", Array("P6\n16000 16000\n255\n".utf8) + [UInt8](repeating: 0, count: 100)))
    var bmp: [UInt8] =
        Array("BM".utf8) + StillFormatTests.le(154, 4) + StillFormatTests.le(0, 4) + StillFormatTests.le(54, 4)
    bmp +=
        StillFormatTests.le(40, 4) + StillFormatTests.le(16000, 4) + StillFormatTests.le(16000, 4)
        + StillFormatTests.le(1, 2) + StillFormatTests.le(24, 2) + StillFormatTests.le(0, 24)
    bombs.append(("huge.bmp", bmp + [UInt8](repeating: 0, count: 100)))
    // A DXT1 surface of 16384 px a side claiming 30 mipmap levels, with 4 KB of data.
    var dds: [UInt8] =
        Array("DDS ".utf8) + StillFormatTests.le(124, 4) + StillFormatTests.le(0xA_1007, 4)
        + StillFormatTests.le(16384, 4) + StillFormatTests.le(16384, 4)
    dds +=
        StillFormatTests.le(0, 8) + StillFormatTests.le(30, 4) + StillFormatTests.le(0, 44) + StillFormatTests.le(32, 4)
        + StillFormatTests.le(4, 4) + Array("DXT1".utf8) + StillFormatTests.le(0, 20)
    dds += StillFormatTests.le(0x40_1008, 4) + StillFormatTests.le(0, 16)
    bombs.append(("mips.dds", dds + [UInt8](repeating: 0, count: 4096)))
    var j2k: [UInt8] =
        [0xFF, 0x4F, 0xFF, 0x51] + StillFormatTests.be(41, 2) + StillFormatTests.be(0, 2)
        + StillFormatTests.be(16000, 4) + StillFormatTests.be(16000, 4)
    j2k +=
        StillFormatTests.be(0, 8) + StillFormatTests.be(16000, 4) + StillFormatTests.be(16000, 4)
        + StillFormatTests.be(0, 8) + StillFormatTests.be(1, 2) + [7, 1, 1, 0xFF, 0xD9]
    bombs.append(("huge.j2k", j2k))
    // Found by `make fuzz`: an X window dump whose width and bits a pixel (2³²−1 each) overflowed
    // the count of the bytes it claims.
    let xwd: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 5] + [UInt8](repeating: 0xFF, count: 100)
    bombs.append(("forged.xwd", xwd))
    return bombs
}()

/// The formats FFmpeg's image decoders read: headers read without decoding, bombs refused from
/// their headers, light encoded the same way everywhere, damage drawn and marked.
@Suite("Formats through FFmpeg")
struct StillFormatTests {
    let folder = TemporaryFolder()

    static func be(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 255) }
    }
    static func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 255) } }

    /// A PSD header claiming `width` x `height` RGB, with empty sections after it.
    static func psdHeader(width: Int, height: Int) -> [UInt8] {
        Array("8BPS".utf8) + be(1, 2) + [UInt8](repeating: 0, count: 6) + be(3, 2) + be(height, 4) + be(width, 4)
            + be(8, 2) + be(3, 2) + be(0, 12) + be(0, 2)
    }

    func probeError(_ bytes: [UInt8], _ name: String) -> String? {
        do {
            _ = try ImageProbe().probe(path: folder.write(bytes, to: name))
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a 30,000-pixel PSD is laid out from its 26-byte header, nothing decoded")
    func bigDocumentFromHeader() throws {
        // Sparse: the file is as long as a PackBits document of that size could be, but holds
        // only its header; the probe reads its first 64 KiB and no further.
        let path = folder.write(Self.psdHeader(width: 30000, height: 8000), to: "poster.psd")
        #expect(truncate(path, 30000 * 8000 * 3 / 64 + 4096) == 0)
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .psd && info.storedSize == Size(width: 30000, height: 8000))
        #expect(info.colorModel == .rgb && info.bitDepth == 8 && !info.hasAlpha)
    }

    @Test("files claiming pixels their bytes cannot make are refused from the header", arguments: stillBombs)
    func bombs(name: String, bytes: [UInt8]) {
        let reason = probeError(bytes, name)
        #expect(reason?.contains("cannot hold the") == true, "\(name): \(reason ?? "read")")
    }

    @Test("a PSD's fourth channel is its transparency only where a negative layer count says so")
    func psdTransparency() throws {
        // 2x2 RGB, red, with a fourth channel of zeros (a saved selection, or full transparency).
        func document(layers: [UInt8]) -> [UInt8] {
            var bytes = Array("8BPS".utf8) + Self.be(1, 2) + [UInt8](repeating: 0, count: 6) + Self.be(4, 2)
            bytes += Self.be(2, 4) + Self.be(2, 4) + Self.be(8, 2) + Self.be(3, 2) + Self.be(0, 4) + Self.be(0, 4)
            bytes += Self.be(layers.count, 4) + layers + Self.be(0, 2)
            return bytes + [255, 255, 255, 255] + [UInt8](repeating: 0, count: 12)
        }
        let selection = folder.write(document(layers: []), to: "selection.psd")
        let info = try ImageProbe().probe(path: selection)
        #expect(!info.hasAlpha && info.colorModel == .rgb)
        #expect(try ImageDecoder().decode(path: selection, info: info).bitmap.pixel(x: 1, y: 1) == [255, 0, 0])
        // Layer info of 2 bytes: a count of -1, which says the first extra channel is the transparency.
        let merged = folder.write(document(layers: Self.be(2, 4) + [0xFF, 0xFF]), to: "merged.psd")
        let transparent = try ImageProbe().probe(path: merged)
        #expect(transparent.hasAlpha && transparent.colorModel == .rgba)
        #expect(try ImageDecoder().decode(path: merged, info: transparent).bitmap.pixel(x: 1, y: 1)[3] == 0)
    }

    @Test("a PSD in CMYK, a PSB, a multi-part EXR and a FITS image kept in an extension are refused by name")
    func refusedByName() {
        var cmyk = Self.psdHeader(width: 4, height: 4)
        cmyk[25] = 4
        #expect(probeError(cmyk, "print.psd") == "PSD in CMYK is not supported")
        var psb = Self.psdHeader(width: 4, height: 4)
        psb[5] = 2
        #expect(probeError(psb, "big.psb") == "PSD large document (PSB) is not supported")
        let multipart: [UInt8] = [0x76, 0x2F, 0x31, 0x01] + Self.le(0x1002, 4) + [0]
        #expect(probeError(multipart, "shot.exr") == "OpenEXR multi-part file is not supported")
        let cards = [
            "SIMPLE  =                    T", "BITPIX  =                    8", "NAXIS   =                    0", "END",
        ]
        let fits = Array(cards.map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined().utf8)
        #expect(probeError(fits, "m13.fits") == "FITS data of other than two or three axes is not supported")
    }

    /// A PFM of one row of `values` (grey, "Pf", little-endian).
    func pfm(_ values: [Float]) -> String {
        var bytes = Array("Pf\n\(values.count) 1\n-1.0\n".utf8)
        for value in values { bytes += Self.le(Int(value.bitPattern), 4) }
        return folder.write(bytes, to: "row.pfm")
    }

    @Test("floating-point light is clipped and encoded as sRGB by comparisons, the same on every CPU")
    func linearLight() throws {
        // sRGB codes of linear light: 0.5 is 187.52 → 188; 0.0031308 (the curve's knee) 10.3 → 10;
        // 0.2140 is code 127.5 to four places, so just under and over it part the codes 127 and 128.
        let path = pfm([0.5, 0.0031308, 0.21404, 0.21405, 2.0, -1.0, .nan, 1.0])
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .pnm && info.colorModel == .gray && info.bitDepth == 32)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        let row = (0..<8).map { decoded.bitmap.pixel(x: $0, y: 0)[0] }
        #expect(row == [188, 10, 127, 128, 255, 0, 0, 255])
    }

    /// A 16-bit grey TGA (type 3, or 11 run-length coded in raw packets) of `width` x 4 pixels,
    /// top row first: grey rising along the row, the top two rows transparent.
    func writeGrayAlphaTGA(width: Int, rle: Bool) -> String {
        var bytes: [UInt8] = [0, 0, rle ? 11 : 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        bytes += Self.le(width, 2) + Self.le(4, 2) + [16, 0x28]
        for y in 0..<4 {
            if rle { bytes.append(UInt8(width - 1)) }  // one raw packet a row
            for x in 0..<width { bytes += [UInt8(x * 255 / (width - 1)), y < 2 ? 0 : 255] }
        }
        return folder.write(bytes, to: rle ? "la-rle.tga" : "la.tga")
    }

    @Test("a 16-bit grey TGA is grey and alpha, as Pillow reads it, never RGB555", arguments: [false, true])
    func grayAlphaTGA(rle: Bool) throws {
        let path = writeGrayAlphaTGA(width: 16, rle: rle)
        let info = try ImageProbe().probe(path: path)
        #expect(info.colorModel == .gray && info.hasAlpha)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty && decoded.bitmap.channels == 4)
        for x in [0, 5, 15] {
            let grey = UInt8(x * 255 / 15)
            #expect(decoded.bitmap.pixel(x: x, y: 0)[3] == 0)
            #expect(decoded.bitmap.pixel(x: x, y: 3) == [grey, grey, grey, 255])
        }
    }

    @Test("Pillow's 16-bit grey TGAs carry the grey of its 8-bit ones", arguments: ["bl_raw", "bl_rle", "tl_raw"])
    func pillowGrayAlphaTGA(kind: String) throws {
        guard let corpora = Fixtures.corpora else { return }
        let grayPath = corpora + "/formats/tga__common__200x32_l_bl_raw.tga"
        let pairPath = corpora + "/formats/tga__common__200x32_la_\(kind).tga"
        let gray = try ImageDecoder().decode(path: grayPath, info: try ImageProbe().probe(path: grayPath)).bitmap
        let pair = try ImageDecoder().decode(path: pairPath, info: try ImageProbe().probe(path: pairPath)).bitmap
        #expect(pair.size == gray.size && pair.channels == 4)
        var differing = 0
        var transparent = 0
        for y in 0..<gray.size.height {
            for x in 0..<gray.size.width {
                let p = pair.pixel(x: x, y: y)
                if p[3] == 0 { transparent += 1 }
                if p[3] > 0, p[0] != gray.pixel(x: x, y: y)[0] { differing += 1 }
            }
        }
        #expect(differing == 0 && transparent > 0, "\(differing) differ, \(transparent) transparent")
    }

    @Test("a PSD whose PackBits rows end in the no-op byte, as ImageMagick writes them, is drawn")
    func psdNoOpRuns() throws {
        // 4x2 RGB, PackBits: each row of each channel a run of four, then ImageMagick's no-op 128.
        let values: [[UInt8]] = [[200, 10], [20, 150], [30, 90]]  // per channel, per row
        var bytes = Self.psdHeader(width: 4, height: 2)
        bytes.removeLast(2)
        bytes += Self.be(1, 2)  // PackBits
        for _ in 0..<6 { bytes += Self.be(3, 2) }
        for channel in values { for value in channel { bytes += [253, value, 128] } }
        let path = folder.write(bytes, to: "im_rle.psd")
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.notes.contains { $0.contains("6 PackBits no-op bytes") }, "\(decoded.notes)")
        #expect(decoded.bitmap.pixel(x: 3, y: 0) == [200, 20, 30])
        #expect(decoded.bitmap.pixel(x: 0, y: 1) == [10, 150, 90])
        // The file itself is untouched.
        #expect(Fixtures.read(path) == bytes)
    }

    @Test("a BMP holding a PNG or a JPEG is refused for what it holds, not as 0 bits a pixel")
    func bmpHoldingPNG() {
        for (compression, kind) in [(5, "PNG"), (4, "JPEG")] {
            var bytes = Array("BM".utf8) + Self.le(14 + 40 + 8, 4) + Self.le(0, 4) + Self.le(54, 4)
            bytes += Self.le(40, 4) + Self.le(2, 4) + Self.le(2, 4) + Self.le(1, 2) + Self.le(0, 2)
            bytes += Self.le(compression, 4) + Self.le(8, 4) + [UInt8](repeating: 0, count: 16 + 8)
            #expect(
                probeError(bytes, "held.bmp")
                    == "BMP holding a \(kind) picture (compression \(compression)) is not supported")
        }
    }

    @Test("a FITS cube of three planes without CTYPE3 is drawn in colour, as libvips draws it")
    func fitsCubeWithoutType() throws {
        let cards = [
            "SIMPLE  =                    T", "BITPIX  =                    8", "NAXIS   =                    3",
            "NAXIS1  =                    2", "NAXIS2  =                    1", "NAXIS3  =                    3", "END",
        ]
        var bytes = Array(cards.map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined().utf8)
        bytes += [UInt8](repeating: 0x20, count: 2880 - bytes.count)
        bytes += [255, 0, 0, 255, 0, 128] + [UInt8](repeating: 0, count: 2874)  // red, green, blue planes
        let path = folder.write(bytes, to: "cube.fits")
        let info = try ImageProbe().probe(path: path)
        #expect(info.colorModel == .rgb)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty && decoded.bitmap.channels == 3)
        #expect(decoded.bitmap.pixel(x: 0, y: 0) == [255, 0, 0])
        #expect(decoded.bitmap.pixel(x: 1, y: 0) == [0, 255, 128])
    }

    @Test("a PFM of 8-bit codes, as Pillow writes one, is drawn as those codes; one mostly past white says so")
    func floatsOnAnotherScale() throws {
        let codes = pfm([0, 64, 128, 255])
        let decoded = try ImageDecoder().decode(path: codes, info: try ImageProbe().probe(path: codes))
        #expect((0..<4).map { decoded.bitmap.pixel(x: $0, y: 0)[0] } == [0, 64, 128, 255])
        #expect(decoded.warnings.isEmpty && decoded.notes.contains { $0.contains("8-bit codes") })
        let bright = pfm([1.5, 2.5, 3.5, 0.25])
        let clipped = try ImageDecoder().decode(path: bright, info: try ImageProbe().probe(path: bright))
        #expect(clipped.warnings.count == 1 && clipped.warnings[0].hasPrefix("HDR colour: 75 %"), "\(clipped.warnings)")
        #expect(!clipped.isDamaged)
    }

    @Test(
        "a BC5 surface is its red and green, blue 0 as Pillow shows it, not a normal map's rebuilt blue",
        arguments: ["bc5u.dds", "bc5_unorm.dds", "bc5s.dds"])
    func bc5(name: String) throws {
        guard let corpora = Fixtures.corpora else { return }
        let path = corpora + "/formats/" + name
        let info = try ImageProbe().probe(path: path)
        #expect(!info.hasAlpha)
        let bitmap = try ImageDecoder().decode(path: path, info: info).bitmap
        var blue = 0, redGreen = 0
        for y in stride(from: 0, to: bitmap.size.height, by: 7) {
            for x in stride(from: 0, to: bitmap.size.width, by: 7) {
                let pixel = bitmap.pixel(x: x, y: y)
                blue = max(blue, Int(pixel[2]))
                redGreen = max(redGreen, Int(pixel[0]) + Int(pixel[1]))
            }
        }
        #expect(blue == 0 && redGreen > 0)
    }

    @Test("an X bitmap written as C text is drawn, its bits least significant first")
    func xbm() throws {
        let text =
            "#define dots_width 16\n#define dots_height 2\nstatic unsigned char dots_bits[] = {\n"
            + "   0x01, 0x80, 0xff, 0x00 };\n"
        let path = folder.write(Array(text.utf8), to: "dots.xbm")
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .xbm && info.storedSize == Size(width: 16, height: 2) && info.colorModel == .bilevel)
        let bitmap = try ImageDecoder().decode(path: path, info: info).bitmap
        // A set bit is black (foreground), as X draws it.
        let first = (0..<16).map { bitmap.pixel(x: $0, y: 0)[0] }
        #expect(first == [0] + [UInt8](repeating: 255, count: 14) + [0])
        let second = (0..<16).map { bitmap.pixel(x: $0, y: 1)[0] }
        #expect(second == [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 255, count: 8))
    }

    @Test("JPEG 2000 is decoded at a reduced resolution level for a small tile")
    func jpeg2000Reduced() throws {
        let path = Fixtures.sample("jpeg2000-rgb.jp2")
        let info = try ImageProbe().probe(path: path)
        #expect(info.storedSize == Size(width: 480, height: 320))
        // 480 / 4 = 120 is twice a 60 px tile; 480 / 8 = 60 would not be.
        let target = Size(width: 60, height: 40)
        #expect(ImageDecoder().decodePlan(info: info, target: target).contains("reduced 2, box 1x1"))
        let decoded = try ImageDecoder().decode(path: path, info: info, target: target)
        #expect(decoded.bitmap.size == Size(width: 120, height: 80))
    }

    @Test("a file cut short is drawn as far as FFmpeg decodes it and marked, or refused with FFmpeg's reason")
    func cutShort() throws {
        // QOI's decoder draws what it has without a word: the missing end marker says it.
        let qoi = try #require(Fixtures.read(Fixtures.sample("qoi-rgba.qoi")))
        let cutQOI = folder.write(Array(qoi.prefix(qoi.count * 3 / 5)), to: "cut.qoi")
        let decoded = try ImageDecoder().decode(path: cutQOI, info: try ImageProbe().probe(path: cutQOI))
        #expect(decoded.isDamaged && decoded.warnings == ["QOI: cut short: no end marker"])
        #expect(decoded.bitmap.size == Size(width: 280, height: 320))
        // The top rows arrived: the red corner square is there.
        let corner = decoded.bitmap.pixel(x: 10, y: 10)
        #expect(corner[0] > 150 && corner[1] < 100 && corner[3] == 255, "\(corner)")
        // FFmpeg's BMP decoder refuses a file missing rows, and says how many bytes it lacks.
        let bmp = try #require(Fixtures.read(Fixtures.sample("bmp-rgb.bmp")))
        let cutBMP = folder.write(Array(bmp.prefix(bmp.count * 3 / 5)), to: "cut.bmp")
        let info = try ImageProbe().probe(path: cutBMP)
        #expect(throws: CodecError.self) { try ImageDecoder().decode(path: cutBMP, info: info) }
        do {
            _ = try ImageDecoder().decode(path: cutBMP, info: info)
        } catch {
            #expect(error.reason.hasPrefix("BMP: not enough data ("), "\(error.reason)")
        }
    }

    @Test("a file FFmpeg cannot decode is refused with FFmpeg's own reason")
    func ffmpegReason() throws {
        // A 2-bit BMP (4 colours), which FFmpeg's decoder does not read.
        var bytes = Array("BM".utf8) + Self.le(14 + 40 + 16 + 8, 4) + Self.le(0, 4) + Self.le(14 + 40 + 16, 4)
        bytes += Self.le(40, 4) + Self.le(4, 4) + Self.le(4, 4) + Self.le(1, 2) + Self.le(2, 2) + Self.le(0, 4)
        bytes += Self.le(8, 4) + Self.le(0, 8) + Self.le(4, 4) + Self.le(0, 4)
        bytes += [0, 0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0] + [UInt8](repeating: 0x1B, count: 8)
        let path = folder.write(bytes, to: "two-bit.bmp")
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .bmp && info.colorModel == .palette && info.bitDepth == 2)
        #expect(throws: CodecError.self) { try ImageDecoder().decode(path: path, info: info) }
        do {
            _ = try ImageDecoder().decode(path: path, info: info)
        } catch {
            #expect(error.reason == "BMP: depth 2 not supported", "\(error.reason)")
        }
    }
}
