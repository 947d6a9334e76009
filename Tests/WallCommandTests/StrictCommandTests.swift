import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCommand
import _WallTestSupport

/// What `--strict` promises: a run that could not draw every input fails.
@Suite("Command line: --strict")
struct StrictCommandTests {
    let folder = TemporaryFolder()

    @Test("--strict exits 1 when an input is drawn as a placeholder, after writing the sheet that shows it")
    func strictFails() throws {
        let jpeg = try #require(Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg")))
        folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "half.jpg")
        folder.write(try #require(Fixtures.read(Fixtures.sample("png-rgb.png"))), to: "whole.png")
        let sheet = folder.file("out.png")
        let base = [folder.path, "-o", sheet, "--width", "300", "--no-cache", "-q"]
        try ImageWallCommand.Render.parse(base).run()
        #expect(throws: ExitCode(1)) { try ImageWallCommand.Render.parse(base + ["--strict"]).run() }
        #expect(FileManager.default.fileExists(atPath: sheet))
    }
}
