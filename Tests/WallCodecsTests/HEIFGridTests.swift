import Testing
import WallCore
import _WallTestSupport

@testable import WallCodecs

/// A grid of HEVC tiles, as phones store their photos: libheif assembles it (and converts it)
/// in R, G, B planes, which the decoder takes a row at a time.
@Suite("HEIF grids")
struct HEIFGridTests {
    /// A 3 × 2 grid of 128 × 96 tiles cropped to 360 × 180, and each tile's own file.
    static func grid(in folder: TemporaryFolder, alpha: Bool = false) throws -> (grid: String, tiles: [String]) {
        let picture = Scenes.picture(seed: 21, size: Size(width: 384, height: 192))
        var options = HEIFEncodeOptions()
        options.quality = 90
        var tiles: [String] = []
        for row in 0..<2 {
            for column in 0..<3 {
                var pixels = [UInt8]()
                for y in 0..<96 {
                    for x in 0..<128 { pixels += picture.pixel(x: column * 128 + x, y: row * 96 + y) }
                }
                let tile = folder.file("tile-\(row)-\(column).heic")
                try HEIFEncoder.write(
                    Bitmap(size: Size(width: 128, height: 96), alpha: .none, pixels: pixels), options: options, to: tile
                )
                tiles.append(tile)
            }
        }
        let grid = folder.write(
            HEIFGrid.file(tiles: tiles.map { Fixtures.read($0)! }, columns: 3, width: 360, height: 180), to: "grid.heic"
        )
        return (grid, tiles)
    }

    @Test("a grid is probed at its own size and decoded to its tiles' pixels, the last ones cropped")
    func gridIsItsTiles() throws {
        let folder = TemporaryFolder()
        let (grid, tiles) = try HEIFGridTests.grid(in: folder)
        let info = try ImageProbe().probe(path: grid)
        #expect(info.format == .heif && info.storedSize == Size(width: 360, height: 180) && info.bitDepth == 8)
        let whole = try ImageDecoder().decode(path: grid, info: info).bitmap
        #expect(whole.size == Size(width: 360, height: 180) && whole.alpha == .none)
        for (index, path) in tiles.enumerated() {
            let tile = try ImageDecoder().decode(path: path, info: ImageProbe().probe(path: path)).bitmap
            let left = index % 3 * 128, top = index / 3 * 96
            var differing = 0
            for y in 0..<min(96, 180 - top) {
                for x in 0..<min(128, 360 - left) where whole.pixel(x: left + x, y: top + y) != tile.pixel(x: x, y: y) {
                    differing += 1
                }
            }
            #expect(differing == 0, "tile \(index): \(differing) pixels differ")
        }
        // Shrunk on load: its rows box-averaged as they are taken, as the whole image's would be.
        let shrunk = try ImageDecoder().decode(path: grid, info: info, target: Size(width: 90, height: 45)).bitmap
        var stream = BoxShrinkStream(sourceSize: whole.size, channels: 3, factorX: 2, factorY: 2)
        whole.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<whole.size.height { stream.add(row: pixels.baseAddress! + y * whole.rowBytes) }
        }
        #expect(shrunk == stream.result)
    }
}
