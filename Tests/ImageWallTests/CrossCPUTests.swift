import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallReview
import _WallTestSupport

/// A sheet checked on another machine: the decoders that are exact give the same bytes on every
/// CPU; the one that is not (libjxl, for lossy files) is named in the manifest, and a comparison
/// allows it its per-CPU rounding — one level on a few pixels — and says so, unless asked to be
/// exact. (`make check-portable` renders under emulated CPUs.)
@Suite("Sheets across CPUs")
struct CrossCPUTests {
    let folder = TemporaryFolder()

    /// A golden of the lossy JPEG XL and a PNG sample (sheet and manifest), and the same sheet
    /// with the JPEG XL tile's pixels changed by `change` (as another CPU, or a real change,
    /// would), written as `name`.
    func sheets(_ name: String, change: (inout Bitmap, Manifest.Tile) -> Void) throws -> (String, String, String) {
        let golden = folder.file("golden.png"), manifest = folder.file("golden.json")
        if Fixtures.read(golden) == nil {
            var options = WallOptions()
            (options.layout.width, options.layout.columns) = (600, 2)
            try Wall(inputs: [Fixtures.sample("jxl-lossy.jxl"), Fixtures.sample("png-rgb.png")]).render(
                to: golden, manifest: manifest, options: options)
        }
        let recorded = try Wall.readManifest(manifest)
        let tile = try #require(recorded.tiles.first { $0.source.hasSuffix("jxl-lossy.jxl") })
        var sheet = try SheetDiff.load(golden)
        change(&sheet, tile)
        try PNGEncoder.write(sheet, to: folder.file(name))
        return (golden, manifest, folder.file(name))
    }

    /// Changes the channels of `count` pixels of `tile` by `by` levels (clipped), spread over it.
    static func nudge(_ sheet: inout Bitmap, _ tile: Manifest.Tile, count: Int, by: Int) {
        let channels = sheet.channels
        for n in 0..<count {
            let x = tile.x + (n * 7919) % tile.width, y = tile.y + (n * 104_729) % tile.height
            let at = (y * sheet.size.width + x) * channels
            sheet.pixels[at] = UInt8(clamping: Int(sheet.pixels[at]) + (sheet.pixels[at] > 127 ? -by : by))
        }
    }

    @Test("a lossy JPEG XL tile is marked in the manifest; lossless ones and the other decoders are not")
    func marked() throws {
        let (_, manifest, _) = try sheets("same.png") { _, _ in }
        let tiles = try Wall.readManifest(manifest).tiles
        #expect(tiles.first { $0.source.hasSuffix("jxl-lossy.jxl") }?.inexactDecoder?.hasPrefix("libjxl ") == true)
        #expect(tiles.first { $0.source.hasSuffix("png-rgb.png") }?.inexactDecoder == nil)
        #expect(try ImageProbe().probe(path: Fixtures.sample("jxl-lossless-alpha.jxl")).inexactDecoder == nil)
        #expect(try ImageProbe().probe(path: Fixtures.sample("orientation-6.jpg")).inexactDecoder == nil)
    }

    @Test("one level on a few pixels of that tile is its rounding, said so; --exact and real changes are not")
    func allowance() throws {
        // A few pixels one level apart, as another CPU draws them.
        let (golden, manifest, rounded) = try sheets("rounded.png") { Self.nudge(&$0, $1, count: 40, by: 1) }
        let comparison = try SheetComparison(
            expected: golden, actual: rounded, manifests: (manifest, manifest), options: SheetDiff.Options())
        #expect(comparison.matches && comparison.result.changedPixels == 0 && comparison.result.roundedPixels == 40)
        let summary = comparison.lines()[0]
        #expect(summary.hasPrefix("match: ") && summary.contains("40 one level apart within libjxl"), "\(summary)")
        #expect(summary.contains("per-CPU rounding (jxl-lossy.jxl)"), "\(summary)")
        var exact = SheetDiff.Options()
        exact.exact = true
        let strict = try SheetComparison(
            expected: golden, actual: rounded, manifests: (manifest, manifest), options: exact)
        #expect(!strict.matches && strict.result.changedPixels == 40 && strict.tiles?.changed == ["jxl-lossy.jxl"])
        // Without the manifests nothing says which decoder drew the pixels: every one counts.
        let bare = try SheetComparison(expected: golden, actual: rounded, options: SheetDiff.Options())
        #expect(!bare.matches)
        // The tile made 3 % brighter: a change, caught.
        let (_, _, brighter) = try sheets("brighter.png") { sheet, tile in
            for y in tile.y..<tile.y + tile.height {
                for x in tile.x..<tile.x + tile.width {
                    let at = (y * sheet.size.width + x) * sheet.channels
                    for c in 0..<3 {
                        sheet.pixels[at + c] = UInt8(min(255, (Double(sheet.pixels[at + c]) * 1.03).rounded()))
                    }
                }
            }
        }
        let changed = try SheetComparison(
            expected: golden, actual: brighter, manifests: (manifest, manifest), options: SheetDiff.Options())
        #expect(!changed.matches && changed.tiles?.changed == ["jxl-lossy.jxl"])
        // One level over more of the tile than the rounding accounts for (over 1 %): a change.
        let (_, _, shifted) = try sheets("shifted.png") { sheet, tile in
            Self.nudge(&sheet, tile, count: tile.width * tile.height / 20, by: 1)
        }
        let many = try SheetComparison(
            expected: golden, actual: shifted, manifests: (manifest, manifest), options: SheetDiff.Options())
        #expect(!many.matches && many.result.roundedPixels == 0 && many.tiles?.changed == ["jxl-lossy.jxl"])
        // The same pixels in an exact decoder's tile count, one level or not.
        let pngTile = try #require(try Wall.readManifest(manifest).tiles.first { $0.source.hasSuffix("png-rgb.png") })
        let (_, _, png) = try sheets("png.png") { sheet, _ in Self.nudge(&sheet, pngTile, count: 40, by: 1) }
        let other = try SheetComparison(
            expected: golden, actual: png, manifests: (manifest, manifest), options: SheetDiff.Options())
        #expect(!other.matches && other.tiles?.changed == ["png-rgb.png"])
    }

    @Test("check says a fixture passed within the rounding, and fails it with --exact")
    func suite() throws {
        let goldens = folder.file("goldens"), path = folder.file("suite.json")
        let inputs = [Fixtures.sample("jxl-lossy.jxl"), Fixtures.sample("png-rgb.png")]
        let fixture: [String: Any] = [
            "name": "jxl", "inputs": inputs, "arguments": ["--width", "600", "--columns", "2", "--no-cache"],
        ]
        let suite = try JSONSerialization.data(withJSONObject: ["goldens": goldens, "fixtures": [fixture]])
        try suite.write(to: URL(fileURLWithPath: path))
        #expect(try Fixtures.run(Fixtures.binary, ["check", path, "--update"]).status == 0)
        // The golden as another CPU drew it: a few pixels of the JPEG XL tile one level apart.
        let golden = goldens + "/jxl.png"
        let tile = try #require(
            try Wall.readManifest(goldens + "/jxl.json").tiles.first { $0.source.hasSuffix(".jxl") })
        var sheet = try SheetDiff.load(golden)
        Self.nudge(&sheet, tile, count: 12, by: 1)
        try PNGEncoder.write(sheet, to: golden)
        let run = try Fixtures.run(Fixtures.binary, ["check", path])
        let said = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 0, "\(said)")
        #expect(said.contains("passed: jxl: match: ") && said.contains("12 one level apart within libjxl"), "\(said)")
        let exact = try Fixtures.run(Fixtures.binary, ["check", path, "--exact"])
        #expect(exact.status == 1 && String(decoding: exact.output, as: UTF8.self).contains("changed: jxl"))
    }
}
