import Testing
import WallCodecs
import WallCore
import WallFiles
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Bad input is reported, never fatal")
struct BadInputTests {
    let folder = TemporaryFolder()

    func probeError(_ path: String) -> CodecError? {
        do {
            _ = try ImageProbe().probe(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("format comes from the bytes, not the extension")
    func sniffing() throws {
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        let misnamed = folder.write(jpeg, to: "actually-a-jpeg.png")
        let info = try ImageProbe().probe(path: misnamed)
        #expect(info.format == .jpeg)
        #expect(info.storedSize == Size(width: 480, height: 320))
        let bare = folder.write(jpeg, to: "no-extension")
        #expect(try ImageProbe().probe(path: bare).format == .jpeg)
    }

    @Test("each kind of bad file names itself and the reason")
    func reasons() {
        let text = folder.write(Array("hello, I am text\n".utf8), to: "text.jpg")
        #expect(
            probeError(text)?.reason
                == "not an image ImageWall reads (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, RAW, video, BMP, "
                + "TGA, PSD, OpenEXR, DDS, QOI, PCX, SGI, PNM, XBM, XWD, FITS, JPEG 2000, JPEG-LS, SVG, PDF and "
                + "Radiance HDR)")
        #expect(probeError(text)?.message.hasPrefix(text + ": probe: ") == true)

        let empty = folder.write([], to: "empty.png")
        #expect(probeError(empty)?.reason == "file is empty")

        let gif = folder.write(Array("GIF89a".utf8) + [0, 0, 0, 0], to: "anim.gif")
        #expect(probeError(gif)?.reason.hasPrefix("corrupt GIF:") == true)

        // A damaged header of a format read through FFmpeg says what it is, named or not.
        var bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 60)
        bmp[10] = 54
        #expect(
            probeError(folder.write(bmp, to: "picture.bmp"))?.reason
                == "corrupt BMP: its header is not one BMP allows")
        #expect(
            probeError(folder.write(bmp, to: "no-extension"))?.reason
                == "corrupt BMP: its header is not one BMP allows")
        let jpeg2000: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x2F, 0x00, 0x00]
        #expect(
            probeError(folder.write(jpeg2000, to: "scan.j2k"))?.reason
                == "corrupt JPEG 2000: the file ends inside its SIZ marker")
        #expect(
            probeError(folder.write(Array("not a targa".utf8), to: "sprite.tga"))?.reason
                == "corrupt TGA: its first bytes are not those of a TGA file")
        // Images of formats ImageWall does not read say what they are.
        #expect(
            probeError(folder.write(Array("%!PS-Adobe-3.0 EPSF-3.0\n".utf8), to: "logo.eps"))?.reason
                == "EPS/PostScript is not a supported format")
        // A JPEG XL header cut after its signature names the format and the cut.
        let jxl: [UInt8] = [0xFF, 0x0A, 0xFA]
        #expect(
            probeError(folder.write(jxl, to: "photo.jxl"))?.reason
                == "truncated JPEG XL: the file ends inside its header")
        #expect(
            probeError(folder.write(Array("8BPS".utf8) + [0, 1, 0, 0], to: "art.psd"))?.reason
                == "corrupt PSD: the file ends inside its header")
        #expect(
            probeError(folder.write([0, 0, 1, 0, 1, 0, 16, 16], to: "app.ico"))?.reason
                == "ICO is not a supported format")
        #expect(
            probeError(folder.write(Array("<html><body>".utf8), to: "logo.svg"))?.reason
                == "corrupt SVG: its first bytes are not those of a SVG file")
        // RAW camera files are TIFF inside; their extension says what they are, and LibRaw why
        // one that is only a TIFF header cannot be read.
        let tiffHeader: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0]
        #expect(
            probeError(folder.write(tiffHeader, to: "IMG_0001.CR2"))?.reason.hasPrefix(
                "RAW camera file (CR2): a file LibRaw 0.20.2 cannot read") == true)
        #expect(
            probeError(folder.write(tiffHeader, to: "DSC_0001.nef"))?.reason.hasPrefix(
                "RAW camera file (NEF): a file LibRaw 0.20.2 cannot read") == true)

        mkdir(folder.file("folder.jpg"), 0o755)
        #expect(probeError(folder.file("folder.jpg"))?.reason.contains("directory") == true)
        rmdir(folder.file("folder.jpg"))

        #expect(probeError(folder.file("missing.jpg"))?.reason == "No such file or directory")

        symlink(folder.file("nowhere.jpg"), folder.file("dangling.jpg"))
        #expect(probeError(folder.file("dangling.jpg"))?.reason == "No such file or directory")
    }

    @Test("a truncated JPEG header is refused by probe")
    func truncatedHeader() {
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        let cut = folder.write(Array(jpeg.prefix(40)), to: "cut.jpg")
        #expect(probeError(cut)?.reason.contains("truncated JPEG") == true)
    }

    @Test("a JPEG cut in its image data decodes partially with libjpeg's warning")
    func truncatedData() throws {
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        let path = folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "half.jpg")
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.bitmap.size == Size(width: 480, height: 320))
        #expect(decoded.warnings.first?.contains("Premature end of JPEG file") == true)
        #expect(decoded.bitmap.pixel(x: 20, y: 20)[0] > 150)  // the red corner arrived
    }

    @Test("a PNG cut in its image data keeps the rows that arrived")
    func truncatedPNG() throws {
        let png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        let path = folder.write(Array(png.prefix(png.count / 2)), to: "half.png")
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.first?.contains("rows") == true)
        #expect(decoded.bitmap.pixel(x: 20, y: 20) == [204, 51, 51])
        #expect(decoded.bitmap.pixel(x: 210, y: 275) == [128, 128, 128])  // missing rows: grey
    }

    @Test("an interlaced PNG cut short keeps its completed passes, filled in")
    func truncatedInterlaced() throws {
        let png = Fixtures.read(Fixtures.sample("png-interlaced.png"))!
        let path = folder.write(Array(png.prefix(png.count * 2 / 3)), to: "part.png")
        let info = try ImageProbe().probe(path: path)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.first?.contains("interlace passes") == true)
        // Coarse but right: the red corner and the green corner are where they belong.
        let red = decoded.bitmap.mean(in: Rect(x: 8, y: 8, width: 40, height: 40))
        let green = decoded.bitmap.mean(in: Rect(x: 352, y: 8, width: 40, height: 40))
        #expect(red[0] > 180 && red[1] < 80)
        #expect(green[1] > 130 && green[0] < 80)
    }

    @Test("a checksum error in image data is an error; in an ancillary chunk, a warning")
    func checksums() throws {
        var png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        png[png.count - 13] ^= 0xFF  // last byte of the IDAT CRC
        let bad = folder.write(png, to: "crc.png")
        do {
            _ = try ImageDecoder().decode(path: bad, info: try ImageProbe().probe(path: bad))
            Issue.record("an IDAT CRC error was accepted")
        } catch {
            #expect(error.stage == .decode && error.reason == "corrupt PNG: IDAT: CRC error", "\(error)")
        }
        // A tEXt chunk with a wrong CRC, before the image data: libpng warns and goes on.
        let good = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        let text: [UInt8] = [0, 0, 0, 5] + Array("tEXtab\0cd".utf8) + [1, 2, 3, 4]
        let withText = Array(good[0..<33]) + text + Array(good[33...])
        let ancillary = folder.write(withText, to: "text-crc.png")
        let decoded = try ImageDecoder().decode(path: ancillary, info: try ImageProbe().probe(path: ancillary))
        #expect(decoded.warnings.first?.contains("CRC") == true)
        #expect(decoded.bitmap.pixel(x: 20, y: 20) == [204, 51, 51])
    }

    @Test("a PNG claiming 20000x20000 pixels is refused from its header")
    func bomb() {
        var ihdr: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        ihdr += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let path = folder.write(ihdr, to: "bomb.png")
        #expect(probeError(path)?.reason.contains("over the limit") == true)
    }
}
