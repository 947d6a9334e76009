import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

@testable import WallCommand

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
