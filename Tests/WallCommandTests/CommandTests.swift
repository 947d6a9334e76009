import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

@testable import WallCommand

@Suite("Command line")
struct CommandTests {
    let folder = TemporaryFolder()

    @Test("render options map onto the layout and pipeline")
    func renderOptions() throws {
        let command = try ImageWallCommand.Render.parse([
            "SampleImages", "-o", "out.png", "--width", "1200", "--columns", "3", "--gap", "6",
            "--row-gap", "2", "--background", "#202020", "--on-error", "fail", "--threads", "2", "--compression", "3",
        ])
        let options = command.options
        #expect(options.layout.width == 1200 && options.layout.columns == 3)
        #expect(options.layout.columnGap == 6 && options.layout.rowGap == 2)
        #expect(options.layout.padding.left == 6)  // padding follows --gap
        #expect(options.background == RGBAColor(red: 32, green: 32, blue: 32))
        #expect(
            options.limits.onError == .fail && options.limits.threads == 2
                && options.rendering.compression == .deflate(level: 3))
    }

    @Test(
        "bad command lines are refused with the reason",
        arguments: [
            (["x.jpg", "-o", "o.png", "--columns", "0"], "--columns must be at least 1"),
            (["x.jpg", "-o", "o.png", "--width", "30", "--columns", "4"], "under 1 px"),
            (["x.jpg", "-o", "o.png", "--gap=-3"], "--gap cannot be negative"),
            (
                ["x.jpg", "-o", "o.png", "--compression", "12"],
                "The value '12' is invalid for '--compression <imagewall|rle|0-9>'"
            ),
            (["-o", "o.png"], "no input images"),
            (["x.jpg", "-o", "o.png", "--background", "purplish"], "purplish"),
            (["x.jpg"], "Missing expected argument '--output"),
            // A negative number is a value, refused for what it is, not "Missing value".
            (["x.jpg", "-o", "o.png", "--width", "-5"], "width must be at least 1 px (got -5)"),
            (["x.jpg", "-o", "o.png", "--gap", "-3"], "--gap cannot be negative"),
            (["x.jpg", "-o", "o.png", "--threads", "-2"], "--threads must be at least 1 (got -2)"),
        ])
    func refused(arguments: [String], message: String) {
        do {
            _ = try ImageWallCommand.Render.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            let text = ImageWallCommand.Render.message(for: error)
            #expect(text.contains(message), "\(text)")
            #expect(ImageWallCommand.Render.exitCode(for: error) == .validationFailure)
        }
    }

    @Test("help shows every option and examples")
    func help() {
        let help = ImageWallCommand.helpMessage(for: ImageWallCommand.Render.self)
        for option in [
            "--output", "--width", "--columns", "--gap", "--column-gap", "--row-gap", "--padding",
            "--background", "--manifest", "--on-error", "--threads", "--compression", "EXAMPLES",
            "imagewall render SampleImages",
        ] {
            #expect(help.contains(option), "\(option)")
        }
        #expect(ImageWallCommand.helpMessage().contains("EXIT STATUS"))
    }

    @Test("render runs in-process and writes the sheet and manifest")
    func runRender() throws {
        let output = folder.file("sheet.png"), manifest = folder.file("sheet.json")
        let command = try ImageWallCommand.Render.parse([
            Fixtures.sampleImages, "-o", output, "--manifest", manifest, "--width", "600", "--threads", "2",
        ])
        try command.run()
        #expect(Fixtures.read(output).map { ImageFormat.sniffPNG($0) } == true)
        #expect(Fixtures.read(manifest)?.isEmpty == false)
    }

    @Test("--on-error fail exits with status 1 and writes nothing")
    func runFail() throws {
        folder.write(Array("junk".utf8), to: "junk.jpg")
        let output = folder.file("sheet.png")
        let command = try ImageWallCommand.Render.parse([
            folder.path, Fixtures.sample("png-rgb.png"), "-o", output, "--on-error", "fail",
        ])
        #expect(throws: ExitCode(1)) { try command.run() }
        #expect(Fixtures.read(output) == nil)
    }

    @Test("probe exits 1 when a file cannot be read")
    func probeStatus() throws {
        let good = try ImageWallCommand.Probe.parse([Fixtures.sample("png-rgb.png"), "--json"])
        try good.run()
        folder.write([0], to: "bad.png")
        let bad = try ImageWallCommand.Probe.parse([folder.file("bad.png")])
        #expect(throws: ExitCode(1)) { try bad.run() }
    }
}

extension ImageFormat {
    static func sniffPNG(_ bytes: [UInt8]) -> Bool { sniff(bytes) == .png }
}
