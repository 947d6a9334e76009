import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// A render's own outputs written into the folder it draws are not drawn by the next render.
@Suite("Earlier sheets in the input folder")
struct OwnOutputTests {
    let folder = TemporaryFolder()

    @Test("a sheet, and a Deep Zoom pyramid, written into the folder are left out the next time, and named")
    func ownOutputsSkipped() throws {
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: folder.file("a.png"))
        try FileManager.default.copyItem(atPath: Fixtures.sample("grayscale.jpg"), toPath: folder.file("b.jpg"))
        var options = WallOptions()
        options.layout.width = 400
        options.scan.recursive = true
        let first = try Wall(inputs: [folder.path]).render(to: folder.file("sheet.png"), options: options)
        #expect(first.tiles.count == 2)
        _ = try Wall(inputs: [folder.path]).render(to: folder.file("wall.dzi"), options: options)
        let again = try Wall(inputs: [folder.path]).render(to: folder.file("sheet.png"), options: options)
        #expect(again.tiles.compactMap(\.path).sorted() == ["a.png", "b.jpg"])
        #expect(
            Set(again.ownOutputs ?? [])
                == [folder.file("sheet.png"), folder.file("wall.dzi"), folder.file("wall_files")])
        // Named on its own, an earlier sheet is drawn: the user asked for it.
        let named = try Wall(inputs: [folder.file("sheet.png")]).render(
            to: folder.file("of-sheet.png"), options: options)
        #expect(named.tiles.count == 1)
    }

    @Test("JPEG and WebP sheets carry ImageWall's name as their EXIF Software, and are left out the next time")
    func lossySheetsSkipped() throws {
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: folder.file("a.png"))
        try FileManager.default.copyItem(atPath: Fixtures.sample("grayscale.jpg"), toPath: folder.file("b.jpg"))
        try FileManager.default.copyItem(atPath: Fixtures.sample("webp-exif-6.webp"), toPath: folder.file("c.webp"))
        var options = WallOptions()
        options.layout.width = 400
        for name in ["sheet.jpg", "sheet.webp"] {
            let first = try Wall(inputs: [folder.path]).render(to: folder.file(name), options: options)
            #expect(first.tiles.compactMap(\.path).sorted() == ["a.png", "b.jpg", "c.webp"], "\(name)")
            #expect(try ImageProbe().probe(path: folder.file(name)).software == ImageWallRelease.software)
        }
        let again = try Wall(inputs: [folder.path]).render(to: folder.file("sheet.png"), options: options)
        #expect(again.tiles.compactMap(\.path).sorted() == ["a.png", "b.jpg", "c.webp"])
        #expect(Set(again.ownOutputs ?? []) == [folder.file("sheet.jpg"), folder.file("sheet.webp")])
        // The photos' own EXIF names no ImageWall: a JPEG from elsewhere is still a picture.
        #expect(try ImageProbe().probe(path: folder.file("b.jpg")).software.map(ImageWallRelease.isSoftware) != true)
    }
}
