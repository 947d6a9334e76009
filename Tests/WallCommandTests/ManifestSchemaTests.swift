import ArgumentParser
import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallLayout
import WallSamples
import _WallTestSupport

/// Every kind of manifest ImageWall writes — renders of every layout, variant, page split and
/// sheet format, `imagewall layout --json`, what the inputs tell (skipped, ignored, stacks,
/// pairs, dates…), replays and the older forms the reader accepts — checked against
/// `docs/manifest.schema.json` by `Tools/check-manifests.py` with python3's jsonschema (Debian's
/// python3-jsonschema, which `make deps` installs), each test's manifests in one process.
@Suite("Manifest schema")
struct ManifestSchemaTests {
    let folder = TemporaryFolder()
    let output = TemporaryFolder()

    static let schema = Fixtures.packageRoot + "/docs/manifest.schema.json"
    static let checker = Fixtures.packageRoot + "/Tools/check-manifests.py"

    /// Why the manifests could not be checked at all (python3 or its jsonschema missing).
    struct CheckUnavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// What the checker finds wrong with `files`, a line each (`FILE: /pointer: message`), and
    /// its exit status: 0 when all are valid, 1 when one is not.
    static func check(_ files: [String]) throws -> (status: Int32, problems: [String]) {
        let run = try Fixtures.run("/usr/bin/env", ["python3", checker, schema] + files)
        guard run.status == 0 || run.status == 1 else {
            // 2: the checker's own words (jsonschema missing); 127: no python3 at all.
            let said = run.errors.trimmingCharacters(in: .whitespacesAndNewlines)
            throw CheckUnavailable(
                description: "the manifests cannot be checked against the schema (status \(run.status)): \(said)"
                    + (run.status == 2 ? "" : " — python3 and python3-jsonschema are needed (make deps installs them)"))
        }
        let problems = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
        return (run.status, problems)
    }

    /// Expects every one of `files` to be written and valid against the schema.
    static func expectValid(_ files: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for file in files {
            #expect(Fixtures.read(file)?.isEmpty == false, "\(file) was not written", sourceLocation: sourceLocation)
        }
        let result = try check(files)
        #expect(
            result.status == 0 && result.problems.isEmpty, "\(result.problems.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    /// Expects the manifests `files` together to hold each of `fragments` (so that each kind is
    /// really among what was checked).
    static func expectHolding(
        _ fragments: [String], in files: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let text = files.compactMap { Fixtures.read($0).map { String(decoding: $0, as: UTF8.self) } }.joined()
        for fragment in fragments {
            #expect(text.contains(fragment), "no manifest holds \(fragment)", sourceLocation: sourceLocation)
        }
    }

    /// Runs `imagewall render` in this process, quietly and without the cache.
    func render(_ arguments: [String]) throws {
        try ImageWallCommand.Render.parse(arguments + ["-q", "--no-cache"]).run()
    }

    /// Runs the `imagewall` command, which must succeed, and writes what it prints to `name` in
    /// the output folder.
    func imagewall(_ arguments: [String], printingTo name: String) throws -> String {
        let run = try Fixtures.run(Fixtures.binary, arguments)
        #expect(run.status == 0, "imagewall \(arguments.joined(separator: " ")): \(run.errors)")
        return output.write(Array(run.output), to: name)
    }

    /// Two folders of samples: pictures and photos with an orientation, a panorama cut by the
    /// aspect limit, a lossy JPEG XL (its decoder inexact), a video.
    func photos() throws -> String {
        let root = folder.file("photos")
        let files = [
            "a": ["landscape-baseline-420.jpg", "orientation-6.jpg", "png-rgb.png", "panorama-4x1.jpg"],
            "b": ["tall-1x3-progressive-444.jpg", "jxl-lossy.jxl", "video-h264.mp4", "square-baseline-422.jpg"],
        ]
        for (sub, names) in files {
            try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
            for name in names {
                try FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: root + "/\(sub)/\(name)")
            }
        }
        return root
    }

    @Test(
        "render --manifest: every layout and its options, variants, pages, captions and title, sections, smart crops, every sheet format"
    )
    func renders() throws {
        let photos = try photos()
        func out(_ name: String) -> String { output.file(name) }
        let runs: [(String, [String])] = [
            ("plain", []),
            ("pages", ["--width", "400", "--max-height", "300"]),
            ("pixels", ["--width", "400", "--max-pixels", "120000"]),
            (
                "captions",
                [
                    "--caption-height", "18", "--caption", "{stem}", "--title", "Wall \"é\" / 😀", "--font-size", "11",
                    "--caption-color", "#336699",
                ]
            ),
            ("sections", ["--group-by", "folder", "--section-header-height", "30"]),
            ("attention", ["--layout", "grid", "--cell-aspect", "1:2", "--gravity", "attention"]),
            (
                "entropy",
                [
                    "--layout", "justified", "--row-height", "80", "--max-row-height-ratio", "1.2", "--gravity",
                    "entropy", "--last-row", "center",
                ]
            ),
            ("mosaic", ["--layout", "mosaic", "--columns", "3", "--gravity", "faces"]),
            (
                "masonry",
                ["--span-wide", "2", "--even-bottom", "--hero", "1", "--tie-tolerance", "4", "--max-aspect", "0"]
            ),
            ("columns", ["--layout", "columns", "--hero", "1", "--column-width", "120", "--max-columns", "3"]),
            (
                "grid",
                [
                    "--layout", "grid", "--order", "down", "--row-gap-after", "1:20", "--fit", "contain",
                    "--cell-aspect", "4:3", "--max-height", "400",
                ]
            ),
            ("strip", ["--layout", "strip", "--row-height", "60"]),
            (
                "decorated",
                [
                    "--corner-radius", "8", "--border", "2", "--border-color", "#ff0000", "--linear", "--fast",
                    "--compression", "9", "--png-filter", "adaptive", "--background", "transparent", "--direction",
                    "rtl", "--no-upscale", "--gap", "4", "--padding-top", "20",
                ]
            ),
            (
                "rle",
                ["--compression", "rle", "--png-filter", "none", "--background", "#202020", "--caption", "{name}"]
            ),
        ]
        var manifests: [String] = []
        for (name, arguments) in runs {
            let width = arguments.contains("--width") || arguments.contains("strip") ? [] : ["--width", "500"]
            try render([photos, "-r", "-o", out(name + ".png"), "--manifest", out(name + ".json")] + width + arguments)
            manifests.append(out(name + ".json"))
        }
        // Sheets of every format.
        for (sheet, extra) in [
            ("sheet.jpg", ["--quality", "80"]), ("sheet.webp", []),
            ("sheet.pdf", ["--paper", "letter", "--quality", "lossless"]),
            ("sheet.dzi", ["--tile-format", "jpeg"]),
        ] {
            let manifest = out(sheet.replacingOccurrences(of: ".", with: "-") + ".json")
            try render([photos, "-r", "-o", out(sheet), "--width", "400", "--manifest", manifest] + extra)
            manifests.append(manifest)
        }
        // Batch variants, every column count at every width.
        try render([
            photos, "-r", "-o", out("v-{columns}x{width}.png"), "--columns", "2,3", "--width", "400,600", "--manifest",
            out("v-{columns}x{width}.json"),
        ])
        manifests += ["v-2x400.json", "v-2x600.json", "v-3x400.json", "v-3x600.json"].map(out)
        try Self.expectValid(manifests)
        Self.expectHolding(
            [
                "\"caption\":{", "\"title\" : {", "\"cropBy\":\"attention\"", "\"cropBy\":\"entropy\"", "\"paper\" : {",
                "\"quality\" : 80", "\"fast\" : true", "\"evenBottom\" : true", "\"spanWide\" : 2", "\"minColumns\"",
                "\"order\" : \"down\"", "\"width\" : null", "\"maxPageHeight\"", "\"maxPagePixels\"", "\"file\" : ",
                "\"inexactDecoder\":", "\"mark\":\"video\"", "\"duration\":", "\"notes\":[", "\"header\" : {",
                "\"direction\" : \"rtl\"", "\"upscale\" : false", "\"compression\" : 9", "\"compression\" : \"rle\"",
            ], in: manifests)
        let pages = try Wall.readManifest(out("pages.json")).pages
        #expect(pages.count > 1 && pages.allSatisfy { $0.file != nil })
    }

    @Test("imagewall layout --json (no page files), of sizes without files, split into pages for parts, and its replay")
    func layouts() throws {
        let photos = try photos()
        var manifests = [
            try imagewall(["layout", photos, "-r", "--json"], printingTo: "layout.json"),
            try imagewall(
                ["layout", photos, "-r", "--json", "--width", "400", "--max-height", "300"], printingTo: "wall.json"),
            try imagewall(
                ["layout", photos, "-r", "--json", "--layout", "strip", "--group-by", "folder"],
                printingTo: "strip.json"),
            try imagewall(
                ["layout", photos, "-r", "--json", "--layout", "grid", "--caption-height", "20", "--fit", "contain"],
                printingTo: "grid.json"),
        ]
        let sizes = folder.write(Array("4000 3000\n3000 4000\n6000 1500\n".utf8), to: "sizes.txt")
        for kind in LayoutKind.allCases {
            manifests.append(
                try imagewall(
                    ["layout", "--sizes", sizes, "--layout", kind.rawValue, "--json"], printingTo: "sizes-\(kind).json")
            )
        }
        // The manifest parts are drawn from, drawn in one process with a manifest of its own.
        try render(["--from-manifest", output.file("wall.json"), "-o", output.file("one.png")])
        try render([
            "--from-manifest", output.file("wall.json"), "-o", output.file("again.png"), "--manifest",
            output.file("again.json"),
        ])
        manifests.append(output.file("again.json"))
        try Self.expectValid(manifests)
        Self.expectHolding(["\"source\":\"sizes[0]\"", "\"caption\":{"], in: manifests)
        let wall = try Wall.readManifest(output.file("wall.json"))
        #expect(wall.pages.count > 1 && wall.pages.allSatisfy { $0.file == nil } && wall.render == nil)
    }

    @Test(
        "what the inputs tell: skipped, ignored, sub-folders not read, filtered out, earlier sheets, repeats, ratings, damaged files and placeholders"
    )
    func inputs() throws {
        let input = folder.file("in")
        for sub in ["", "/sub"] { mkdir(input + sub, 0o755) }
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: input + "/png-rgb.png")
        try FileManager.default.copyItem(atPath: Fixtures.sample("gif-animated.gif"), toPath: input + "/anim.gif")
        try FileManager.default.copyItem(atPath: Fixtures.sample("grayscale.jpg"), toPath: input + "/sub/grey.jpg")
        let jpeg = try #require(Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg")))
        folder.write(Array(jpeg.prefix(jpeg.count / 2)), to: "in/half.jpg")
        folder.write([0x89, 0x50, 0x4E, 0x47, 1, 2, 3], to: "in/broken.png")
        folder.write(Array("notes".utf8), to: "in/notes.txt")
        try DescribedJPEG.write(Fixtures.sample("square-baseline-444.jpg"), to: input + "/starred.jpg", xmpRating: 4)
        try DescribedJPEG.write(Fixtures.sample("square-baseline-422.jpg"), to: input + "/rejected.jpg", xmpRating: -1)
        try render([input, "-o", input + "/earlier.png"])
        var manifests: [String] = []
        try render([
            input, input + "/png-rgb.png", "-o", output.file("inputs.png"), "--exclude", "*.gif", "--manifest",
            output.file("inputs.json"),
        ])
        try render([
            input, "-o", output.file("rated.png"), "--min-rating", "3", "--manifest", output.file("rated.json"),
        ])
        try render([
            input, "-o", output.file("rejects.png"), "--rejected", "only", "--manifest", output.file("rejects.json"),
        ])
        // --strict writes its sheet and manifest, then exits 1 for the placeholder.
        let strict = try Fixtures.run(
            Fixtures.binary,
            [
                "render", input, "-o", output.file("strict.png"), "--strict", "--manifest", output.file("strict.json"),
                "-q",
            ])
        #expect(strict.status == 1, "\(strict.errors)")
        manifests += ["inputs.json", "rated.json", "rejects.json", "strict.json"].map(output.file)
        try Self.expectValid(manifests)
        Self.expectHolding(
            [
                "\"skipped\" : [\n    {", "\"ignored\" : [", "\"foldersNotRead\" : [", "\"filteredOut\" : 1",
                "\"ownOutputs\" : [", "\"repeats\" : [", "\"reason\" : \"below-min-rating\"",
                "\"reason\" : \"rejected\"", "\"reason\" : \"not-rejected\"", "\"damaged\":true", "\"placeholder\":",
                "\"warnings\":[\"",
            ], in: manifests)
    }

    /// A burst of three frames of a pan (the middle one steady), the first a Live Photo's still
    /// with its movie; a Live Photo alone; three copies of one picture in other formats; a
    /// two-page PDF; a video.
    func pictures() throws -> String {
        let shoot = folder.file("shoot")
        mkdir(shoot, 0o755)
        for frame in 0..<3 {
            let view = Scenes.picture(seed: 10, shift: frame * 6)
            let bitmap = frame == 1 ? view : Scenes.blurred(view, radius: 1)
            var options = JPEGEncodeOptions(storage: .ycbcr)
            options.quality = 90
            try JPEGEncoder.write(
                samples: bitmap.pixels, size: bitmap.size, options: options,
                to: shoot + "/IMG_20240601_10000\(frame).jpg")
        }
        let copies = [
            ("video-h264.mp4", "IMG_20240601_100000.mov"), ("landscape-baseline-420.jpg", "IMG_0001.JPG"),
            ("video-h264.mp4", "IMG_0001.MOV"), ("orientation-6.jpg", "copy.jpg"), ("png-exif-6.png", "copy.png"),
            ("webp-exif-6.webp", "copy.webp"), ("video-vp9.webm", "clip.webm"),
        ]
        for (sample, name) in copies {
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: shoot + "/" + name)
        }
        folder.write(
            MinimalPDF.document([("0 0 300 150", "0.2 g 0 0 300 150 re f"), ("0 0 150 300", "0.6 g 0 0 150 300 re f")]),
            to: "shoot/slides.pdf")
        return shoot
    }

    @Test("what the pictures are: stacks, Live Photos, videos, dates and sort keys, PDF pages, RAW files")
    func pictureKinds() throws {
        let shoot = try pictures()
        var manifests: [String] = []
        for (name, arguments) in [
            ("bursts", ["--stack", "bursts"]), ("similar", ["--stack", "similar", "--pages", "all"]),
            ("month", ["--group-by", "month", "--sort", "date"]), ("day", ["--group-by", "day", "--reverse"]),
            ("size", ["--sort", "size", "--pairs", "separate"]), ("year", ["--group-by", "year", "--sort", "aspect"]),
        ] {
            try render(
                [shoot, "-o", output.file(name + ".png"), "--manifest", output.file(name + ".json")] + arguments)
            manifests.append(output.file(name + ".json"))
        }
        manifests.append(
            try imagewall(
                ["layout", shoot, "--json", "--stack", "bursts", "--sort", "name"], printingTo: "stacks.json"))
        // A RAW+JPEG pair and a RAW file alone, drawn from their previews, where the corpora are.
        if let corpora = Fixtures.corpora, Fixtures.read(corpora + "/raw/canon-eos-d30.CRW") != nil {
            let card = folder.file("card")
            mkdir(card, 0o755)
            try FileManager.default.copyItem(atPath: corpora + "/raw/canon-eos-d30.CRW", toPath: card + "/CRW_0001.CRW")
            try FileManager.default.copyItem(
                atPath: Fixtures.sample("landscape-baseline-420.jpg"), toPath: card + "/CRW_0001.jpg")
            try FileManager.default.copyItem(
                atPath: corpora + "/raw/canon-powershot-g2.CRW", toPath: card + "/CRW_0002.CRW")
            try render([card, "-o", output.file("raw.png"), "--manifest", output.file("raw.json")])
            manifests.append(output.file("raw.json"))
            Self.expectHolding(["\"mark\":\"raw+jpeg\"", "\"format\":\"raw\""], in: [output.file("raw.json")])
        }
        try Self.expectValid(manifests)
        Self.expectHolding(
            [
                "\"stack\":{\"by\":\"bursts\"", "\"stack\":{\"by\":\"similar\"", "\"companions\":[\"",
                "\"mark\":\"live\"", "\"mark\":\"video\"", "\"date\":\"2024-06-01T10:00:0", "\"dateFrom\":\"name\"",
                "\"sortKey\":\"", "\"sortKey\":", "\"sourcePage\":2", "\"drawnFrom\":\"frame of VP9\"",
                "\"groupBy\" : \"month\"",
            ], in: manifests)
        let bursts = try Wall.readManifest(output.file("bursts.json"))
        #expect(bursts.tiles.contains { $0.stack?.companions?.isEmpty == false }, "a stack's companions")
        let sized = try Wall.readManifest(output.file("size.json"))
        #expect(sized.tiles.allSatisfy { $0.sortKey.map(Self.isNumber) == true }, "sorted by size: numbers")
    }

    /// Whether `key` is a number (a sort by size, time or aspect), not text.
    static func isNumber(_ key: SortKey) -> Bool {
        guard case .number = key else { return false }
        return true
    }
}
