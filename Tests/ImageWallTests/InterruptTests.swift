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
        // A sheet that takes seconds to draw (6000 px wide, two columns of upscaled tiles, no
        // cache to shorten it), its progress reported a line at a time.
        process.arguments = [
            "render", Fixtures.sampleImages, "-o", folder.file("big.png"), "--manifest", folder.file("big.json"),
            "--width", "6000", "--columns", "2", "--threads", "1", "--no-cache", "--progress", "json",
        ]
        let progress = Pipe()
        process.standardError = progress
        try process.run()
        // Interrupted once its first tile is drawn and while most are still to draw: no guess
        // at how long the machine takes to get there.
        var seen = ""
        var underway = false
        while !underway {
            let data = progress.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            seen += String(decoding: data, as: UTF8.self)
            underway = seen.split(separator: "\n").contains { line in
                line.contains("\"phase\":\"render\"") && !line.contains("\"done\":0,")
            }
        }
        #expect(underway && process.isRunning, "the render ended before its tiles were drawn: \(seen)")
        process.interrupt()
        _ = progress.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Fixtures.files(in: folder.path).isEmpty)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }
}
