import Testing
import WallCodecs

/// Files claimed by their bytes and their names, in priority order, and the typed reason a
/// file is not read.
@Suite("Claiming files")
struct FileClaimTests {
    static let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]

    func claim(_ head: [UInt8], _ path: String) -> FileClaim {
        FileClaim.identify(FileSignature(head: head, path: path))
    }

    @Test("a RAW camera file is claimed by the RAW codec, by its name, ahead of the TIFF codec its bytes would go to")
    func rawAheadOfTIFF() {
        #expect(claim(Self.tiff, "shots/DSC_0001.NEF") == .image(.raw))
        #expect(claim(Self.tiff, "a/b.dng") == .image(.raw))
        #expect(claim(Self.jpeg, "x.cr2") == .image(.raw))
        // The same bytes under a TIFF's name, or none, are the TIFF codec's.
        #expect(claim(Self.tiff, "scan.tif") == .image(.tiff))
        #expect(claim(Self.tiff, "scan") == .image(.tiff))
        // A folder's name is no extension.
        #expect(claim(Self.tiff, "photos.nef/scan") == .image(.tiff))
    }

    @Test("formats FFmpeg reads are claimed by their bytes, ahead of JPEG for JPEG-LS; TGA and PCX by name and header")
    func stills() {
        #expect(claim([0xFF, 0x4F, 0xFF, 0x51], "a.j2k") == .image(.jpeg2000))
        #expect(claim(Array("8BPS".utf8) + [0, 1], "layers") == .image(.psd))
        #expect(claim(Array("qoif".utf8), "x.png") == .image(.qoi))
        #expect(claim(Array("P6\n640 480\n255\n".utf8), "frame") == .image(.pnm))
        #expect(claim(Array("Pf\n4 4\n-1.0\n".utf8), "depth.pfm") == .image(.pnm))
        // A JPEG-LS frame marker (SOF55) after the start of image, past an APP0 segment.
        let jpegLS: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xF7, 0, 11, 8, 0, 16, 0, 16, 1]
        #expect(claim(jpegLS, "scan.jls") == .image(.jpegls))
        #expect(claim(Self.jpeg + [0xFF, 0xC0], "photo.jpg") == .image(.jpeg))
        // Uncompressed true-colour TGA: plausible under its name, nothing without it.
        var tga = [UInt8](repeating: 0, count: 18)
        tga[2] = 2
        tga[12] = 64
        tga[14] = 32
        tga[16] = 24
        #expect(claim(tga, "sprite.tga") == .image(.tga))
        #expect(claim(tga, "sprite") == .unread(.notAnImage))
        // An X bitmap by its defines and its bits; a C header's defines alone are not one.
        let xbm = "#define dot_width 8\n#define dot_height 1\nstatic char dot_bits[] = { 0x01 };\n"
        #expect(claim(Array(xbm.utf8), "dot") == .image(.xbm))
        #expect(
            claim(Array("#define MAX_width 10\n#define MAX_height 20\nint x;\n".utf8), "config.h")
                == .unread(.notAnImage))
        // SVG by its root element (not HTML with an inline one), PDF by its header.
        let svg = "<?xml version=\"1.0\"?>\n<!-- logo -->\n<!DOCTYPE svg [<!ENTITY a \"b\">]>\n<svg width=\"1\"/>"
        #expect(claim(Array(svg.utf8), "logo") == .image(.svg))
        #expect(claim(Array("<html><svg/></html>".utf8), "page.html") == .unread(.notAnImage))
        #expect(claim(Array("%PDF-1.7\n".utf8), "poster.ai") == .image(.pdf))
        #expect(claim([0x1F, 0x8B, 8, 0], "icon.svgz") == .image(.svg))
    }

    @Test("signatures are read before extensions: a JPEG named .png is a JPEG")
    func bytesFirst() {
        #expect(claim(Self.jpeg, "odd.png") == .image(.jpeg))
        #expect(claim(Array("GIF89a".utf8) + [1, 0, 1, 0], "x.jpg") == .image(.gif))
    }

    @Test(
        "a file no codec reads gets a typed reason, and only a non-image is not one",
        arguments: [
            (
                Array("BM".utf8) + [UInt8](repeating: 0, count: 20), "a.bmp",
                UnreadReason.damaged(format: "BMP", what: "its header is not one BMP allows")
            ),
            (Array("%!PS-Adobe-3.0\n".utf8), "page", .unsupported(format: "EPS/PostScript")),
            (Array("P6 0".utf8), "a.ppm", .damaged(format: "PNM", what: "its first bytes are not those of a PNM file")),
            ([0x89, 0x50, 0x4E, 0x47, 0, 0], "a.png", .damaged(format: "PNG", what: "damaged signature")),
            ([0xFF, 0xD8, 0x00], "a.jpg", .damaged(format: "JPEG", what: "damaged start of image")),
            (
                Array("hello".utf8), "x.svg",
                .damaged(format: "SVG", what: "its first bytes are not those of a SVG file")
            ),
            (
                Array("hello".utf8), "x.hdr",
                .damaged(format: "Radiance HDR", what: "its first bytes are not those of a Radiance HDR file")
            ),
            (Array("hello".utf8), "notes.txt", .notAnImage),
        ])
    func unread(head: [UInt8], path: String, reason: UnreadReason) {
        #expect(claim(head, path) == .unread(reason))
        #expect(reason.isImage == (reason != .notAnImage))
    }

    @Test("the reasons read as the probe has always reported them")
    func reasonText() {
        #expect(UnreadReason.unsupported(format: "BMP").description == "BMP is not a supported format")
        #expect(
            UnreadReason.damaged(format: "PNG", what: "damaged signature").description
                == "corrupt PNG: damaged signature")
        #expect(UnreadReason.notAnImage.description.hasPrefix("not an image ImageWall reads (JPEG, PNG"))
    }
}
