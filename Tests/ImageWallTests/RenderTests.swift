import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCore
import WallLayout
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Rendering SampleImages end to end")
struct RenderTests {
    let folder = TemporaryFolder()

    func options(width: Int = 1200, columns: Int = 4, threads: Int = 1) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns) = (width, columns)
        var options = WallOptions(layout: layout)
        options.limits.threads = threads
        return options
    }

    func decodeSheet(_ path: String) throws -> Bitmap {
        let info = try ImageProbe().probe(path: path)
        return try ImageDecoder().decode(path: path, info: info).bitmap
    }

    @Test("every sample appears upright, in colour, where the manifest says")
    func sheet() throws {
        let output = folder.file("sheet.png")
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(
            to: output, manifest: folder.file("sheet.json"), options: options())
        #expect(manifest.tiles.count == SampleCatalog.all.count)
        #expect(manifest.skipped.isEmpty)
        let sheet = try decodeSheet(output)
        #expect(sheet.size == Size(width: manifest.width, height: manifest.height))
        #expect(sheet.alpha == .none)
        for (tile, spec) in zip(manifest.tiles, SampleCatalog.all) {
            #expect(tile.source == Fixtures.sampleImages + "/" + spec.fileName)
            #expect(Size(width: tile.sourceWidth, height: tile.sourceHeight) == spec.displayedSize)
            // Only the 4:1 panorama is past the default aspect limit: cut to 3:1.
            let long = max(spec.displayedSize.width, spec.displayedSize.height)
            let short = min(spec.displayedSize.width, spec.displayedSize.height)
            #expect((tile.crop != nil) == (long > 3 * short), "\(spec.fileName)")
            #expect(tile.warnings.isEmpty)
            // Where a spot of the source lands on the sheet, through the crop.
            let shown =
                tile.crop
                ?? Region(
                    x: 0, y: 0, width: Double(spec.displayedSize.width), height: Double(spec.displayedSize.height))
            let scale = Double(tile.width) / shown.width
            func onSheet(_ x: Double, _ y: Double) -> (x: Int, y: Int)? {
                let sx = (x - shown.x) * scale, sy = (y - shown.y) * scale
                guard sx >= 0, sy >= 0, sx < Double(tile.width), sy < Double(tile.height) else { return nil }
                return (tile.x + Int(sx), tile.y + Int(sy))
            }
            // The four corner squares of each tile, sampled at their centres.
            for spot in spec.spots.prefix(4) {
                guard let (x, y) = onSheet(Double(spot.x) + 0.5, Double(spot.y) + 0.5) else { continue }
                let pixel = sheet.pixel(x: x, y: y)
                let expected = [spot.expected.red, spot.expected.green, spot.expected.blue].map(Int.init)
                for c in 0..<3 { #expect(abs(Int(pixel[c]) - expected[c]) <= 30, "\(spec.fileName) \(spot): \(pixel)") }
            }
            // The arrow head is white above the disc centre and not white below it.
            let g = SamplePicture.Geometry(size: spec.displayedSize)
            let head = onSheet(Double(g.insideArrowHead.x), Double(g.insideArrowHead.y))!
            let below = onSheet(Double(g.mirroredArrowHead.x), Double(g.mirroredArrowHead.y))!
            let up = sheet.pixel(x: head.x, y: head.y)
            let down = sheet.pixel(x: below.x, y: below.y)
            #expect(up.allSatisfy { $0 > 220 }, "\(spec.fileName): arrow head \(up)")
            #expect(!down.allSatisfy { $0 > 220 }, "\(spec.fileName): upside down? \(down)")
        }
        // Alpha samples show the white background through their hole.
        if let index = SampleCatalog.all.firstIndex(where: { $0.fileName == "png-rgba.png" }) {
            let tile = manifest.tiles[index]
            let g = SamplePicture.Geometry(size: SampleCatalog.all[index].displayedSize)
            let scale = Double(tile.width) / Double(SampleCatalog.all[index].displayedSize.width)
            let hole = sheet.pixel(x: tile.x + Int(g.holeCenter.x * scale), y: tile.y + Int(g.holeCenter.y * scale))
            #expect(hole == [255, 255, 255])
        }
    }

    @Test("gaps and padding show only the background")
    func gaps() throws {
        let output = folder.file("gaps.png")
        var options = options(width: 800, columns: 3)
        options.background = RGBAColor(red: 1, green: 2, blue: 3)
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(to: output, options: options)
        let sheet = try decodeSheet(output)
        var covered = [Bool](repeating: false, count: sheet.size.width * sheet.size.height)
        for tile in manifest.tiles {
            for y in tile.y..<(tile.y + tile.height) {
                for x in tile.x..<(tile.x + tile.width) { covered[y * sheet.size.width + x] = true }
            }
        }
        for y in 0..<sheet.size.height {
            for x in 0..<sheet.size.width where !covered[y * sheet.size.width + x] {
                let p = sheet.pixel(x: x, y: y)
                if p != [1, 2, 3] {
                    Issue.record("background expected at (\(x), \(y)), got \(p)")
                    return
                }
            }
        }
    }

    @Test("the same render gives the same bytes with 1 and 2 threads")
    func deterministic() throws {
        let one = folder.file("one.png"), two = folder.file("two.png")
        let m1 = try Wall(inputs: [Fixtures.sampleImages]).render(
            to: one, manifest: folder.file("one.json"), options: options(threads: 1))
        let m2 = try Wall(inputs: [Fixtures.sampleImages]).render(
            to: two, manifest: folder.file("two.json"), options: options(threads: 2))
        #expect(Fixtures.read(one) == Fixtures.read(two))
        #expect(m1.tiles == m2.tiles)
        let json1 = String(decoding: try ManifestWriter.encode(m1), as: UTF8.self)
        let json2 = String(decoding: try ManifestWriter.encode(m2), as: UTF8.self)
        #expect(json1 == json2.replacingOccurrences(of: "two.png", with: "one.png"))
    }

    @Test("a decode memory budget too small for any image decodes one at a time, same bytes")
    func tinyDecodeMemory() throws {
        let free = folder.file("free.png"), tight = folder.file("tight.png")
        var options = options(threads: 2)
        try Wall(inputs: [Fixtures.sampleImages]).render(to: free, options: options)
        options.limits.decodeMemory = 1
        try Wall(inputs: [Fixtures.sampleImages]).render(to: tight, options: options)
        #expect(Fixtures.read(free) == Fixtures.read(tight))
    }

    @Test("the decode memory estimate counts a progressive JPEG's coefficients and the upright copy")
    func decodeMemoryEstimate() throws {
        let probe = ImageProbe()
        func info(_ name: String) throws -> ImageInfo { try probe.probe(path: Fixtures.sample(name)) }
        func area(_ info: ImageInfo) -> Int { info.storedSize.width * info.storedSize.height }
        let baseline = try info("landscape-baseline-420.jpg")
        #expect(ImageDecoder().workingMemory(info: baseline, target: nil) == 3 * area(baseline))
        // Two bytes a sample: luma, plus chroma at a quarter (4:2:0) or in full (4:4:4).
        let p420 = try info("portrait-progressive-420.jpg"), p444 = try info("tall-1x3-progressive-444.jpg")
        #expect(p420.isProgressive && p444.isProgressive)
        #expect(ImageDecoder().workingMemory(info: p420, target: nil) == 3 * area(p420) + 3 * area(p420))
        #expect(ImageDecoder().workingMemory(info: p444, target: nil) == 3 * area(p444) + 6 * area(p444))
        // A quarter-size target decodes at 1/2 (twice the target): a quarter of the pixels.
        let small = Size(width: baseline.storedSize.width / 4, height: baseline.storedSize.height / 4)
        #expect(
            ImageDecoder().workingMemory(info: baseline, target: small) <= 3 * area(baseline) / 4 + 3
                * baseline.storedSize.width)
        // Turning upright copies the pixels.
        let turned = try info("orientation-6.jpg")
        #expect(turned.isProgressive && turned.chromaSubsampling == "4:2:0")
        #expect(ImageDecoder().workingMemory(info: turned, target: nil) == 2 * 3 * area(turned) + 3 * area(turned))
    }

    @Test("--fast: the same layout, pixels close to the default, recorded so --from-manifest repeats it")
    func fast() throws {
        let inputs = ["landscape-baseline-420.jpg", "portrait-progressive-420.jpg", "png-rgb.png", "orientation-6.jpg"]
            .map(Fixtures.sample)
        var options = options(width: 400, columns: 2)
        let normal = try Wall(inputs: inputs).render(
            to: folder.file("normal.png"), manifest: folder.file("normal.json"), options: options)
        options.rendering.tile.fast = true
        let quick = try Wall(inputs: inputs).render(
            to: folder.file("quick.png"), manifest: folder.file("quick.json"), options: options)
        #expect(normal.render?.tile.fast == false && quick.render?.tile.fast == true)
        // The key is written only for --fast renders, so older manifests read the same.
        let json = String(decoding: Fixtures.read(folder.file("normal.json")) ?? [], as: UTF8.self)
        #expect(
            !json.contains("\"fast\"")
                && String(decoding: Fixtures.read(folder.file("quick.json")) ?? [], as: UTF8.self).contains(
                    "\"fast\" : true")
        )
        #expect(normal.tiles.map(\.cell) == quick.tiles.map(\.cell))
        let a = try decodeSheet(folder.file("normal.png")), b = try decodeSheet(folder.file("quick.png"))
        #expect(a.pixels != b.pixels)  // the sources are shrunk further before the resample
        let differences = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 4)
        try Wall.render(
            from: try Wall.readManifest(folder.file("quick.json")), to: folder.file("again.png"), options: WallOptions()
        )
        #expect(Fixtures.read(folder.file("again.png")) == Fixtures.read(folder.file("quick.png")))
    }

    @Test("a transparent background writes an RGBA sheet")
    func transparent() throws {
        let output = folder.file("clear.png")
        var options = options(width: 600, columns: 3)
        options.background = .transparent
        _ = try Wall(inputs: [Fixtures.sample("png-rgba.png"), Fixtures.sample("orientation-6.jpg")]).render(
            to: output, options: options)
        let sheet = try decodeSheet(output)
        #expect(sheet.alpha == .straight)
        #expect(sheet.pixel(x: 0, y: 0)[3] == 0)
    }

    @Test("opaque tiles on a transparent sheet are opaque and in their colours, alone and as batch variants")
    func opaqueTilesOnTransparentSheet() throws {
        var options = options(width: 600, columns: 3)
        options.background = .transparent
        let inputs = [
            Fixtures.sample("orientation-6.jpg"), Fixtures.sample("png-rgb.png"), Fixtures.sample("png-rgba.png"),
        ]
        let single = try Wall(inputs: inputs).render(to: folder.file("single.png"), options: options)
        var two = options
        two.layout.columns = 2
        let batch = try Wall(inputs: inputs).render(variants: [
            (folder.file("v3.png"), options), (folder.file("v2.png"), two),
        ])
        for (manifest, file) in [(single, "single.png"), (batch[0], "v3.png"), (batch[1], "v2.png")] {
            let sheet = try decodeSheet(folder.file(file))
            for tile in manifest.tiles.prefix(2) {
                // The top-left corner square, red (204, 51, 51), fully opaque.
                let pixel = sheet.pixel(x: tile.x + tile.width / 12, y: tile.y + tile.height / 12)
                #expect(
                    pixel[3] == 255 && abs(Int(pixel[0]) - 204) < 30 && abs(Int(pixel[1]) - 51) < 30,
                    "\(file) \(tile.source): \(pixel)")
            }
        }
    }

    @Test("the manifest follows the documented schema")
    func manifestSchema() throws {
        let path = folder.file("m.json")
        try Wall(inputs: [Fixtures.sample("orientation-6.jpg")]).render(
            to: folder.file("m.png"), manifest: path, options: options())
        let json = try JSONSerialization.jsonObject(with: Data(Fixtures.read(path)!)) as! [String: Any]
        #expect(json["version"] as? Int == 1)
        for key in ["width", "height", "layout", "pages", "tiles", "skipped"] { #expect(json[key] != nil, "\(key)") }
        let tile = (json["tiles"] as! [[String: Any]])[0]
        for key in [
            "index", "page", "source", "x", "y", "width", "height", "sourceWidth", "sourceHeight", "orientation",
            "crop",
        ] {
            #expect(tile[key] != nil, "\(key)")
        }
        #expect(tile["crop"] is NSNull)
        #expect(tile["orientation"] as? Int == 6)
        #expect(tile["sourceWidth"] as? Int == 240 && tile["sourceHeight"] as? Int == 360)
        let layout = json["layout"] as! [String: Any]
        #expect(layout["columns"] as? Int == 4 && layout["name"] as? String == "masonry")
    }

    @Test("ImageWall's deflater, zlib's run-length and LZ77 deflate write the same pixels; the manifest records which")
    func compressionSettings() throws {
        var sizes: [PNGCompression: Int] = [:]
        var sheets: [Bitmap] = []
        for compression in [PNGCompression.own, .runLength, .deflate(level: 0), .deflate(level: 6)] {
            var options = options(width: 600, columns: 2)
            options.rendering.compression = compression
            let output = folder.file("c-\(compression).png"), manifestPath = folder.file("c-\(compression).json")
            let inputs = ["png-rgba.png", "landscape-baseline-420.jpg", "orientation-6.jpg"].map(Fixtures.sample)
            let manifest = try Wall(inputs: inputs).render(to: output, manifest: manifestPath, options: options)
            #expect(manifest.render?.compression == compression)
            sizes[compression] = Fixtures.read(output)!.count
            sheets.append(try decodeSheet(output))
            // The manifest names the setting as the command line does, and reads back.
            let json = try JSONSerialization.jsonObject(with: Data(Fixtures.read(manifestPath)!)) as! [String: Any]
            let recorded = (json["render"] as! [String: Any])["compression"]!
            #expect(String(describing: recorded) == compression.description)
            #expect(try Wall.readManifest(manifestPath).render?.compression == compression)
        }
        #expect(sheets.allSatisfy { $0.pixels == sheets[0].pixels && $0.size == sheets[0].size })
        // Stored (level 0) is the raw size; the deflates shrink the flat-coloured sheet a lot, and
        // ImageWall's no more than 5 % larger than zlib's run-length deflate.
        #expect(sizes[.runLength]! * 3 < sizes[.deflate(level: 0)]!)
        #expect(sizes[.own]! * 100 <= sizes[.runLength]! * 105, "\(sizes)")
        #expect(sizes[.deflate(level: 6)]! * 3 < sizes[.deflate(level: 0)]!)
        // Manifests written when the setting was only a level still read.
        let old = String(decoding: Fixtures.read(folder.file("c-rle.json"))!, as: UTF8.self)
            .replacingOccurrences(of: "\"compression\" : \"rle\"", with: "\"compression\" : 3")
        #expect(old.contains("\"compression\" : 3"))
        folder.write(Array(old.utf8), to: "old.json")
        #expect(try Wall.readManifest(folder.file("old.json")).render?.compression == .deflate(level: 3))
        #expect(PNGCompression("rle") == .runLength && PNGCompression("9") == .deflate(level: 9))
        #expect(PNGCompression("imagewall") == .own && WallOptions().rendering.compression == .own)
        #expect(PNGCompression("10") == nil && PNGCompression("fast") == nil)
    }
}
