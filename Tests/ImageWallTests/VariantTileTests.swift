import Foundation
import Testing
import WallCodecs
import WallCore
import WallLayout

@testable import ImageWall

@Suite("Batch variant tiles")
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

    @Test("a smaller variant's tile is made from a larger variant's when that is at least twice its size")
    func fromLargerTile() {
        let decoded = self.decoded
        let small = placement(100, 75), big = placement(200, 150), smaller = placement(60, 45)
        let placements = [small, big, smaller]
        let recipes = TileRecipe.shared(by: image, placements: placements, margin: 2)
        let bigSize = Size(width: 200, height: 150)
        // 100x75 is not twice 60x45; the 200x150 tile is, and is the smallest such.
        #expect(
            recipes == [
                TileRecipe(decodedFor: bigSize, via: [bigSize]), TileRecipe(decodedFor: bigSize),
                TileRecipe(decodedFor: bigSize, via: [bigSize]),
            ])
        let tiles = TileMaker.resample(decoded, of: image, into: placements, recipes: recipes, linear: false)
        #expect(tiles.map(\.size) == [Size(width: 100, height: 75), bigSize, Size(width: 60, height: 45)])
        #expect(tiles[1] == TileMaker.resample(decoded, of: image, into: big, linear: false))
        #expect(tiles[0] == TileMaker.resample(tiles[1], of: image, into: small, linear: false))
        #expect(tiles[2] == TileMaker.resample(tiles[1], of: image, into: smaller, linear: false))
        #expect(tiles[0] != TileMaker.resample(decoded, of: image, into: small, linear: false))
    }

    @Test("a cropped tile, one less than twice the size, or one as big as the image is never a source")
    func fromDecode() {
        let small = placement(100, 75)
        let cropped = placement(300, 225, crop: Region(x: 0, y: 0, width: 400, height: 300))
        let near = placement(150, 112)
        let recipes = TileRecipe.shared(by: image, placements: [small, cropped, near], margin: 2)
        #expect(recipes.allSatisfy { $0.via.isEmpty })
        #expect(recipes[0].decodedFor == Size(width: 600, height: 450))  // what the crop needs
        // With a margin of one (--fast), the 150x112 tile is enough for the 100x75 one.
        let fast = TileRecipe.shared(by: image, placements: [small, near], margin: 1)
        #expect(fast[0].via == [Size(width: 150, height: 112)])
        // Tiles as big as the image (enlarged) are never worth resampling from.
        let huge = TileRecipe.shared(by: image, placements: [small, placement(800, 600)], margin: 2)
        #expect(huge[0].via.isEmpty)
    }

    @Test("a tile made through its recipe's steps one by one equals the shared one")
    func recipeReplays() throws {
        let decoded = self.decoded
        let placements = [placement(200, 150), placement(90, 67), placement(40, 30)]
        let recipes = TileRecipe.shared(by: image, placements: placements, margin: 2)
        #expect(recipes[2].via.count == 2)  // 200x150, then 90x67
        let shared = TileMaker.resample(decoded, of: image, into: placements, recipes: recipes, linear: false)
        for (v, recipe) in recipes.enumerated() {
            var source = decoded
            for size in recipe.via { source = TileMaker.whole(source, of: image, resampledTo: size, linear: false) }
            #expect(TileMaker.resample(source, of: image, into: placements[v], linear: false) == shared[v])
        }
    }

    @Test("tiles made from a larger tile stay close to those made from the decode")
    func quality() {
        let decoded = self.decoded
        let small = placement(100, 75), big = placement(200, 150)
        let recipes = TileRecipe.shared(by: image, placements: [small, big], margin: 2)
        let cascaded = TileMaker.resample(decoded, of: image, into: [small, big], recipes: recipes, linear: false)[0]
        let direct = TileMaker.resample(decoded, of: image, into: small, linear: false)
        var squares = 0.0
        for (a, b) in zip(cascaded.pixels, direct.pixels) {
            let d = Double(a) - Double(b)
            squares += d * d
        }
        let mse: Double = squares / Double(direct.pixels.count)
        let psnr: Double = 10 * log10(255 * 255 / mse)
        #expect(psnr > 40, "PSNR \(psnr) dB")
    }
}
