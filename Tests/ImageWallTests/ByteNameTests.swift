import Foundation
import ImageWall
import Testing
import WallCore
import WallFiles
import _WallTestSupport

/// Files whose names are not UTF-8: a Latin-1 `Urlaub_M\xfcnchen.jpg`.
@Suite("Names that are not UTF-8")
struct ByteNameTests {
    let folder = TemporaryFolder()
    /// `Urlaub_M\xfcnchen.jpg`, its bytes kept.
    static let latin = SystemPath.string(Array("Urlaub_M".utf8) + [0xFC] + Array("nchen.jpg".utf8))

    /// A folder `trip` holding the sample JPEG under the Latin-1 name and a PNG.
    func trip() throws -> String {
        let bytes = try #require(Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg")))
        mkdir(folder.file("trip"), 0o755)
        folder.write(bytes, to: "trip/" + Self.latin)
        folder.write(try #require(Fixtures.read(Fixtures.sample("png-rgb.png"))), to: "trip/plain.png")
        return folder.file("trip")
    }

    @Test("a folder holding one is rendered whole, the name kept in the manifest and shown with U+FFFD")
    func folderRendered() throws {
        let trip = try trip()
        var options = WallOptions()
        options.rendering.caption = try CaptionTemplate("{name}")
        let manifest = try Wall(inputs: [trip]).render(
            to: folder.file("sheet.png"), manifest: folder.file("sheet.json"), options: options)
        #expect(manifest.skipped.isEmpty, "\(manifest.skipped.map(\.reason))")
        #expect(manifest.tiles.map { FilePaths.name(of: $0.source) }.sorted() == [Self.latin, "plain.png"].sorted())
        #expect(manifest.tiles.allSatisfy { $0.placeholder == nil && $0.warnings.isEmpty })
        // The manifest gives the name back, bytes and all.
        let read = try Wall.readManifest(folder.file("sheet.json"))
        #expect(read.tiles.contains { SystemPath.bytes($0.source) == SystemPath.bytes(trip + "/" + Self.latin) })
    }

    @Test("named on the command line, it is rendered and probed; messages show it with U+FFFD")
    func commandLine() throws {
        let trip = try trip()
        let path = trip + "/" + Self.latin
        let render = MeasuredRun(
            Fixtures.binary,
            ["render", path, "-o", folder.file("one.png"), "--manifest", folder.file("one.json"), "--no-cache", "-q"])
        #expect(render.status == 0, "\(render.errors)")
        let manifest = try Wall.readManifest(folder.file("one.json"))
        #expect(manifest.tiles.count == 1 && manifest.tiles.first?.source == path)
        // A message names it as a person can read it.
        let missing = trip + "/" + SystemPath.string(Array("fehlt_".utf8) + [0xE9] + Array(".jpg".utf8))
        let run = MeasuredRun(Fixtures.binary, ["render", path, missing, "-o", folder.file("two.png"), "--no-cache"])
        #expect(run.status == 0)
        #expect(run.errors.contains("fehlt_\u{FFFD}.jpg"), "\(run.errors)")
    }
}
