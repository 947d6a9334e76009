import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCommand
import _WallTestSupport

/// A run's outputs are checked before any work and written all or none; --check's status
/// says what the comparison found, wherever its report goes.
@Suite("Outputs checked before work, all or none")
struct OutputCheckTests {
    let folder = TemporaryFolder()
    static let binary = Fixtures.binary
    static let sample = Fixtures.sample("png-rgb.png")

    func render(_ arguments: [String]) throws -> ImageWallCommand.Render {
        try ImageWallCommand.Render.parse([Self.sample, "--width", "300", "--no-cache", "-q"] + arguments)
    }

    @Test(
        "a manifest or page into a folder that does not exist fails before the sheet is written",
        arguments: ["--manifest", "--html"])
    func missingFolder(flag: String) throws {
        let sheet = folder.file("sheet.png")
        let command = try render(["-o", sheet, flag, folder.file("missing/out")])
        #expect(throws: ExitCode(1)) { try command.run() }
        #expect(!FileManager.default.fileExists(atPath: sheet))
    }

    @Test("the library writes the pages and the manifest together, or neither")
    func allOrNone() {
        let sheet = folder.file("lib.png")
        #expect(throws: (any Error).self) {
            try Wall(inputs: [Self.sample]).render(
                to: sheet, manifest: folder.file("nowhere/m.json"), options: WallOptions())
        }
        #expect(!FileManager.default.fileExists(atPath: sheet))
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }

    @Test("--check-manifest naming a file that does not exist exits 2 unless --update creates it")
    func missingGoldenManifest() throws {
        let golden = folder.file("golden.png"), goldenManifest = folder.file("golden.json")
        try render(["--check", golden, "--update"]).run()
        #expect(throws: ExitCode(2)) { try render(["--check", golden, "--check-manifest", goldenManifest]).run() }
        try render(["--check", golden, "--check-manifest", goldenManifest, "--update"]).run()
        #expect(FileManager.default.fileExists(atPath: goldenManifest))
        try render(["--check", golden, "--check-manifest", goldenManifest]).run()
    }

    @Test(
        "--check with a report into a missing folder says so before comparing; a report names the render, not a deleted file",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func reportFolder() throws {
        let golden = folder.file("g.png")
        try render(["--check", golden, "--update"]).run()
        let base = [
            "render", Self.sample, "--width", "300", "--no-cache", "-q", "--check", golden, "--background", "#fefefe",
        ]
        let missing = try Fixtures.run(Self.binary, base + ["--report", folder.file("missing/r.html")])
        #expect(missing.status == 2)
        #expect(!String(decoding: missing.output, as: UTF8.self).contains("differ"), "\(missing.errors)")
        #expect(missing.errors.contains("missing/r.html"))
        let report = folder.file("r.html")
        let written = try Fixtures.run(Self.binary, base + ["--report", report])
        #expect(written.status == 1, "\(written.errors)")
        let page = String(decoding: Fixtures.read(report) ?? [], as: UTF8.self)
        #expect(page.contains("actual: this render") && !page.contains("imagewall-check."))
    }
}
