import Foundation
import Testing
import WallCodecs
import WallCompositor
import WallCore
import WallFiles
import WallLayout
import _WallTestSupport

@testable import ImageWall

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
                return nil
            })
            var narrow = WallOptions(), wide = WallOptions()
            (narrow.layout.columns, narrow.layout.width) = (2, 120)
            (wide.layout.columns, wide.layout.width) = (3, 900)
            (narrow.rendering.tile.decodeFloor, wide.rendering.tile.decodeFloor) = (floor, floor)
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
        #expect(manifest.render?.tile.decodeFloor == 250)
        // The sheet made again from its manifest follows the floor: the same bytes.
        try Wall.render(from: manifest, to: folder.file("again.png"), options: WallOptions())
        #expect(folder.read("again.png") == folder.read("a.png"))
    }

    @Test(
        "a tile whose resampling begins with a halving starts from the halved decode the hook gives back: the same sheet"
    )
    func halvedByHook() throws {
        let folder = TemporaryFolder()
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 90
        let size = Size(width: 1600, height: 1200)
        try JPEGEncoder.write(
            samples: Scenes.picture(seed: 3, size: size).pixels, size: size, options: options,
            to: folder.file("photo.jpg"))
        func sheet(_ halve: (@Sendable (Bitmap) -> Bitmap)?) throws -> [UInt8]? {
            var wall = WallOptions()
            // Decoded at 1/2 (800 px, twice the floor) for a tile of 190 px: a halving, then Lanczos.
            (wall.layout.columns, wall.layout.width) = (1, 190 + wall.layout.padding.left + wall.layout.padding.right)
            wall.rendering.tile.decodeFloor = 400
            let hooks = RunHooks(decoded: { _, _, decoded in halve?(Alpha.premultiplied(decoded.bitmap)) })
            try Wall(inputs: [folder.file("photo.jpg")]).render(variants: [(folder.file("s.png"), wall)], hooks: hooks)
            return folder.read("s.png")
        }
        let plain = try sheet(nil)
        #expect(plain != nil)
        #expect(try sheet(Resampler.halved) == plain)
        // Taken, not made again: a halving turned upside down shows in the sheet.
        #expect(try sheet { Resampler.halved($0).oriented(.down) } != plain)
    }
}
