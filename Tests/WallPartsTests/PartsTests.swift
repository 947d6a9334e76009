import Foundation
import Testing
import WallCore
import _WallTestSupport

@testable import ImageWall
@testable import WallParts

/// Plan once, render parts anywhere, assemble the exact bytes.
@Suite("Sheets rendered in parts")
struct PartsTests {
    static let binary = Fixtures.binary
    let folder = TemporaryFolder()
    let cache = TemporaryFolder()

    /// A layout of SampleImages written as a manifest (the plan every worker shares), and the
    /// options the parts render with (a shared cache, so every part does not decode again).
    func plan(_ name: String, maxPageHeight: Int? = nil, transparent: Bool = false) throws -> (
        manifest: String, options: WallOptions
    ) {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (600, 3)
        options.layout.maxPageHeight = maxPageHeight
        if maxPageHeight != nil {  // a part's captions number its tiles as the whole wall does
            options.layout.captionHeight = 24
            options.rendering.caption = try CaptionTemplate("{index}: {name}")
        }
        if transparent { options.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        let plan = try Wall(inputs: [Fixtures.sampleImages]).plan(options: options)
        let path = folder.file(name)
        try ManifestWriter.write(Wall.manifest(of: plan, options: options), to: path)
        options.cache = CacheSettings(directory: cache.path)
        return (path, options)
    }

    @Test(
        "parts of an unpaged, a paged (captioned with {index}) and a transparent sheet, every N from 1 to 8, assemble to one render's bytes",
        arguments: [(nil, false), (700, false), (nil, true)] as [(Int?, Bool)])
    func sameBytes(maxPageHeight: Int?, transparent: Bool) throws {
        let (manifest, options) = try plan("m.json", maxPageHeight: maxPageHeight, transparent: transparent)
        var single = options
        single.cache = nil
        let whole = try Wall.render(from: Wall.readManifest(manifest), to: folder.file("one.png"), options: single)
        let expected = whole.pages.map { Fixtures.read($0.file ?? "") ?? [] }
        #expect(expected.allSatisfy { !$0.isEmpty })
        #expect(expected.count == (maxPageHeight == nil ? 1 : whole.pages.count) && expected.count >= 1)
        if maxPageHeight != nil { #expect(expected.count > 1) }
        for count in 1...8 {
            var parts: [String] = []
            for number in (1...count).reversed() {  // any order
                let path = folder.file("part-\(count)-\(number)")
                let header = try Wall.render(
                    part: try #require(SheetPart(number, of: count)), ofManifestAt: manifest, to: path,
                    options: options)
                #expect(header.part == number && header.parts == count)
                parts.append(path)
            }
            let written = try Wall.assemble(parts: parts, to: folder.file("sheet-\(count).png"))
            #expect(written.count == expected.count)
            for (file, bytes) in zip(written, expected) {
                let same = Fixtures.read(file) == bytes
                #expect(same, "\(count) parts: \(file)")
            }
        }
    }

    @Test(
        "parts assembled into Deep Zoom pyramids give the files a one-process Deep Zoom render writes, whether the parts made the full-resolution tiles or not",
        arguments: [nil, DeepZoomTileFormat.png])
    func deepZoom(tiles: DeepZoomTileFormat?) throws {
        let (manifest, options) = try plan("m.json", maxPageHeight: 900)
        var single = options
        single.cache = nil
        let whole = try Wall.render(from: Wall.readManifest(manifest), to: folder.file("one.dzi"), options: single)
        #expect(whole.pages.count > 1)
        let parts = try (1...4).map { number in
            let path = folder.file("part-\(number)")
            let header = try Wall.render(
                part: try #require(SheetPart(number, of: 4)), ofManifestAt: manifest, to: path, deepZoom: tiles,
                options: options)
            #expect(header.deepZoom == tiles)
            return path
        }
        if tiles != nil {
            // The parts hold the full-resolution tiles of the tile rows their rows hold whole.
            let records = try parts.map { path in
                let reader = try PartReader(path: path)
                var count = 0
                while let record = try reader.next() { if case .tile = record { count += 1 } }
                return count
            }
            #expect(records.reduce(0, +) > 10 && records.allSatisfy { $0 > 0 }, "\(records)")
        }
        let written = try Wall.assemble(parts: parts, to: folder.file("two.dzi"), threads: 2)
        #expect(written.count == whole.pages.count)
        for (one, two) in zip(whole.pages.compactMap(\.file), written) {
            #expect(Fixtures.read(one) == Fixtures.read(two))
            let tiles = DeepZoomGeometry.tilesFolder(of: one), others = DeepZoomGeometry.tilesFolder(of: two)
            let files = try #require(FileManager.default.subpaths(atPath: tiles)).sorted()
            #expect(files == (try #require(FileManager.default.subpaths(atPath: others))).sorted())
            #expect(files.count > 10)
            for file in files where file.hasSuffix(".png") {
                #expect(Fixtures.read(tiles + "/" + file) == Fixtures.read(others + "/" + file), "\(file)")
            }
        }
    }

    @Test("each part holds a contiguous run of whole bands, and together they hold every row once")
    func partRows() throws {
        let pages = [Size(width: 10, height: 300), Size(width: 10, height: 128), Size(width: 10, height: 1)]
        for count in 1...9 {
            let rows = (1...count).flatMap { SheetPart($0, of: count)!.rows(of: pages) }
            var expected: [PageRows] = []
            for row in rows {
                if let last = expected.last, last.page == row.page, last.to == row.from {
                    expected[expected.count - 1].to = row.to
                } else {
                    expected.append(row)
                }
                #expect(row.from % 128 == 0 && (row.to % 128 == 0 || row.to == pages[row.page].height))
            }
            #expect(expected == pages.enumerated().map { PageRows(page: $0, from: 0, to: $1.height) })
        }
        #expect(SheetPart("3/8") == SheetPart(3, of: 8))
        #expect(SheetPart("0/8") == nil && SheetPart("9/8") == nil && SheetPart("x/2") == nil && SheetPart("2") == nil)
    }

    /// The parts of a 3-part render, and a function that assembles `parts` expecting a refusal
    /// of `kind` with `reason` in its words, naming `culprit`, with nothing written.
    func failing() throws -> (parts: [String], check: ([String], String, PartProblem, String) -> Void) {
        let (manifest, options) = try plan("m.json")
        let parts = try (1...3).map { number in
            let path = folder.file("part-\(number)")
            try Wall.render(
                part: try #require(SheetPart(number, of: 3)), ofManifestAt: manifest, to: path, options: options)
            return path
        }
        let output = TemporaryFolder()
        let check = { (given: [String], culprit: String, kind: PartProblem, reason: String) in
            do {
                try Wall.assemble(parts: given, to: output.file("sheet.png"))
                Issue.record("assembled \(given) despite \(reason)")
            } catch let error as PartError {
                #expect(error.kind == kind, "\(error.message)")
                #expect(error.message.contains(culprit) && error.message.contains(reason), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
            #expect(Fixtures.files(in: output.path).isEmpty && Fixtures.hiddenFiles(in: output.path).isEmpty)
        }
        return (parts, check)
    }

    @Test("a missing, duplicate, foreign, truncated, damaged or unknown part is refused by name, and nothing written")
    func refused() throws {
        let (parts, check) = try failing()
        check([parts[0], parts[2]], "assemble", .incomplete, "part 2 of 3 missing")
        check(parts + [parts[1]], parts[1], .repeated, "part 2 of 3 again")
        // A part of another manifest: the same layout, one option changed.
        var (other, options) = try plan("other.json")
        options.layout.columns = 2
        try ManifestWriter.write(
            Wall.manifest(of: try Wall(inputs: [Fixtures.sampleImages]).plan(options: options), options: options),
            to: other)
        let foreign = folder.file("foreign-2")
        try Wall.render(part: try #require(SheetPart(2, of: 3)), ofManifestAt: other, to: foreign, options: options)
        check([parts[0], foreign, parts[2]], foreign, .mismatched, "a part of another manifest")

        // The same manifest, rendered by a worker given other options.
        var linear = try plan("m.json").options
        linear.rendering.tile.linear = true
        let differing = folder.file("linear-2")
        try Wall.render(
            part: try #require(SheetPart(2, of: 3)), ofManifestAt: folder.file("m.json"), to: differing, options: linear
        )
        check([parts[0], differing, parts[2]], differing, .mismatched, "rendered with other settings")

        let whole = try #require(Fixtures.read(parts[1]))
        let truncated = folder.write(Array(whole.prefix(whole.count - 40)), to: "truncated-2")
        check([parts[0], truncated, parts[2]], truncated, .truncated, "truncated")
        var flipped = whole
        flipped[whole.count / 2] ^= 0x10
        let damaged = folder.write(flipped, to: "damaged-2")
        check([parts[0], damaged, parts[2]], damaged, .damaged, "damaged")
        let png = folder.write(try #require(Fixtures.read(Fixtures.sample("png-rgb.png"))), to: "not-a-part")
        check([parts[0], png, parts[2]], png, .notAPart, "not an ImageWall part file")
        let absent = folder.file("absent-2")
        check([parts[0], absent, parts[2]], absent, .unreadable, "No such file")
        #expect { try Wall.assemble(parts: [], to: folder.file("none.png")) } throws: {
            ($0 as? PartError)?.kind == .noParts
        }
        #expect { try Wall.assemble(parts: parts, to: folder.file("sheet.jpg")) } throws: {
            ($0 as? PartError)?.kind == .lossyOutput && access(folder.file("sheet.jpg"), F_OK) != 0
        }
    }

    @Test(
        "GNU parallel renders six parts of the command's manifest and assemble joins the same bytes",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary) && PartsTests.parallel != nil))
    func gnuParallel() throws {
        let binary = Self.binary
        let manifest = folder.file("m.json")
        let layout = try run(binary, ["layout", Fixtures.sampleImages, "--width", "800", "--json"])
        #expect(layout.status == 0)
        _ = folder.write(Array(layout.output), to: "m.json")
        let one = try run(binary, ["render", "--from-manifest", manifest, "-o", folder.file("one.png"), "--no-cache"])
        #expect(one.status == 0)
        let parallel = try run(
            try #require(PartsTests.parallel),
            [
                "-j2", binary, "render", "--from-manifest", manifest, "--part", "{}/6", "-o", folder.file("part-{}"),
                "--cache", cache.path, "-q", ":::", "1", "2", "3", "4", "5", "6",
            ])
        #expect(parallel.status == 0)
        let parts = (1...6).map { folder.file("part-\($0)") }
        let assembled = try run(binary, ["assemble"] + parts + ["-o", folder.file("sheet.png")])
        #expect(assembled.status == 0)
        #expect(Fixtures.read(folder.file("sheet.png")) == Fixtures.read(folder.file("one.png")))
        let missing = try run(binary, ["assemble"] + parts.dropLast() + ["-o", folder.file("bad.png")])
        #expect(missing.status == 1 && Fixtures.read(folder.file("bad.png")) == nil)
    }

    static let parallel = ["/usr/bin/parallel", "/usr/local/bin/parallel"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let result = try Fixtures.run(program, arguments)
        return (result.status, result.output)
    }
}
