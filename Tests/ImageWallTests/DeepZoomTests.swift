import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// Deep Zoom pyramids: the top level is the sheet, each level below the one above halved.
@Suite("Deep Zoom output")
struct DeepZoomTests {
    let folder = TemporaryFolder()

    @Test("levels and tiles are counted as Deep Zoom viewers count them")
    func geometry() {
        let g = DeepZoomGeometry(size: Size(width: 2000, height: 5904))
        #expect(g.topLevel == 13)
        #expect(g.size(ofLevel: 13) == Size(width: 2000, height: 5904))
        #expect(g.size(ofLevel: 12) == Size(width: 1000, height: 2952))
        #expect(g.size(ofLevel: 1) == Size(width: 1, height: 2) && g.size(ofLevel: 0) == Size(width: 1, height: 1))
        #expect(g.tiles(ofLevel: 13) == (8, 24))
        #expect(g.span(0, length: 2000) == 0..<255 && g.span(1, length: 2000) == 253..<509)
        #expect(g.span(7, length: 2000) == 1777..<2000)
        #expect(DeepZoomGeometry(size: Size(width: 1, height: 1)).topLevel == 0)
        #expect(DeepZoomGeometry(size: Size(width: 257, height: 3)).topLevel == 9)
        #expect(DeepZoomGeometry.tilesFolder(of: "a/wall.dzi") == "a/wall_files")
    }

    /// Reads every tile of level `level` under `tiles` back into one bitmap, checking that
    /// each tile has the size its place says and (lossless tiles) agrees with its neighbours
    /// where they overlap.
    func level(_ level: Int, of geometry: DeepZoomGeometry, in tiles: String, ext: String) throws -> Bitmap {
        let size = geometry.size(ofLevel: level)
        let grid = geometry.tiles(ofLevel: level)
        var whole: Bitmap?
        var written = [Bool](repeating: false, count: size.width * size.height)
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let path = "\(tiles)/\(level)/\(column)_\(row).\(ext)"
                let tile = try ImageDecoder().decode(path: path, info: ImageProbe().probe(path: path)).bitmap
                let xs = geometry.span(column, length: size.width), ys = geometry.span(row, length: size.height)
                #expect(tile.size == Size(width: xs.count, height: ys.count), "\(path)")
                if whole == nil { whole = Bitmap(size: size, alpha: tile.alpha) }
                for y in ys {
                    for x in xs {
                        let pixel = tile.pixel(x: x - xs.lowerBound, y: y - ys.lowerBound)
                        let at = (y * size.width + x) * tile.channels
                        if written[y * size.width + x] && ext == "png" {
                            #expect(Array(whole!.pixels[at..<at + tile.channels]) == pixel, "overlap at \(x),\(y)")
                        }
                        whole!.pixels.replaceSubrange(at..<at + tile.channels, with: pixel)
                        written[y * size.width + x] = true
                    }
                }
            }
        }
        #expect(written.allSatisfy { $0 })
        return try #require(whole)
    }

    /// `image` halved as the test reads the rule: each pixel the rounded mean of a 2 × 2 block,
    /// an odd last column or row paired with itself; with alpha, colours weighted by it.
    func halved(_ image: Bitmap) -> Bitmap {
        let size = Size(width: (image.size.width + 1) / 2, height: (image.size.height + 1) / 2)
        var out = Bitmap(size: size, alpha: image.alpha)
        let n = image.channels
        for y in 0..<size.height {
            for x in 0..<size.width {
                let block = [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)].map {
                    image.pixel(x: min($0.0, image.size.width - 1), y: min($0.1, image.size.height - 1)).map(Int.init)
                }
                var pixel: [Int]
                if n == 3 {
                    pixel = (0..<3).map { c in (block.map { $0[c] }.reduce(0, +) + 2) / 4 }
                } else {
                    let alpha = block.map { $0[3] }.reduce(0, +)
                    pixel = (0..<3).map { c in
                        alpha == 0 ? 0 : (block.map { $0[c] * $0[3] }.reduce(0, +) + alpha / 2) / alpha
                    }
                    pixel.append((alpha + 2) / 4)
                }
                out.pixels.replaceSubrange(
                    (y * size.width + x) * n..<(y * size.width + x + 1) * n, with: pixel.map(UInt8.init))
            }
        }
        return out
    }

    @Test(
        "the top level is exactly the PNG sheet and every level below is the one above halved",
        arguments: [false, true])
    func pyramid(transparent: Bool) throws {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (300, 3)
        if transparent { options.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        let wall = Wall(inputs: [Fixtures.sampleImages])
        try wall.render(to: folder.file("sheet.png"), options: options)
        let manifest = try wall.render(to: folder.file("wall.dzi"), options: options)
        #expect(manifest.pages.map(\.file) == [folder.file("wall.dzi")])
        let sheet = try ImageDecoder().decode(
            path: folder.file("sheet.png"), info: ImageProbe().probe(path: folder.file("sheet.png"))
        ).bitmap
        let geometry = DeepZoomGeometry(size: sheet.size)
        let xml = String(decoding: try #require(Fixtures.read(folder.file("wall.dzi"))), as: UTF8.self)
        #expect(xml.contains("Format=\"png\" Overlap=\"1\" TileSize=\"254\""))
        #expect(xml.contains("<Size Width=\"\(sheet.size.width)\" Height=\"\(sheet.size.height)\"/>"))
        let tiles = folder.file("wall_files")
        var above = try level(geometry.topLevel, of: geometry, in: tiles, ext: "png")
        #expect(above == sheet)
        for number in stride(from: geometry.topLevel - 1, through: 0, by: -1) {
            let this = try level(number, of: geometry, in: tiles, ext: "png")
            #expect(this == halved(above), "level \(number)")
            above = this
        }
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
        // Rendered again over itself: the old pyramid replaced whole, nothing left beside it.
        try wall.render(to: folder.file("wall.dzi"), options: options)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
        #expect(try level(geometry.topLevel, of: geometry, in: tiles, ext: "png") == sheet)
    }

    @Test("JPEG tiles are refused on a transparent sheet; a stopped render leaves no pyramid or temporary folder")
    func refusals() throws {
        var options = WallOptions()
        options.layout.width = 300
        options.deepZoomTiles = .jpeg
        options.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
        let wall = Wall(inputs: [Fixtures.sampleImages])
        #expect(throws: CodecError.self) { try wall.render(to: folder.file("wall.dzi"), options: options) }
        options.background = .white
        let bands = Locked(0)
        let hooks = RunHooks(isCancelled: {
            bands.withLock {
                $0 += 1; return $0 > 40
            }
        })
        #expect(throws: WallRunError.cancelled) {
            try wall.render(to: folder.file("wall.dzi"), options: options, hooks: hooks)
        }
        #expect(Fixtures.files(in: folder.path).isEmpty && Fixtures.hiddenFiles(in: folder.path).isEmpty)
        // JPEG tiles of an opaque sheet: every tile there, each close to the sheet.
        try wall.render(to: folder.file("wall.dzi"), options: options)
        let xml = String(decoding: try #require(Fixtures.read(folder.file("wall.dzi"))), as: UTF8.self)
        #expect(xml.contains("Format=\"jpeg\""))
        options.deepZoomTiles = .png
        try wall.render(to: folder.file("sheet.png"), options: options)
        let sheet = try ImageDecoder().decode(
            path: folder.file("sheet.png"), info: ImageProbe().probe(path: folder.file("sheet.png"))
        ).bitmap
        let geometry = DeepZoomGeometry(size: sheet.size)
        let top = try level(geometry.topLevel, of: geometry, in: folder.file("wall_files"), ext: "jpg")
        let difference = zip(top.pixels, sheet.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(difference) / Double(sheet.pixels.count) < 4, "mean difference of JPEG tiles")
    }
}
