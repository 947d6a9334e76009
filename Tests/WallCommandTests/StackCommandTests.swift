import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCommand
import _WallTestSupport

/// `--stack` on the command line: its options checked before anything is read, the summary
/// saying how many pictures went into how many stacks, and `probe --fingerprint`.
@Suite("--stack on the command line")
struct StackCommandTests {
    let folder = TemporaryFolder()

    @Test("--stack-gap and --stack-distance need --stack; distances are 0 to 64 bits, gaps not negative")
    func validation() throws {
        let input = Fixtures.sample("png-rgb.png")
        for arguments in [
            ["--stack-gap", "5"], ["--stack-distance", "8"], ["--stack", "bursts", "--stack-gap", "-1"],
            ["--stack", "similar", "--stack-distance", "65"], ["--stack", "sideways"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") {
                try ImageWallCommand.Render.parse([input, "-o", folder.file("s.png")] + arguments)
            }
        }
        // Within bounds, with --stack: accepted (parse throws otherwise).
        _ = try ImageWallCommand.Render.parse([
            input, "-o", folder.file("s.png"), "--stack", "bursts", "--stack-gap", "4", "--stack-distance", "64",
        ])
    }

    @Test("the summary says how many pictures went into how many stacks; probe --fingerprint prints the hash")
    func summary() throws {
        // The same picture three times over (a JPEG, a PNG, a TIFF): one stack of three.
        let samples = ["orientation-6.jpg", "png-exif-6.png", "webp-exif-6.webp"].map(Fixtures.sample)
        let run = try Fixtures.run(
            Fixtures.binary, ["render"] + samples + ["-o", folder.file("s.png"), "--stack", "similar", "--no-cache"])
        #expect(run.status == 0)
        #expect(run.errors.contains("1 image, 3 pictures in 1 stack (--stack similar"), "\(run.errors)")
        let probe = try Fixtures.run(Fixtures.binary, ["probe", "--fingerprint"] + samples)
        let lines = String(decoding: probe.output, as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.hasSuffix("hash              sharpness") == true, "\(lines.first ?? "")")
        let hashes = lines.dropFirst().map { $0.split(separator: " ").reversed()[1] }
        #expect(hashes.count == 3 && hashes.allSatisfy { $0.count == 16 })
    }
}
