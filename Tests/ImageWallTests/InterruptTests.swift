import Foundation
import Testing
import _WallTestSupport

/// Ctrl-C on the real command: the built `imagewall` executable, interrupted mid-render.
@Suite("Interrupting the command")
struct InterruptTests {
    static let binary = Fixtures.binary

    @Test(
        "SIGINT stops the render with status 130 and leaves nothing behind",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func interrupt() throws {
        let folder = TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        // A sheet big enough to take seconds: 6000 px wide, two columns of upscaled tiles.
        process.arguments = [
            "render", Fixtures.sampleImages, "-o", folder.file("big.png"), "--manifest", folder.file("big.json"),
            "--width", "6000", "--columns", "2", "--threads", "1", "-q",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(process.isRunning, "the render finished before it could be interrupted")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Fixtures.files(in: folder.path).isEmpty)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }
}
