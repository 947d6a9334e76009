import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

@testable import WallCommand

/// How `render` and `assemble` take the output's format, and the statuses they exit with.
@Suite("Command line: output formats and exit statuses")
struct OutputFormatCommandTests {
    let folder = TemporaryFolder()

    @Test(
        "an output named for a format ImageWall does not write is refused naming the formats it writes",
        arguments: ["sheet.gif", "sheet.BMP", "out/sheet.tif", "sheet-{columns}.heic"])
    func refusedSuffix(name: String) {
        do {
            _ = try ImageWallCommand.Render.parse(["x.jpg", "-o", name])
            Issue.record("accepted -o \(name)")
        } catch {
            let text = ImageWallCommand.Render.message(for: error)
            #expect(
                text.contains(name) && text.contains("PNG (.png)") && text.contains("JPEG (.jpg)")
                    && text.contains("Deep Zoom (.dzi)"), "\(text)")
            #expect(ImageWallCommand.Render.exitCode(for: error) == .validationFailure)
        }
    }

    @Test("assemble refuses an output named for a format it does not write, or a lossy one")
    func assembleRefusesSuffix() {
        #expect(throws: (any Error).self) { try ImageWallCommand.Assemble.parse(["part-1", "-o", "sheet.gif"]) }
        #expect(throws: (any Error).self) { try ImageWallCommand.Assemble.parse(["part-1", "-o", "sheet.jpg"]) }
        #expect((try? ImageWallCommand.Assemble.parse(["part-1", "-o", "sheet.png"])) != nil)
    }

    @Test("--format and the output's name agree, or the name gains the format's extension")
    func formatAndName() throws {
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse(["x.jpg", "-o", "wall.dzi", "--format", "png"])
        }
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse(["x.jpg", "--check", "golden.png", "--format", "dzi"])
        }
        // A plain name and an unknown extension stay PNG, as before.
        for name in ["sheet", "sheet.v2", "sheet.png"] {
            #expect((try? ImageWallCommand.Render.parse(["x.jpg", "-o", name])) != nil, "\(name)")
        }
    }

    @Test("a pyramid asked for by --format is written under NAME.dzi")
    func pyramidByFormat() throws {
        let command = try ImageWallCommand.Render.parse([
            Fixtures.sample("png-rgb.png"), "-o", folder.file("wall"), "--format", "dzi", "--width", "300",
            "--columns", "1", "--no-cache", "-q",
        ])
        try command.run()
        #expect(FileManager.default.fileExists(atPath: folder.file("wall.dzi")))
        #expect(FileManager.default.fileExists(atPath: folder.file("wall_files/0/0_0.png")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("wall")))
    }

    @Test("every option group refuses its own bad values in every mode, --from-manifest and --check included")
    func groupsValidateInEveryMode() {
        for mode in [["--from-manifest", "m.json"], ["x.jpg", "--check", "golden.png"], ["x.jpg", "-o", "s.png"]] {
            for bad in [
                ["--threads", "0"], ["--cache-size", "0"], ["--border=-1"], ["--decode-memory", "0"],
                ["--cache-decodes", "--no-cache"],
            ] {
                #expect(throws: (any Error).self, "\(mode + bad)") { try ImageWallCommand.Render.parse(mode + bad) }
            }
        }
        // The flag reaches the options: decodes are kept only when asked.
        var asked = WallOptions()
        (try? ImageWallCommand.Render.parse(["x.jpg", "-o", "s.png", "--cache-decodes", "--cache", "c"]))?.caching
            .apply(to: &asked)
        #expect(asked.cache?.keepsDecodes == true)
        var plain = WallOptions()
        (try? ImageWallCommand.Render.parse(["x.jpg", "-o", "s.png", "--cache", "c"]))?.caching.apply(to: &plain)
        #expect(plain.cache?.keepsDecodes == false)
    }

    @Test("the root help lists every exit status the commands use")
    func exitStatuses() {
        let help = ImageWallCommand.helpMessage()
        for status in ["0   ", "1   ", "2   ", "64  ", "130 "] {
            #expect(help.contains("\n  " + status), "\(status)")
        }
    }

    @Test("diff exits 0 when the sheets match, 1 when they differ and 2 when they cannot be compared")
    func diffStatuses() throws {
        let size = Size(width: 4, height: 3)
        try PNGEncoder.write(Bitmap(size: size, alpha: .none, fill: [10, 20, 30]), to: folder.file("a.png"))
        try PNGEncoder.write(Bitmap(size: size, alpha: .none, fill: [10, 20, 90]), to: folder.file("b.png"))
        try ImageWallCommand.Diff.parse([folder.file("a.png"), folder.file("a.png")]).run()
        #expect(throws: ExitCode(1)) {
            try ImageWallCommand.Diff.parse([folder.file("a.png"), folder.file("b.png")]).run()
        }
        #expect(throws: ExitCode(2)) {
            try ImageWallCommand.Diff.parse([folder.file("a.png"), folder.file("missing.png")]).run()
        }
    }
}
