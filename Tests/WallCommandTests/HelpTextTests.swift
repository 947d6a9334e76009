import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

@testable import WallCommand

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
        #expect(seeded.input.pickedSeed(quiet: true) == nil && seeded.options.input.seed == 7)
    }
}
