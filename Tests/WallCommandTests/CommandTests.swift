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
        #expect(options.onError == .fail && options.threads == 2 && options.rendering.compression == .deflate(level: 3))
    }

    @Test(
        "bad command lines are refused with the reason",
        arguments: [
            (["x.jpg", "-o", "o.png", "--columns", "0"], "--columns must be at least 1"),
            (["x.jpg", "-o", "o.png", "--width", "30", "--columns", "4"], "under 1 px"),
            (["x.jpg", "-o", "o.png", "--gap=-3"], "--gap cannot be negative"),
            (
                ["x.jpg", "-o", "o.png", "--compression", "12"],
                "The value '12' is invalid for '--compression <rle|0-9>'"
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

/// `--files-from` lists and `probe -r` as a user passes them.
@Suite("Command line: input lists")
struct InputListCommandTests {
    let folder = TemporaryFolder()

    @Test("--files-from with NUL-separated names (find -print0) draws every file, -0 or not")
    func nullList() throws {
        let names = ["a b.png", "c.png"]
        for name in names {
            try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: folder.file(name))
        }
        let list = folder.write(Array(names.map { folder.file($0) + "\u{0}" }.joined().utf8), to: "list")
        for flags in [[], ["-0"], ["--null"]] {
            let manifest = folder.file("m\(flags.count).json")
            try ImageWallCommand.Render.parse(
                ["--files-from", list, "-o", folder.file("s.png"), "--manifest", manifest, "--width", "300", "-q"]
                    + flags
            ).run()
            #expect(try Wall.readManifest(manifest).tiles.count == 2, "\(flags)")
        }
        #expect(throws: (any Error).self) { try ImageWallCommand.Render.parse(["x.png", "-o", "s.png", "-0"]) }
    }

    @Test("probe -r reads sub-folders; without it a folder of sub-folders is an error that says so")
    func probeRecursive() throws {
        try FileManager.default.createDirectory(atPath: folder.file("p/sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: folder.file("p/sub/x.png"))
        #expect(throws: ExitCode(1)) { try ImageWallCommand.Probe.parse([folder.file("p"), "--json"]).run() }
        try ImageWallCommand.Probe.parse([folder.file("p"), "-r", "--json"]).run()
    }
}

/// Help and messages as a user reads them.
@Suite("Command line: help and summaries")
struct HelpTextTests {
    @Test("no command's help shows a stray backslash at the end of a prose line")
    func noStrayBackslashes() {
        for command in [
            ImageWallCommand.Diff.self, ImageWallCommand.Layout.self, ImageWallCommand.Assemble.self,
            ImageWallCommand.Probe.self,
        ] as [any ParsableCommand.Type] {
            let help = ImageWallCommand.helpMessage(for: command)
            #expect(!help.split(separator: "\n").contains { $0.hasSuffix("\\") }, "\(command)")
        }
    }

    @Test("counts agree with their nouns: 1 image, 2 images")
    func plurals() {
        #expect(ImageWallCommand.Render.counted(1, "image") == "1 image")
        #expect(ImageWallCommand.Render.counted(2, "image") == "2 images")
        #expect(ImageWallCommand.Render.counted(0, "sub-folder") == "0 sub-folders")
    }

    @Test("--sort random without --seed is accepted: a seed is picked and the order can be repeated")
    func randomWithoutSeed() throws {
        let command = try ImageWallCommand.Render.parse(["x.jpg", "-o", "s.png", "--sort", "random"])
        let seed = try #require(command.input.pickedSeed(quiet: true))
        #expect(seed > 0)
        let seeded = try ImageWallCommand.Render.parse(["x.jpg", "-o", "s.png", "--sort", "random", "--seed", "7"])
        #expect(seeded.input.pickedSeed(quiet: true) == nil && seeded.options.seed == 7)
    }
}
