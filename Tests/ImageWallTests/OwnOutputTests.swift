import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallPages
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
        options.input.scan.recursive = true
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

    @Test(
        "a gallery page's files (renditions, sheet copies) and a gallery site found in a recursive render are left out; a browser's saved page is read"
    )
    func pageFoldersSkipped() throws {
        let photos = folder.file("Photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for name in ["heic-rotated-6.heic", "orientation-1.jpg", "tiff-rgba-lzw.tif"] {
            try FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: photos + "/" + name)
        }
        var options = WallOptions()
        options.layout.width = 400
        options.input.scan.recursive = true
        let first = try Wall(inputs: [photos]).render(to: photos + "/sheet.png", options: options)
        _ = try GalleryPage.write(first, to: photos + "/index.html")
        #expect(FileManager.default.fileExists(atPath: photos + "/index_files/renditions"))
        // A site's record marks the folder as a gallery ImageWall keeps.
        try FileManager.default.createDirectory(atPath: photos + "/site/_files", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("grayscale.jpg"), toPath: photos + "/site/_files/rendition.jpg")
        _ = folder.write(Array("{}".utf8), to: "Photos/site/" + OwnFolders.galleryRecord)
        // A page saved by a browser keeps its pictures in NAME_files too: those are the user's.
        try FileManager.default.createDirectory(atPath: photos + "/Saved_files", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: photos + "/Saved_files/a.png")
        _ = folder.write(
            Array("<html><head><meta name=\"generator\" content=\"Mozilla\"></head>".utf8), to: "Photos/Saved.html")
        let again = try Wall(inputs: [photos]).render(to: folder.file("again.png"), options: options)
        #expect(
            again.tiles.compactMap(\.path).sorted()
                == ["Saved_files/a.png", "heic-rotated-6.heic", "orientation-1.jpg", "tiff-rgba-lzw.tif"])
        #expect(
            Set(again.ownOutputs ?? []) == [photos + "/sheet.png", photos + "/index_files", photos + "/site"])
        let page = String(decoding: try #require(Fixtures.read(photos + "/index.html")), as: UTF8.self)
        #expect(page.contains(OwnFolders.generatorMeta))
    }
}
