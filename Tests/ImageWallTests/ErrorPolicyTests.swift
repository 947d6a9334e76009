import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCore
import WallLayout
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Error policy")
struct ErrorPolicyTests {
    let folder = TemporaryFolder()

    func options(_ policy: ErrorPolicy) -> WallOptions {
        var layout = LayoutConfiguration()
        (layout.width, layout.columns, layout.columnGap, layout.rowGap, layout.padding) = (600, 3, 4, 4, Insets(all: 4))
        var options = WallOptions(layout: layout)
        options.limits.onError = policy
        return options
    }

    func mixedInputs() -> [String] {
        let good = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        folder.write(good, to: "a-good.png")
        folder.write(Array("not an image".utf8), to: "b-text.jpg")
        folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "c-truncated.jpg")
        folder.write(Array("plain notes".utf8), to: "d-notes.txt")  // not an image name: ignored
        folder.write(good, to: ".hidden.png")  // hidden: ignored
        return [folder.path]
    }

    @Test("skip: bad files are reported and listed, damaged ones drawn with a warning")
    func skip() throws {
        let inputs = mixedInputs()
        let output = folder.file("out.png")
        let seen = Mutex<[String]>([])
        let hooks = RunHooks(diagnostics: { diagnostic in seen.withLock { $0.append(diagnostic.description) } })
        let manifest = try Wall(inputs: inputs).render(to: output, options: options(.skip), hooks: hooks)
        #expect(manifest.tiles.map(\.source) == [folder.file("a-good.png"), folder.file("c-truncated.jpg")])
        #expect(manifest.skipped.map(\.source) == [folder.file("b-text.jpg")])
        #expect(
            manifest.skipped.map(\.reason) == [
                UnreadReason.notAnImage.description
            ])
        #expect(manifest.tiles[1].warnings.first?.contains("Premature end of JPEG file") == true)
        let messages = seen.withLock { $0 }
        #expect(
            messages.contains {
                $0.contains("b-text.jpg")
                    && $0.contains(
                        UnreadReason.notAnImage.description)
            })
        #expect(messages.contains { $0.contains("c-truncated.jpg") && $0.contains("Premature end") })
        #expect(Fixtures.read(output) != nil)
    }

    @Test("fail: the first bad file stops the run and nothing is written")
    func fail() throws {
        let inputs = mixedInputs()
        let output = folder.file("out.png")
        #expect(
            throws: CodecError(
                .probe, path: folder.file("b-text.jpg"),
                reason: UnreadReason.notAnImage.description)
        ) {
            try Wall(inputs: inputs).render(to: output, manifest: folder.file("out.json"), options: options(.fail))
        }
        #expect(Fixtures.read(output) == nil)
        #expect(Fixtures.read(folder.file("out.json")) == nil)
        #expect(Fixtures.hiddenFiles(in: folder.path) == [".hidden.png"])
    }

    @Test("no images at all is a clear error")
    func noImages() {
        #expect(throws: WallRunError.noInputs) {
            try Wall(inputs: []).render(to: folder.file("x.png"), options: options(.skip))
        }
        #expect(throws: WallRunError.noImages(tried: 0)) {
            try Wall(inputs: [folder.path]).render(to: folder.file("x.png"), options: options(.skip))
        }
        let bad = folder.write([1, 2, 3], to: "bad.png")
        #expect(
            throws: WallRunError.noImages(
                tried: 1,
                first: CodecError(
                    .probe, path: bad,
                    reason:
                        UnreadReason.notAnImage.description)
            )
        ) {
            try Wall(inputs: [folder.path]).render(to: folder.file("x.png"), options: options(.skip))
        }
        // The message names the file and the reason, also when nothing else is printed (-q).
        let error = WallRunError.noImages(
            tried: 1, first: CodecError(.probe, path: bad, reason: "BMP is not a supported format"))
        #expect(
            error.message
                == "no input images: the input could not be read; \(bad): probe: BMP is not a supported format")
    }

    @Test("a folder holding only an earlier sheet says so, naming it")
    func onlyAnEarlierSheet() throws {
        let sheets = folder.file("sheets")
        try FileManager.default.createDirectory(atPath: sheets, withIntermediateDirectories: true)
        try Wall(inputs: [Fixtures.sample("png-rgb.png")]).render(to: sheets + "/sheet.png", options: options(.skip))
        do {
            try Wall(inputs: [sheets]).render(to: folder.file("again.png"), options: options(.skip))
            Issue.record("rendered a folder holding only an earlier sheet")
        } catch let error as WallRunError {
            #expect(
                error.message
                    == "no input images: a sheet ImageWall wrote, left out as earlier outputs: \(sheets)/sheet.png "
                    + "(name one to draw it)")
        }
        unlink(sheets + "/sheet.png")
        rmdir(sheets)
    }

    @Test("an output that is one of the inputs is refused, and the input left alone")
    func outputIsInput() {
        let input = folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "in.png")
        let before = Fixtures.read(input)
        #expect(throws: WallRunError.outputIsInput(input)) {
            try Wall(inputs: [folder.path]).render(to: input, options: options(.skip))
        }
        #expect(Fixtures.read(input) == before)
    }

    @Test("an existing output is replaced only by a complete new sheet")
    func replaceExisting() throws {
        let output = folder.write(Array("old".utf8), to: "sheet.png")
        _ = try? Wall(inputs: [folder.file("missing.jpg")]).render(to: output, options: options(.skip))
        #expect(Fixtures.read(output) == Array("old".utf8))
        try Wall(inputs: [Fixtures.sample("png-rgb.png")]).render(to: output, options: options(.skip))
        #expect(ImageFormat.sniff(Fixtures.read(output)!) == .png)
    }
}
