import Testing
import WallCodecs
import WallCore
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Every file of the crash and edge corpora: decoded, decoded with a warning, or refused,
/// never a crash, hang or runaway allocation.
@Suite("Hostile corpora", .enabled(if: Fixtures.corpora != nil))
struct HostileCorporaTests {
    static let root = Fixtures.corpora ?? ""
    static let folders = [
        "libpng-testpngs/testpngs/crashers", "libpng-testpngs/testpngs/badpal", "libpng-testpngs/testpngs",
        "afl-jpeg-edges/jpeg/edges-only/images", "afl-jpeg-edges/jpeg_turbo/edges-only/images",
        "jpeg-decoder-tests/crashtest/images", "pngsuite",
    ]

    @Test("never crash, hang or balloon", arguments: folders)
    func survive(folder: String) {
        var decoded = 0, warned = 0, refused = 0
        let files = Fixtures.files(in: Self.root + "/" + folder).filter {
            !$0.hasSuffix(".txt") && !$0.hasSuffix(".tsv")
        }
        for name in files {
            let path = Self.root + "/" + folder + "/" + name
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            do {
                let info = try ImageProbe().probe(path: path)
                let result = try ImageDecoder().decode(path: path, info: info, target: Size(width: 64, height: 64))
                if result.warnings.isEmpty { decoded += 1 } else { warned += 1 }
            } catch {
                refused += 1
                #expect(!String(describing: error).isEmpty)
            }
        }
        print("corpus \(folder): \(decoded) decoded, \(warned) with warnings, \(refused) refused, 0 crashed")
        #expect(HostileInputTests.peakMB() < 1500)
    }

    @Test("PngSuite: interlaced files decode to the same pixels as their non-interlaced twins")
    func interlaceTwins() throws {
        let suite = Self.root + "/pngsuite/"
        var pairs = 0
        for name in Fixtures.files(in: suite) where name.count == 12 && Array(name)[3] == "i" {
            let twin = String(name.prefix(3)) + "n" + String(name.dropFirst(4))
            guard Fixtures.files(in: suite).contains(twin) else { continue }
            let a = try ImageDecoder().decode(path: suite + name, info: try ImageProbe().probe(path: suite + name))
                .bitmap
            let b = try ImageDecoder().decode(path: suite + twin, info: try ImageProbe().probe(path: suite + twin))
                .bitmap
            #expect(a == b, "\(name) differs from \(twin)")
            pairs += 1
        }
        #expect(pairs >= 15)
        // oi1..oi9: the same image with its IDAT split 1, 2, 4 or 9 ways.
        for depth in ["n0g16", "n2c16"] {
            let reference = try ImageDecoder().decode(
                path: suite + "bas\(depth).png", info: try ImageProbe().probe(path: suite + "bas\(depth).png")
            ).bitmap
            for split in ["oi1", "oi2", "oi4", "oi9"] {
                let path = suite + split + depth + ".png"
                #expect(
                    try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path)).bitmap == reference)
            }
        }
    }

    @Test("jpeg-decoder reference images: decoded pixels match the reference PNGs closely")
    func referenceImages() throws {
        var checked = 0
        for folder in ["jpeg-decoder-tests/reftest/images", "jpeg-decoder-tests/reftest/images/mozilla"] {
            let base = Self.root + "/" + folder + "/"
            for name in Fixtures.files(in: base) where name.hasSuffix(".jpg") {
                let reference = base + name.dropLast(4) + ".png"
                guard Fixtures.read(reference) != nil else { continue }
                var decoder = ImageDecoder()
                decoder.convertsToSRGB = false
                guard let info = try? ImageProbe().probe(path: base + name),
                    let jpeg = try? decoder.decode(path: base + name, info: info)
                else {
                    continue  // refused cleanly (the suite has deliberately broken files)
                }
                let png = try decoder.decode(path: reference, info: try ImageProbe().probe(path: reference)).bitmap
                #expect(jpeg.bitmap.size == png.size, "\(name)")
                guard jpeg.bitmap.size == png.size, jpeg.warnings.isEmpty else { continue }
                let mean = zip(
                    jpeg.bitmap.mean(in: Rect(x: 0, y: 0, width: png.size.width, height: png.size.height)),
                    png.mean(in: Rect(x: 0, y: 0, width: png.size.width, height: png.size.height))
                ).map { abs($0 - $1) }.max()!
                #expect(mean < 3, "\(name): mean differs by \(mean)")
                checked += 1
            }
        }
        #expect(checked >= 30)
    }
}
