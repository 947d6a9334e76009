import Foundation
import ImageWall
import Testing
import WallCore
import WallLayout
import _WallTestSupport

@Suite("Manifest text")
struct ManifestTextTests {
    let folder = TemporaryFolder()
    let output = TemporaryFolder()

    /// Foundation's text of the manifest, which the streamed writer must match byte for byte:
    /// pretty but for the tiles, each of which is Foundation's text on one line.
    func foundationText(_ manifest: Manifest) throws -> [UInt8] {
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let compact = JSONEncoder()
        compact.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var rest = manifest
        rest.tiles = []
        let text = String(decoding: try pretty.encode(rest), as: UTF8.self) + "\n"
        guard !manifest.tiles.isEmpty else { return Array(text.utf8) }
        let lines = try manifest.tiles.map { "    " + String(decoding: try compact.encode($0), as: UTF8.self) }
        let tiles = "\"tiles\" : [\n" + lines.joined(separator: ",\n") + "\n  ]"
        return Array(text.replacingOccurrences(of: "\"tiles\" : [\n\n  ]", with: tiles).utf8)
    }

    @Test(
        "the streamed manifest is Foundation's JSONEncoder text, a tile to a line, for every field and awkward values")
    func sameAsFoundation() throws {
        // A real render with captions, sections, a title, pages, variants' recipes and skipped files.
        for name in ["png-rgb.png", "landscape-baseline-420.jpg", "orientation-6.jpg", "panorama-4x1.jpg"] {
            try FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: folder.file(name))
        }
        folder.write([0x89, 0x50, 0x4E, 0x47, 1, 2, 3], to: "broken.png")
        folder.write(Array("notes".utf8), to: "notes.txt")
        var options = WallOptions()
        (options.layout.width, options.layout.columns, options.layout.maxPageHeight) = (400, 2, 900)
        options.rendering.caption = try CaptionTemplate("{stem}")
        options.rendering.title = "Title \"quoted\" / é"
        options.input.sort = .date
        options.grouping = .folder
        try Wall(inputs: [folder.path]).render(
            variants: [2, 3].map { columns in
                var variant = options
                variant.layout.columns = columns
                return (output.file("v\(columns)-{page}.png"), variant)
            }, manifests: [output.file("v2.json"), output.file("v3.json")])
        for file in ["v2.json", "v3.json"] {
            var manifest = try Wall.readManifest(output.file(file))
            #expect(try foundationText(manifest) == Array(try ManifestWriter.encode(manifest)))
            // Values no render made: escapes, fractions, exponents, empty and missing fields.
            manifest.tiles[0].warnings = [
                "a \"quote\", a \\ and a /", "tab\tnew\nline\r\u{1}\u{1F}\u{7F}", "é 😀 \u{2028}",
            ]
            manifest.tiles[1].notes = ["iCCP: a note", "tEXt: another"]
            manifest.tiles[0].crop = Region(x: 0.5, y: 1e-7, width: 123456789012345680000, height: 3)
            manifest.tiles[0].sortKey = .number(-2.5e-5)
            manifest.tiles[1].sortKey = .text("2026:01:01 \"x\"")
            manifest.tiles[0].source = "dir/with \"quotes\"/and\\backslash.png"
            manifest.tiles[0].format = nil
            manifest.tiles[1].via = []
            (manifest.tiles[1].date, manifest.tiles[1].dateFrom) = ("2024-03-14T10:15:22+01:00", .metadata)
            manifest.ignored = ["a/b.txt", "ü.mov"]
            #expect(try foundationText(manifest) == Array(try ManifestWriter.encode(manifest)))
            manifest.tiles = []
            manifest.skipped = []
            #expect(try foundationText(manifest) == Array(try ManifestWriter.encode(manifest)))
        }
    }

    @Test("a manifest of 20,000 tiles written to a file reads back equal")
    func roundTrip() throws {
        let sizes = (0..<20_000).map { Size(width: 300 + ($0 * 37) % 4000, height: 300 + ($0 * 53) % 3000) }
        let manifest = try Wall.manifest(ofSizes: sizes, options: WallOptions())
        try ManifestWriter.write(manifest, to: folder.file("big.json"))
        #expect(try Wall.readManifest(folder.file("big.json")) == manifest)
        #expect(Fixtures.read(folder.file("big.json")) == (try foundationText(manifest)))
    }
}

extension ManifestTextTests {
    /// A folder of pictures with awkward names: another script and an emoji, a quote, a
    /// backslash and a tab, bytes that are not UTF-8; a file that is not an image and one that
    /// is broken.
    func awkwardFolder() throws -> String {
        let root = folder.file("awkward")
        for sub in ["", "/Über ünïcode 😀", "/sub", "/more"] { mkdir(root + sub, 0o755) }
        let copies = [
            ("landscape-baseline-420.jpg", "/a \"quoted\" \\ name.jpg"), ("orientation-6.jpg", "/sub/tab\there.jpg"),
            ("panorama-4x1.jpg", "/Über ünïcode 😀/panorama 😀.jpg"), ("png-rgb.png", "/Über ünïcode 😀/ü.png"),
            ("tall-1x3-progressive-444.jpg", "/sub/tall.jpg"), ("square-baseline-422.jpg", "/sub/square.jpg"),
        ]
        for (sample, name) in copies {
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: root + name)
        }
        // Enough for pages of every variant, orientations and colour models among them.
        let more = (1...8).map { "orientation-\($0).jpg" } + ["grayscale.jpg", "cmyk-adobe.jpg", "ycck-adobe.jpg"]
        for (n, sample) in more.enumerated() {
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: root + "/more/\(n).jpg")
        }
        let latin = SystemPath.string(Array("Urlaub_M".utf8) + [0xFC] + Array("nchen.jpg".utf8))
        folder.write(try #require(Fixtures.read(Fixtures.sample("orientation-3.jpg"))), to: "awkward/sub/" + latin)
        folder.write([0x89, 0x50, 0x4E, 0x47, 1, 2, 3], to: "awkward/broken.png")
        folder.write(Array("notes".utf8), to: "awkward/notes.txt")
        return root
    }

    @Test("a render's manifest, streamed from its plan, is the text written before, on any number of threads")
    func renderStreamedAsBefore() throws {
        let root = try awkwardFolder()
        var options = WallOptions()
        (options.layout.width, options.layout.maxPageHeight, options.limits.threads) = (600, 1000, 2)
        options.layout.captionHeight = 14
        options.rendering.caption = try CaptionTemplate("{name}")
        options.rendering.title = "Wall \"été\" / 😀"
        options.input.scan.recursive = true
        for grouping in [Grouping.folder, .month] {
            options.grouping = grouping
            let variants = [2, 3].map { columns in
                var variant = options
                variant.layout.columns = columns
                return (output.file("\(grouping)-\(columns)-{page}.png"), variant)
            }
            let files = [2, 3].map { output.file("\(grouping)-\($0).json") }
            let streamed = try Wall(inputs: [root]).renderStreamed(variants: variants, manifests: files)
            for (manifest, file) in zip(streamed, files) {
                let held = manifest.manifest
                #expect(held.pages.count > 1, "several pages")
                #expect(grouping == .month || held.sections.map(\.title).count == 4, "a section a folder")
                #expect(held.skipped.count == 1 && held.ignored == ["\(root)/notes.txt"])
                #expect(held.tiles.contains { SystemPath.bytes($0.source).contains(0xFC) }, "a name of bytes")
                // The file as written is Foundation's text of what it holds (its roots located).
                let written = try #require(Fixtures.read(file))
                #expect(written == (try foundationText(try Wall.readManifest(file))))
                // The manifest returned, written on 1 to 5 threads, and held whole: one text.
                let text = try foundationText(held)
                for threads in 1...5 {
                    #expect(Array(try ManifestWriter.encode(manifest, threads: threads)) == text, "\(threads) threads")
                }
                #expect(Array(try ManifestWriter.encode(held)) == text)
            }
        }
    }

    @Test("a layout of sizes, streamed in many batches on any number of threads, is the text written before")
    func sizesStreamedAsBefore() throws {
        // Over two batches of tiles a thread: shapes cut by the aspect limit, crops of halves
        // and of thirds (the shortest text of a fraction), pages, captions, wide tiles.
        let sizes = (0..<2_500).map { Size(width: 1 + ($0 * 7_919) % 6_000, height: 1 + ($0 * 104_729) % 5_000) }
        var masonry = WallOptions()
        (masonry.layout.maxPageHeight, masonry.layout.captionHeight, masonry.layout.spanWide) = (9_000, 20, 2)
        var grid = WallOptions(layout: LayoutConfiguration(kind: .grid))
        (grid.layout.cellAspect, grid.layout.gravity) = (AspectRatio(width: 3, height: 7), .southeast)
        grid.layout.direction = .rtl
        for options in [masonry, grid] {
            let streamed = try Wall.streamedManifest(ofSizes: sizes, options: options)
            #expect(streamed.tileCount == sizes.count)
            let held = streamed.manifest
            #expect(held == (try Wall.manifest(ofSizes: sizes, options: options)))
            #expect(
                held.tiles.contains {
                    $0.crop.map { $0.x != $0.x.rounded() && $0.x * 2 != ($0.x * 2).rounded() } ?? false
                })
            let text = try foundationText(held)
            for threads in [1, 2, 3, 7] {
                #expect(Array(try ManifestWriter.encode(streamed, threads: threads)) == text, "\(threads) threads")
            }
            try ManifestWriter.write(streamed, to: folder.file("sizes.json"), threads: 2)
            #expect(Fixtures.read(folder.file("sizes.json")) == text)
        }
    }
}
