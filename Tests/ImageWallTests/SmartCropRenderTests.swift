import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallLayout
import _WallTestSupport

/// `--gravity attention` and `entropy` on a sheet: the crop chosen when a tile is drawn,
/// recorded in the manifest, and the same again from the manifest (a replay, or parts of a
/// layout), which is what makes parts and replays draw the same tiles.
@Suite("Smart crops on a sheet")
struct SmartCropRenderTests {
    let folder = TemporaryFolder()

    /// Three 600×200 pictures, grey with a detailed patch near the left, middle or right.
    func pictures() throws -> String {
        guard mkdir(folder.file("wide"), 0o755) == 0 else { return folder.file("wide") }
        for (name, patch) in [("a-left", 30), ("b-middle", 270), ("c-right", 480)] {
            var bitmap = Bitmap(size: Size(width: 600, height: 200), alpha: .none, fill: [120, 130, 140])
            for y in 40..<160 {
                for x in patch..<(patch + 90) {
                    let at = (y * 600 + x) * 3
                    bitmap.pixels[at..<at + 3] = (x / 6 + y / 6) % 2 == 0 ? [230, 180, 150] : [60, 30, 20]
                }
            }
            try PNGEncoder.write(bitmap, to: folder.file("wide/\(name).png"))
        }
        return folder.file("wide")
    }

    /// A grid of portrait cells, so every picture is cut to a third of its width.
    func options(_ gravity: Gravity) -> WallOptions {
        var options = WallOptions()
        options.layout.kind = .grid
        options.layout.cellAspect = AspectRatio(width: 1, height: 2)
        options.layout.columns = 3
        options.layout.width = 330
        options.layout.gravity = gravity
        options.limits.threads = 1
        return options
    }

    @Test("each tile keeps its picture's detail, the manifest says which crop and by what")
    func recorded() throws {
        let inputs = [try pictures()]
        let manifest = try Wall(inputs: inputs).render(to: folder.file("attention.png"), options: options(.attention))
        let patches = [30.0, 270, 480]
        for (tile, patch) in zip(manifest.tiles, patches) {
            let crop = try #require(tile.crop)
            #expect(tile.cropBy == "attention")
            #expect(crop.x <= patch && crop.x + crop.width >= patch + 90, "\(tile.source): \(crop)")
        }
        // A fixed gravity records no cropBy and keeps the middle.
        let centred = try Wall(inputs: inputs).render(to: folder.file("center.png"), options: options(.center))
        #expect(
            centred.tiles.allSatisfy {
                $0.cropBy == nil && abs(($0.crop?.x ?? 0) - (600 - ($0.crop?.width ?? 0)) / 2) < 0.01
            })
    }

    @Test("a replay of the manifest, and a render of the layout alone, draw the same bytes")
    func replayed() throws {
        let inputs = [try pictures()]
        for gravity in [Gravity.attention, .entropy] {
            let sheet = folder.file("\(gravity).png")
            let manifest = try Wall(inputs: inputs).render(to: sheet, options: options(gravity))
            try Wall.render(from: manifest, to: folder.file("\(gravity)-again.png"), options: WallOptions())
            #expect(folder.read("\(gravity).png") == folder.read("\(gravity)-again.png"))
            // The layout alone (what parts are rendered from) has the middle crops and no cropBy;
            // drawing it chooses the same crops.
            let plan = try Wall(inputs: inputs).plan(options: options(gravity))
            let layout = Wall.manifest(of: plan, options: options(gravity))
            #expect(layout.tiles.allSatisfy { $0.cropBy == nil })
            let drawn = try Wall.render(from: layout, to: folder.file("\(gravity)-layout.png"), options: WallOptions())
            #expect(folder.read("\(gravity).png") == folder.read("\(gravity)-layout.png"))
            #expect(drawn.tiles.map(\.crop) == manifest.tiles.map(\.crop))
        }
    }
}

/// Faces marked in a picture's XMP (MWG regions) come first in a crop that follows the content.
@Suite("Smart crops keep marked faces")
struct MarkedFaceTests {
    let folder = TemporaryFolder()

    @Test("a face marked on the right is kept though the detail is on the left; cropBy says regions")
    func markedFace() throws {
        // Grey with a detailed patch on the left, which attention alone would keep.
        var bitmap = Bitmap(size: Size(width: 600, height: 200), alpha: .none, fill: [120, 130, 140])
        for y in 40..<160 {
            for x in 30..<120 {
                let at = (y * 600 + x) * 3
                bitmap.pixels[at..<at + 3] = (x / 6 + y / 6) % 2 == 0 ? [230, 180, 150] : [60, 30, 20]
            }
        }
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 95
        let plain = folder.file("plain.jpg")
        try JPEGEncoder.write(
            samples: (0..<(600 * 200)).flatMap { Array(bitmap.pixels[3 * $0..<3 * $0 + 3]) },
            size: bitmap.size, options: options, to: plain)
        mkdir(folder.file("faces"), 0o755)
        let face = Region(x: 0.8, y: 0.3, width: 0.1, height: 0.3)
        try DescribedJPEG.write(plain, to: folder.file("faces/marked.jpg"), faces: [face])
        let regions = PictureRegion.read(path: folder.file("faces/marked.jpg"), orientation: .up)
        #expect(regions.count == 1 && regions.first?.isFace == true)
        #expect(abs((regions.first?.box.x ?? 0) - 0.8) < 1e-6 && abs((regions.first?.box.width ?? 0) - 0.1) < 1e-6)
        var wall = WallOptions()
        wall.layout.kind = .grid
        wall.layout.cellAspect = AspectRatio(width: 1, height: 2)
        wall.layout.columns = 1
        wall.layout.width = 120
        wall.layout.gravity = .attention
        wall.limits.threads = 1
        let manifest = try Wall(inputs: [folder.file("faces")]).render(to: folder.file("sheet.png"), options: wall)
        let crop = try #require(manifest.tiles.first?.crop)
        #expect(manifest.tiles.first?.cropBy == "regions")
        #expect(crop.x <= 480 && crop.x + crop.width >= 540, "\(crop), \(manifest.tiles.first?.cropBy ?? "-")")
        // The same picture turned a quarter (orientation 6): the region turns with it.
        let turned = PictureRegion.shown(face, Orientation(rawValue: 6)!)
        #expect(abs(turned.x - 0.4) < 1e-9 && abs(turned.y - 0.8) < 1e-9 && turned.width == 0.3 && turned.height == 0.1)
    }
}
