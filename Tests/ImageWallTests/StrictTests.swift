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

@Suite("Strict mode")
struct StrictTests {
    let folder = TemporaryFolder()

    @Test(
        "--strict turns a truncated file's warning into its error; the tile is a placeholder no one takes for a photo")
    func strict() throws {
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "half.jpg")
        folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "whole.png")
        var options = WallOptions()
        options.limits.strict = true
        let manifest = try Wall(inputs: [folder.path]).render(to: folder.file("s.png"), options: options)
        let tile = manifest.tiles[0]
        #expect(
            tile.warnings.first?.hasPrefix("not decoded, drawn as a placeholder: damaged (--strict): Premature end")
                == true)
        #expect(tile.placeholder?.hasPrefix("damaged (--strict): Premature end") == true)
        #expect(manifest.tiles[1].placeholder == nil)
        // Not a plain grey box: the pale hatching, the red mark and dark text all show.
        let sheet = try SheetDiff.load(folder.file("s.png"))
        var colours = Set<[UInt8]>()
        for y in stride(from: tile.y, to: tile.y + tile.height, by: 2) {
            for x in stride(from: tile.x, to: tile.x + tile.width, by: 2) { colours.insert(sheet.pixel(x: x, y: y)) }
        }
        #expect(colours.contains([238, 238, 238]) && colours.contains([214, 214, 214]))
        #expect(colours.contains([150, 30, 30]))
        #expect(colours.contains { $0[0] < 100 && $0[1] < 100 && $0[2] < 100 })  // the reason's text
        #expect(!colours.contains([128, 128, 128]))
        options.limits.onError = .fail
        #expect(throws: CodecError.self) {
            try Wall(inputs: [folder.path]).render(to: folder.file("f.png"), options: options)
        }
        #expect(Fixtures.read(folder.file("f.png")) == nil)
    }
}
