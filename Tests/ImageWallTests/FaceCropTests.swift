import Foundation
import Testing
import WallCodecs
import WallCompositor
import WallCore
import WallLayout
import _WallTestSupport

@testable import ImageWall

/// `--gravity faces`: OpenCV's detector, loaded from the library built beside the executable,
/// finds a real face (Pillow's portrait of Grace Hopper in ../shared/corpora) and the crop keeps
/// it centred; a picture without a face is cropped by attention; the same choice from a replay.
@Suite("Crops that keep faces")
struct FaceCropTests {
    let folder = TemporaryFolder()
    static let hopper = Fixtures.corpora.map { $0 + "/pillow-formats/hopper.tif" }.flatMap {
        FileManager.default.fileExists(atPath: $0) ? $0 : nil
    }

    @Test("the detector is there, and finds the face in a portrait", .enabled(if: hopper != nil))
    func detector() throws {
        #expect(FaceDetector.unavailable == nil)
        #expect(FaceDetector.version?.hasPrefix("OpenCV 4") == true)
        let path = try #require(Self.hopper)
        let picture = try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path)).bitmap
        let faces = try FaceDetector.faces(in: Grayscale(picture, longSide: 400))
        let face = try #require(faces.first)
        // Her face is in the upper middle of the 128 px portrait.
        #expect(faces.count == 1 && face.width >= 30 && face.width <= 90, "\(faces)")
        #expect(face.x > 10 && face.maxX < 118 && face.y > 5 && face.maxY < 100, "\(face)")
    }

    /// The portrait pasted near the right edge of a wide grey picture with a detailed patch on
    /// the left.
    func scene() throws -> String {
        let path = try #require(Self.hopper)
        let portrait = try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path)).bitmap
        var wide = Bitmap(size: Size(width: 900, height: 300), alpha: .none, fill: [128, 128, 128])
        for y in 60..<240 {
            for x in 40..<220 {
                let at = (y * 900 + x) * 3
                wide.pixels[at..<at + 3] = (x / 5 + y / 5) % 2 == 0 ? [230, 60, 40] : [20, 40, 200]
            }
        }
        let big = Resampler.resize(portrait, to: Size(width: 256, height: 256))
        for y in 0..<256 {
            for x in 0..<256 {
                let from = (y * 256 + x) * 3, to = ((y + 22) * 900 + x + 620) * 3
                wide.pixels[to..<to + 3] = big.pixels[from..<from + 3]
            }
        }
        mkdir(folder.file("faces"), 0o755)
        try PNGEncoder.write(wide, to: folder.file("faces/portrait-right.png"))
        return folder.file("faces")
    }

    func options(_ gravity: Gravity) -> WallOptions {
        var options = WallOptions()
        options.layout.kind = .grid
        options.layout.cellAspect = AspectRatio(width: 1, height: 1)
        options.layout.columns = 1
        options.layout.width = 200
        options.layout.gravity = gravity
        options.limits.threads = 1
        return options
    }

    @Test("the crop keeps the face, centred where it can be, the same from the manifest", .enabled(if: hopper != nil))
    func crop() throws {
        let inputs = [try scene()]
        let faces = try Wall(inputs: inputs).render(
            to: folder.file("faces.png"), manifest: folder.file("faces.json"), options: options(.faces))
        let tile = try #require(faces.tiles.first)
        let crop = try #require(tile.crop)
        #expect(tile.cropBy == "faces")
        // The portrait spans 620-876: a 300 px square crop keeps it whole.
        #expect(crop.x <= 620 && crop.x + crop.width >= 876, "\(crop)")
        // Her face (in the portrait's middle, about x = 748) is in the crop's middle.
        #expect(abs(crop.x + crop.width / 2 - 748) <= 30, "\(crop)")
        let attention = try Wall(inputs: inputs).render(to: folder.file("attention.png"), options: options(.attention))
        #expect(attention.tiles.first?.cropBy == "attention")
        // From the manifest: the same crop, the same bytes.
        let replayed = try Wall.render(
            from: try Wall.readManifest(folder.file("faces.json")), to: folder.file("again.png"), options: WallOptions()
        )
        #expect(replayed.tiles.first?.crop == crop)
        #expect(Fixtures.read(folder.file("again.png")) == Fixtures.read(folder.file("faces.png")))
    }

    @Test("a picture drawn whole is not searched for faces: nothing to crop", .enabled(if: hopper != nil))
    func uncropped() throws {
        var whole = options(.faces)
        whole.layout.kind = .masonry
        let profile = StageProfile()
        let manifest = try Wall(inputs: [try #require(Self.hopper)]).render(
            to: folder.file("whole.png"), options: whole, hooks: RunHooks(profile: profile))
        #expect(manifest.tiles.first?.crop == nil && manifest.tiles.first?.cropBy == nil)
        #expect((profile.totals[.faces] ?? 0) == 0)
        // Cut, the same picture is searched.
        let cut = StageProfile()
        _ = try Wall(inputs: [try scene()]).render(
            to: folder.file("cut.png"), options: options(.faces), hooks: RunHooks(profile: cut))
        #expect((cut.totals[.faces] ?? 0) > 0)
    }

    @Test("without a face, a crop for faces follows attention")
    func noFace() throws {
        let manifest = try Wall(inputs: [Fixtures.sample("panorama-4x1.jpg")]).render(
            to: folder.file("plain.png"), options: options(.faces))
        #expect(manifest.tiles.first?.cropBy == "attention")
        #expect(
            WallRunError.noFaceDetector("its library is missing").message
                == "--gravity faces: its library is missing (make deps installs OpenCV, make build the detector)")
    }
}
