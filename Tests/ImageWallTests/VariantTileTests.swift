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
