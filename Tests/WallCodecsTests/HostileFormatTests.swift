import Testing
import WallCodecs
import WallCore
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile WebP, HEIF, TIFF and GIF files, built here: each is refused from its header (or
/// read in bounded time and memory), never allocated for what it claims.
@Suite("Hostile input: WebP, HEIF, TIFF, GIF")
struct HostileFormatTests {
    let folder = TemporaryFolder()
    /// The CPU time the calling thread has used, in seconds.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Probes (and, when the probe accepts it, decodes for a small tile) `bytes` saved as
    /// `name`; returns the probe's error and the CPU seconds this thread spent on it all (not
    /// the wall clock, which the neighbours on a busy machine stretch). The bounds below guard
    /// against a hang or a decode of what a header claims: measured at most 0.001 s for a
    /// refusal and 0.063 s for the million-strip TIFF, so 0.5 s and 2 s are margins of 8× and more.
    func attempt(_ bytes: [UInt8], _ name: String) -> (error: CodecError?, seconds: Double) {
        let path = folder.write(bytes, to: name)
        let start = Self.threadCPUSeconds()
        do {
            let info = try ImageProbe().probe(path: path)
            _ = try? ImageDecoder().decode(path: path, info: info, target: Size(width: 64, height: 64))
            return (nil, Self.threadCPUSeconds() - start)
        } catch {
            return (error, Self.threadCPUSeconds() - start)
        }
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8((v >> 8) & 255)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 255), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)]
    }

    @Test("a WebP whose header claims 65,535 x 65,535 pixels is refused from it")
    func hugeWebP() {
        // An extended (VP8X) animated file: the canvas size is the whole claim.
        let vp8x: [UInt8] = [0x02, 0, 0, 0] + Array(Self.le32(65534).prefix(3)) + Array(Self.le32(65534).prefix(3))
        var body = Array("WEBP".utf8) + Array("VP8X".utf8) + Self.le32(vp8x.count) + vp8x
        body += Array("ANIM".utf8) + Self.le32(6) + [0, 0, 0, 0, 0, 0]
        let file = Array("RIFF".utf8) + Self.le32(body.count) + body
        let (error, seconds) = attempt(file, "huge.webp")
        #expect(error?.reason.contains("65535x65535 pixels, over the limit") == true, "\(String(describing: error))")
        #expect(seconds < 0.5)
    }

    @Test("a GIF whose header claims 65,535 x 65,535 pixels, or far more than its data can hold, is refused")
    func gifBombs() {
        func gif(screen: Int, image: Int, data: [UInt8]) -> [UInt8] {
            var bytes = Array("GIF89a".utf8) + Self.le16(screen) + Self.le16(screen) + [0x80, 0, 0]
            bytes += [0, 0, 0, 255, 255, 255]  // a two-colour global table
            bytes += [0x2C] + Self.le16(0) + Self.le16(0) + Self.le16(image) + Self.le16(image) + [0]
            return bytes + [2] + data + [0, 0x3B]
        }
        let huge = attempt(gif(screen: 65535, image: 65535, data: [2, 0x4C, 0x01]), "huge.gif")
        #expect(huge.error?.reason.contains("over the limit") == true || huge.error?.reason.contains("bomb") == true)
        // 100 megapixels (under the pixel limit) from a few bytes of LZW data: a bomb.
        let bomb = attempt(gif(screen: 10000, image: 10000, data: [4, 0x84, 0x8F, 0xA9, 0xCB]), "bomb.gif")
        #expect(bomb.error?.reason.contains("decompression bomb") == true, "\(String(describing: bomb.error))")
        #expect(huge.seconds < 0.5 && bomb.seconds < 0.5)
    }

    /// A little-endian TIFF of one directory at offset 8; `entries` are (tag, type, count,
    /// value or offset) and `next` is the offset of the next directory.
    static func tiff(_ entries: [(Int, Int, Int, Int)], next: Int = 0, tail: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(entries.count)
        for (tag, type, count, value) in entries.sorted(by: { $0.0 < $1.0 }) {
            bytes +=
                le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
        }
        return bytes + le32(next) + tail
    }

    @Test("TIFF: a 65,535 x 65,535 claim, a directory loop and a million strips cost nothing")
    func hostileTIFF() {
        let dataOffset = 8 + 2 + 9 * 12 + 4
        func plain(width: Int, height: Int, next: Int = 0) -> [UInt8] {
            Self.tiff(
                [
                    (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                    (273, 4, 1, dataOffset), (277, 3, 1, 1), (278, 4, 1, height), (279, 4, 1, width * height),
                ], next: next, tail: [UInt8](repeating: 200, count: min(width * height, 4096)))
        }
        let huge = attempt(plain(width: 65535, height: 65535), "huge.tif")
        #expect(huge.error?.reason.contains("over the limit") == true, "\(String(describing: huge.error))")
        // Its next directory is itself: libtiff notices the loop; the image is read once.
        let loop = attempt(plain(width: 16, height: 16, next: 8), "loop.tif")
        #expect(loop.error == nil, "\(String(describing: loop.error))")
        // A million strip offsets and byte counts for a 1000x1000 image (a thousand strips).
        let strips = 1_000_000
        let offsets = dataOffset, counts = dataOffset + 4 * strips
        var million = Self.tiff(
            [
                (256, 4, 1, 1000), (257, 4, 1, 1000), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                (273, 4, strips, offsets), (277, 3, 1, 1), (278, 4, 1, 1), (279, 4, strips, counts),
            ])
        million += [UInt8](repeating: 0, count: 8 * strips)
        let many = attempt(million, "strips.tif")
        #expect(
            loop.seconds < 0.5 && huge.seconds < 0.5 && many.seconds < 2,
            "\(loop.seconds) \(huge.seconds) \(many.seconds)")
    }

    /// An ISO box: size, type, payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8((flags >> 16) & 255), UInt8((flags >> 8) & 255), UInt8(flags & 255)] + payload)
    }
    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 255), UInt8(v & 255)] }

    @Test("HEIF: a huge grid and a 65,535 x 65,535 image are refused from the header")
    func hostileHEIF() throws {
        // A primary 'grid' item of 256 x 256 tiles making 65,535 x 65,535 pixels, with one tile.
        func heif(grid: Bool) -> [UInt8] {
            let ftyp = Self.box("ftyp", Array("heic".utf8) + Self.be32(0) + Array("mif1heic".utf8))
            let hdlr = Self.fullBox("hdlr", Self.be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            let pitm = Self.fullBox("pitm", Self.be16(1))
            let infe1 = Self.fullBox(
                "infe", version: 2, Self.be16(1) + Self.be16(0) + Array((grid ? "grid" : "hvc1").utf8) + [0])
            let infe2 = Self.fullBox("infe", version: 2, Self.be16(2) + Self.be16(0) + Array("hvc1".utf8) + [0])
            let iinf = Self.fullBox("iinf", Self.be16(grid ? 2 : 1) + infe1 + (grid ? infe2 : []))
            let gridData: [UInt8] = [0, 1, 255, 255] + Self.be32(65535) + Self.be32(65535)
            var iloc: [UInt8] = [0x44, 0x00] + Self.be16(1)
            iloc +=
                Self.be16(1) + Self.be16(grid ? 1 : 0) + Self.be16(0) + Self.be16(1) + Self.be32(0)
                + Self.be32(gridData.count)
            let iref = grid ? Self.fullBox("iref", Self.box("dimg", Self.be16(1) + Self.be16(1) + Self.be16(2))) : []
            let ispe = Self.fullBox("ispe", Self.be32(65535) + Self.be32(65535))
            let ipma = Self.fullBox("ipma", Self.be32(1) + Self.be16(1) + [1, 0x81])
            let iprp = Self.box("iprp", Self.box("ipco", ispe) + ipma)
            let idat = grid ? Self.box("idat", gridData) : []
            let meta = Self.fullBox(
                "meta", hdlr + pitm + iinf + Self.fullBox("iloc", version: 1, iloc) + iref + iprp + idat)
            return ftyp + meta
        }
        for grid in [true, false] {
            let (error, seconds) = attempt(heif(grid: grid), grid ? "grid.heic" : "huge.heic")
            #expect(error != nil && error?.stage == .probe, "\(String(describing: error))")
            #expect(seconds < 0.5)
        }
    }

    @Test("damaged HEIF, WebP, TIFF and GIF data: drawn as far as it decodes, or an error in words")
    func damagedData() throws {
        for name in [
            "heic-thumbnail.heic", "avif-alpha.avif", "webp-exif-6.webp", "tiff-rgb-16bit-deflate.tif",
            "gif-animated.gif",
        ] {
            let bytes = try #require(Fixtures.read(Fixtures.sample(name)))
            // The header survives; the image data after it is cut or scrambled.
            let cut = Array(bytes.prefix(bytes.count * 2 / 3))
            var scrambled = bytes
            for i in stride(from: bytes.count / 2, to: bytes.count, by: 7) { scrambled[i] ^= 0x5A }
            for (label, damaged) in [("cut", cut), ("scrambled", scrambled)] {
                let path = folder.write(damaged, to: "\(label)-\(name)")
                guard let info = try? ImageProbe().probe(path: path) else { continue }
                do {
                    let decoded = try ImageDecoder().decode(path: path, info: info)
                    #expect(decoded.bitmap.size == info.displayedSize, "\(label) \(name)")
                } catch {
                    // The library's own words, readable (a message from freed memory would not be).
                    #expect(
                        error.reason.count > 8 && error.reason.allSatisfy { $0.isASCII && !$0.isNewline },
                        "\(label) \(name): \(error.reason)")
                }
            }
        }
    }
}
