import ImageWall
import Testing
import WallCodecs
import WallCore
import WallLayout
import _WallTestSupport

/// FNV-1a over a file's bytes: enough to notice any change in an output.
func digest(_ path: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in Fixtures.read(path) ?? [] {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16)
}

@Suite("One render sequence")
struct RenderPathTests {
    let folder = TemporaryFolder()

    func options(columns: Int = 4) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns) = (600, columns)
        var options = WallOptions(layout: layout)
        options.limits.threads = 2
        return options
    }

    @Test("a render, the same as a one-variant batch, and its manifest rendered again give the same bytes")
    func samePaths() throws {
        let wall = Wall(inputs: [Fixtures.sampleImages])
        try wall.render(to: folder.file("a.png"), manifest: folder.file("a.json"), options: options())
        try wall.render(variants: [(folder.file("b.png"), options())])
        try Wall.render(
            from: try Wall.readManifest(folder.file("a.json")), to: folder.file("c.png"), options: WallOptions())
        #expect(digest(folder.file("a.png")) == digest(folder.file("b.png")))
        #expect(digest(folder.file("a.png")) == digest(folder.file("c.png")))
    }

    /// Sheets pinned by their bytes: a change of the output that was not meant shows here. When
    /// output changes on purpose (a better resampler, another encoder setting), say so in the
    /// commit and update these.
    @Test("the sheets of SampleImages are pinned to their bytes")
    func pinned() throws {
        let wall = Wall(inputs: [Fixtures.sampleImages])
        // Sheets of the samples whose decoders give the same pixels on every CPU: the lossy
        // JPEG XL, which libjxl rounds otherwise from one CPU to another, is left out (it is
        // checked across CPUs with its allowance by `make check-portable`).
        func options(columns: Int = 4) -> WallOptions {
            var options = self.options(columns: columns)
            options.input.scan.exclude = ["jxl-lossy.jxl"]
            return options
        }
        let lossy = try ImageProbe().probe(path: Fixtures.sample("jxl-lossy.jxl"))
        #expect(lossy.inexactDecoder != nil, "the sample left out is the one inexact decoder's")
        try wall.render(to: folder.file("plain.png"), options: options())
        var captioned = options(columns: 3)
        captioned.layout.kind = .justified
        captioned.layout.rowHeight = 120
        captioned.layout.maxPageHeight = 700
        captioned.rendering.caption = try CaptionTemplate("{stem} {width}x{height}")
        captioned.rendering.title = "Samples"
        captioned.rendering.tile.linear = true
        try wall.render(to: folder.file("justified-{page}.png"), options: captioned)
        try wall.render(
            variants: [3, 6].map { columns in (folder.file("v\(columns).png"), options(columns: columns)) })
        let digests = ["plain.png", "justified-001.png", "justified-002.png", "v3.png", "v6.png"].map {
            digest(folder.file($0))
        }
        // Updated on purpose when SampleImages gained HEIF, AVIF, WebP, TIFF and GIF samples and
        // the default aspect limit cut the 4:1 panorama to 3:1, and again when the sheet became
        // a zlib stream in segments, one IDAT chunk a band (pixels unchanged). The one render
        // path itself was checked byte-identical against commit 80889ed before. v6 changed when
        // batch variants stopped resampling from each other: each is now its render alone. And
        // when SampleImages gained JPEG XL and video samples (the 44 earlier samples alone
        // still gave the digests before: e3ecf26b6e55fd64, f860bd01ed64dfc0, 318f6f7dd7f0912a,
        // af1c89b9fd215150, f776e25b37d5acfc). And when each band's first row stopped reading
        // the row above (none or sub), so that bands decode alone, and the iwBD chunk came to
        // say how high they are (pixels unchanged; before: 96ea1efb09a240cf, d94d323424766eba,
        // 60004d96d6d6bb6b, 6ccd6ebb433719e2, 8e1f903d798cd4b4). And the captioned pages when
        // text came to be shaped by HarfBuzz: the font's GPOS kerning rather than FreeType's
        // kern table moves a Latin glyph by a pixel here and there (before: ab84fa44f97f244c,
        // 61e3d003df1de885). And v6 when HEIF rows came to be box-averaged as libheif hands them
        // over: the AVIF with alpha is averaged premultiplied and given back straight before
        // the resample, one level apart on a few of its pixels (before: e02485bfa1d5a060). And
        // when the lossy JPEG XL was left out, its decoder not being exact across CPUs (with it:
        // c2c5a9354a38edd3, 9f564fef52e74512, 6305d860a7990ddc, b10a7fc466cf8a7a,
        // ee428f53b65b67d7 on an AVX-512 machine; another gave 30464233a3c0022c for the first).
        // And when SampleImages gained a sample of each format FFmpeg reads (BMP, TGA, PSD, OpenEXR,
        // DDS, QOI, PCX, SGI, PNM, PFM, XWD, FITS, JPEG 2000, JPEG-LS): the 49 earlier samples alone
        // still give the digests before (d594d2559cdf03d7, ca2227b04920256e, e83bda7007cf71b7,
        // d82efa40d69aebf7, 6e9832f5e8717699). And when it gained an SVG and a PDF drawn as vectors
        // (the 64 before them alone: 755eee0b5ae87323, f7615eaefebf7426, 9f11bafd105765c1,
        // 47002273cb86910f, 1b0b33f9fe56519d). And when the PSD sample became RGB, as a fourth
        // channel without a negative layer count is a saved selection, not transparency (before:
        // 9e14ee47702301da, e1295ed5bd0af633, ec48aa3015860374, f0515b1c13c3179, e044d11d7c248594).
        // And when it gained an XBM (before: c0e26c138fde67e8, 3f44bf7c59c9d653, 56efaf657099189f
        // for the plain sheet and the variants; the captioned pages unchanged). And, on purpose,
        // when the sheets came to be deflated by ImageWall's own deflater: the same pixels, other
        // bytes (with zlib's Z_RLE: 8230541c1b761d16, e1295ed5bd0af633, ec48aa3015860374,
        // 559e12b6951f2b3c, a629d3462c8611ed; --compression rle still writes those).
        // These are the same under qemu64 and Nehalem as natively.
        #expect(
            digests == [
                "fa910c719a7c656", "dd457e79ad9aa791", "81d4dc06a7ffa0c0", "790dcf99ab428b84", "221ffdedc7ca0cf5",
            ])
        var zlib = options()
        zlib.rendering.compression = .runLength
        try wall.render(to: folder.file("plain-rle.png"), options: zlib)
        #expect(digest(folder.file("plain-rle.png")) == "8230541c1b761d16")
    }
}
