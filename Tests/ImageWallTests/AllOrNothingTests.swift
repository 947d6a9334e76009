import Foundation
import Testing
import WallCore
import _WallTestSupport

@testable import ImageWall
@testable import WallCodecs
@testable import WallFiles

/// Everything one command writes is there, or none of it is, and a failure says the system's
/// reason; a run killed where no handler runs leaves nothing the next run does not remove.
@Suite("All or nothing")
struct AllOrNothingTests {
    let folder = TemporaryFolder()

    /// Every name in the folder, hidden ones too, but `keep`.
    func names(but keep: Set<String>) -> [String] {
        (Fixtures.files(in: folder.path) + Fixtures.hiddenFiles(in: folder.path)).filter { !keep.contains($0) }.sorted()
    }

    /// A TIFF of noise, `width`x`height`: a browser cannot show it, so a gallery page makes a
    /// JPEG rendition of it, as big as noise makes one.
    func noise(_ name: String, width: Int = 2400, height: Int = 1600) throws -> String {
        var state: UInt32 = 2_463_534_242
        let samples = (0..<width * height * 3).map { _ -> UInt8 in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
        let path = folder.file(name)
        try TIFFEncoder.write(
            [TIFFPage(samples: samples, size: Size(width: width, height: height), color: .rgb)], to: path)
        return path
    }

    /// `imagewall ARGUMENTS` run with files limited to `kilobytes` (`ulimit -f`): writing past it
    /// fails as a full disk does.
    func runLimited(_ kilobytes: Int, _ arguments: [String]) throws -> (status: Int32, errors: String) {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        let run = try Fixtures.run(
            "/bin/sh", ["-c", "ulimit -f \(kilobytes); exec '\(Fixtures.binary)' \(quoted)"])
        return (run.status, run.errors)
    }

    @Test("a gallery page that cannot be written takes the sheet and manifest with it, and says why")
    func galleryFails() throws {
        let photo = try noise("big.tif")
        let old = folder.write(Array("an old sheet".utf8), to: "sheet.png")
        let arguments = [
            "render", photo, "-o", old, "--manifest", folder.file("sheet.json"), "--html", folder.file("index.html"),
            "--width", "200", "--no-cache", "-q",
        ]
        let run = try runLimited(400, arguments)
        #expect(run.status == 1 && run.errors.contains("File too large"), "\(run.errors)")
        #expect(names(but: ["big.tif"]) == ["sheet.png"], "nothing new: no manifest, page, files or temporaries")
        #expect(folder.read("sheet.png") == Array("an old sheet".utf8), "the old sheet as it was")
        // Without the limit, all of them.
        let whole = try Fixtures.run(Fixtures.binary, arguments)
        #expect(whole.status == 0, "\(whole.errors)")
        #expect(names(but: ["big.tif"]) == ["index.html", "index_files", "sheet.json", "sheet.png"])
        try FileManager.default.removeItem(atPath: folder.file("index_files"))
    }

    @Test("a Deep Zoom pyramid on a full disk is refused with the system's reason, nothing left")
    func deepZoomFails() throws {
        let photo = try noise("big.tif", width: 1600, height: 1200)
        let run = try runLimited(100, ["render", photo, "-o", folder.file("wall.dzi"), "--no-cache", "-q"])
        #expect(run.status == 1 && run.errors.contains("File too large"), "\(run.errors)")
        #expect(!run.errors.contains("Write Error"))
        #expect(names(but: ["big.tif"]).isEmpty)
    }

    @Test("what another stage of the run stages is put in place with the sheets, or nothing is")
    func alongsideFails() throws {
        struct Refused: Error {}
        let sheet = folder.file("s.png"), manifest = folder.file("s.json")
        #expect(throws: Refused.self) {
            try Wall(inputs: [Fixtures.sample("png-rgb.png")]).render(
                variants: [(sheet, WallOptions())], manifests: [manifest],
                alongside: { _, written in
                    // The finished sheet is there to read, under its temporary name.
                    #expect(written[sheet].map { FileManager.default.fileExists(atPath: $0) } == true)
                    throw Refused()
                })
        }
        #expect(names(but: []).isEmpty)
    }

    @Test("temporary files a killed run left are removed by the next run and named; a running one's are not")
    func leftovers() throws {
        // A process that has ended, and this one, which runs.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let host = String(TemporaryNames.owner[..<TemporaryNames.owner.lastIndex(of: "-")!])
        let dead = ".sheet.png.\(host)-\(ended.processIdentifier)-k3x9a1.tmp"
        let alive = ".sheet.png.\(host)-\(getpid())-p0q1r2.tmp"
        let elsewhere = ".sheet.png.otherhost-\(ended.processIdentifier)-a1b2c3.tmp"
        for name in [dead, alive, elsewhere] { folder.write(Array(repeating: 7, count: 4096), to: name) }
        try FileManager.default.createDirectory(
            atPath: folder.file(".wall_files.\(host)-\(ended.processIdentifier)-Ab12Cd"),
            withIntermediateDirectories: false)
        let run = try Fixtures.run(
            Fixtures.binary, ["render", Fixtures.sample("png-rgb.png"), "-o", folder.file("sheet.png"), "--no-cache"])
        #expect(run.status == 0)
        #expect(
            run.errors.contains("\(dead): removed: left by an interrupted run (process \(ended.processIdentifier))"))
        #expect(names(but: []) == [elsewhere, alive, "sheet.png"].sorted(), "\(names(but: []))")
        #expect(TemporaryNames.leftBy(dead, host: host) == ended.processIdentifier)
        for name in [alive, elsewhere] { unlink(folder.file(name)) }
    }
}
