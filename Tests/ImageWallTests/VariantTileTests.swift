import Foundation
import Testing
import WallCodecs
import WallCore
import WallFiles
import WallLayout
import _WallTestSupport

@testable import ImageWall

@Suite("Recorded tile recipes")
struct VariantTileTests {
    let image = ProbedImage(
        path: "photo.jpg",
        info: ImageInfo(
            format: .jpeg, storedSize: Size(width: 800, height: 600), colorModel: .rgb, bitDepth: 8, hasAlpha: false,
            isProgressive: false))

    /// An 800x600 decode with detail everywhere (diagonal stripes and a ramp).
    var decoded: Bitmap {
        var bitmap = Bitmap(size: Size(width: 800, height: 600), alpha: .none)
        for y in 0..<600 {
            for x in 0..<800 {
                let at = (y * 800 + x) * 3
                bitmap.pixels[at] = UInt8((x + y) % 7 * 36)
                bitmap.pixels[at + 1] = UInt8(x * 255 / 799)
                bitmap.pixels[at + 2] = UInt8((x * 3 + y * 5) % 256)
            }
        }
        return bitmap
    }

    func placement(_ width: Int, _ height: Int, crop: Region? = nil) -> Placement {
        Placement(
            cell: Rect(x: 0, y: 0, width: width, height: height), image: Rect(x: 0, y: 0, width: width, height: height),
            crop: crop)
    }

    @Test("a recorded recipe (manifests of batches before 0.3) is followed step by step when replayed")
    func recipeReplays() throws {
        let decoded = self.decoded
        let placements = [placement(200, 150), placement(90, 67), placement(40, 30)]
        let big = Size(width: 200, height: 150), middle = Size(width: 90, height: 67)
        let recipes = [
            TileRecipe(decodedFor: big), TileRecipe(decodedFor: big, via: [big]),
            TileRecipe(decodedFor: big, via: [big, middle]),
        ]
        let made = TileMaker.resample(decoded, of: image, into: placements, recipes: recipes, linear: false)
        for (v, recipe) in recipes.enumerated() {
            var source = decoded
            for size in recipe.via { source = TileMaker.whole(source, of: image, resampledTo: size, linear: false) }
            #expect(TileMaker.resample(source, of: image, into: placements[v], linear: false) == made[v])
        }
        // Without steps, a tile is the decode resampled into it, as a render alone makes it.
        #expect(made[0] == TileMaker.resample(decoded, of: image, into: placements[0], linear: false))
    }
}

@Suite("Decode floor")
struct DecodeFloorTests {
    @Test("with a decode floor every source is decoded once for all variants, at least that big, and shown to the hook")
    func floor() throws {
        let folder = TemporaryFolder()
        let inputs = ["landscape-baseline-420.jpg", "orientation-6.jpg", "png-rgb.png"].map(Fixtures.sample)
        func decodes(floor: Int?) throws -> [String: [Size]] {
            let seen = Locked<[String: [Size]]>([:])
            let hooks = RunHooks(decoded: { image, _, decoded in
                seen.withLock { $0[FilePaths.name(of: image.path), default: []].append(decoded.bitmap.size) }
            })
            var narrow = WallOptions(), wide = WallOptions()
            (narrow.layout.columns, narrow.layout.width) = (2, 120)
            (wide.layout.columns, wide.layout.width) = (3, 900)
            (narrow.rendering.decodeFloor, wide.rendering.decodeFloor) = (floor, floor)
            try Wall(inputs: inputs).render(
                variants: [(folder.file("a.png"), narrow), (folder.file("b.png"), wide)],
                manifests: [folder.file("a.json"), folder.file("b.json")], hooks: hooks)
            return seen.withLock { $0 }
        }
        let plain = try decodes(floor: nil)
        #expect(plain.values.contains { $0.count == 2 }, "variants of other sizes decode apart: \(plain)")
        let floored = try decodes(floor: 250)
        #expect(floored.count == 3 && floored.values.allSatisfy { $0.count == 1 }, "one decode a source: \(floored)")
        for (name, decoded) in floored {
            // At least twice the floor (the decoder's margin), or the whole picture when smaller.
            let shown = try ImageProbe().probe(path: Fixtures.sample(name)).displayedSize
            #expect(max(decoded[0].width, decoded[0].height) >= min(500, max(shown.width, shown.height)), "\(name)")
        }
        let manifest = try Wall.readManifest(folder.file("a.json"))
        #expect(manifest.render?.decodeFloor == 250)
        // The sheet made again from its manifest follows the floor: the same bytes.
        try Wall.render(from: manifest, to: folder.file("again.png"), options: WallOptions())
        #expect(folder.read("again.png") == folder.read("a.png"))
    }
}
