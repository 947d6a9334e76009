import Foundation
import Testing
import WallCore
import WallJSON
import _WallTestSupport

@testable import ImageWall

@Suite("Manifest reader")
struct ManifestReaderTests {
    let folder = TemporaryFolder()

    /// A manifest of `count` tiles whose sources hold every character that means something to
    /// the splitter (brackets, commas, quotes, backslashes, the word "tiles"), of many lengths,
    /// so that strings and escapes straddle the reader's 1 MB reads and its batches.
    func awkwardManifest(count: Int) throws -> Manifest {
        let sizes = (0..<count).map { Size(width: 200 + ($0 * 37) % 3000, height: 200 + ($0 * 53) % 2000) }
        var manifest = try Wall.manifest(ofSizes: sizes, options: WallOptions())
        let pieces = ["]", "[", "{", "}", ",", "\"", "\\", "\"tiles\" : [", "é", "\n", ":", " "]
        let root = "a \"tiles\" : [ folder"
        for i in manifest.tiles.indices {
            let filler = String(repeating: "x", count: (i * 7919) % 300)
            let path =
                "dir\(i)/" + pieces[i % pieces.count] + filler + pieces[(i / 3) % pieces.count] + "/"
                + pieces[(i / 5) % pieces.count] + "\(i).jpg"
            // Each source is its path under its root, as a render writes it.
            (manifest.tiles[i].source, manifest.tiles[i].path, manifest.tiles[i].root) = (root + "/" + path, path, 0)
            if i % 1000 == 7 { manifest.tiles[i].warnings = ["a ] warning, with \"tiles\" : [ in it"] }
            if i % 2500 == 3 { manifest.tiles[i].crop = Region(x: 0.25, y: 1e-3, width: 10.5, height: 7) }
        }
        manifest.roots = [Manifest.Root(path: root, fromManifest: nil)]
        manifest.ignored = ["tiles", "]"]
        return manifest
    }

    @Test("a big manifest with awkward text reads back equal, tiles in order")
    func awkwardRoundTrip() throws {
        let manifest = try awkwardManifest(count: 30_000)
        let path = folder.write(Array(try ManifestWriter.encode(manifest)), to: "m.json")
        #expect((Fixtures.read(path)?.count ?? 0) > 3 << 20)  // several reads and batches
        // Decoded in batches on one thread or several, the same manifest.
        for threads in [1, 3] {
            let read = try Wall.readManifest(path, threads: threads)
            #expect(read.tiles.count == manifest.tiles.count)
            #expect(read.tiles.map(\.index) == Array(0..<30_000))
            #expect(read == manifest)
        }
    }

    @Test("tiles read directly are the tiles the decoder reads; any other shape goes to the decoder, errors the same")
    func quickTiles() throws {
        let plain =
            #"{"cell":{"height":244,"width":487,"x":10,"y":10},"crop":null,"format":"jpeg","height":244,"index":0,"#
            + #""orientation":6,"page":1,"path":"a\\\"b.jpg","root":0,"section":2,"source":"d/a\\\"b.jpg","#
            + #""sourceHeight":2547,"sourceWidth":5089,"warnings":["w ]"],"width":487,"x":10,"y":12}"#
        func variant(_ from: String, _ to: String) -> String {
            let changed = plain.replacingOccurrences(of: from, with: to)
            precondition(changed != plain, from)
            return changed
        }
        let read = [
            (plain, true),
            (variant(#""format":"jpeg","#, ""), true),  // optional members absent
            (variant(#""root":0"#, #""root":null"#), false),
            (variant(#""x":10,"y":12}"#, #""x":10.0,"y":12}"#), false),  // a whole number with a fraction
            (variant(#""y":12}"#, #""y":12,"x":99}"#), false),  // a member twice: the first counts
            (variant(#""crop":null"#, #""crop":{"height":2,"width":3,"x":0.5,"y":1}"#), true),
            (variant(#""crop":null"#, #""crop":{"height":2,"width":3,"x":0.5,"y":1,"z":0}"#), false),
            (variant(#""crop":null"#, #""caption":{"height":20,"width":487,"x":10,"y":254},"crop":null"#), false),
            (variant(#""cell":{"height":244,"#, #""cell":{"height":244,"depth":1,"#), false),
        ]
        let text = Array(("[" + read.map(\.0).joined(separator: ",") + "]").utf8)
        let reader = JSONReader()
        let decoded = try reader.decode([Manifest.Tile].self, from: text)
        var quick: [Bool] = []
        let direct = try reader.decodeElements(Manifest.Tile.self, from: text) { value in
            let tile = value.read(Manifest.Tile.Reading.self)
            quick.append(tile != nil)
            return tile
        }
        #expect(direct == decoded)
        #expect(quick == read.map(\.1))
        #expect(decoded[0].path == #"a\"b.jpg"# && decoded[0].warnings == ["w ]"] && decoded[0].y == 12)
        #expect(decoded[3].x == 10 && decoded[4].x == 10 && decoded[5].crop?.x == 0.5 && decoded[7].caption != nil)
        // A tile missing a member or holding a wrong kind: the decoder's error, at the same place.
        for broken in [variant(#""section":2,"#, ""), variant(#""page":1"#, #""page":"1""#)] {
            let text = Array(("[" + plain + "," + broken + "]").utf8)
            func place(_ error: any Error) -> [String] {
                guard let error = error as? DecodingError else { return ["not a DecodingError"] }
                switch error {
                case .keyNotFound(let key, let context):
                    return context.codingPath.map(\.stringValue) + [key.stringValue]
                case .typeMismatch(_, let context): return context.codingPath.map(\.stringValue)
                default: return ["\(error)"]
                }
            }
            var expected: [String] = [], got: [String] = []
            do { _ = try reader.decode([Manifest.Tile].self, from: text) } catch { expected = place(error) }
            do {
                _ = try reader.decodeElements(
                    Manifest.Tile.self, from: text, quickly: { $0.read(Manifest.Tile.Reading.self) })
            } catch {
                got = place(error)
            }
            #expect(!expected.isEmpty && got == expected, "\(broken)")
        }
    }

    @Test("tiles of random shapes: read directly, scanned or by the decoder, the same tiles or the same error")
    func quickTilesAtRandom() throws {
        var random = SeededGenerator(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { Int(random.next() >> 33) % bound }
        let numbers = ["height", "index", "orientation", "page", "root", "section", "sourceHeight", "sourceWidth"]
        let texts = ["format", "path", "source"]
        let names = numbers + texts + ["width", "x", "y", "cell", "crop", "warnings", "caption", "mark"]
        // A value of the kind the member holds most of the time, else of another kind.
        func value(of name: String) -> String {
            let odd = next(16) == 0
            switch (name, odd ? next(7) : -1) {
            case (_, 0): return "null"
            case (_, 1): return "\(next(100)).0"
            case (_, 2): return "\"\(next(10))\""
            case (_, 3): return "[]"
            case (_, 4): return "{}"
            case (_, 5): return "\(Int64.max)0"
            case (_, 6): return "true"
            case ("cell", _), ("caption", _):
                let sides = ["x", "y", "width", "height"].filter { _ in next(12) != 0 }
                return "{" + sides.map { "\"\($0)\":\(next(500))" }.joined(separator: ",") + "}"
            case ("crop", _): return next(3) == 0 ? #"{"x":0.5,"y":1,"width":10,"height":8}"# : "null"
            case ("warnings", _): return next(2) == 0 ? "[]" : #"["a \"w\"", "b"]"#
            case ("mark", _): return #""video""#
            case _ where texts.contains(name): return "\"f\(next(1000)).jpg\""
            default: return "\(next(5000))"
            }
        }
        enum Outcome: Equatable {
            case tiles([Manifest.Tile])
            case failed(String)
        }
        let reader = JSONReader()
        var (quick, scannedTiles) = (0, 0)
        for _ in 0..<300 {
            // Half the tiles as a render writes them (optional members now and then absent),
            // half of any members at all, a member twice now and then.
            let written = names.filter { !["caption", "mark"].contains($0) }
            let members =
                next(2) == 0
                ? written.filter { !["format", "path", "root", "crop"].contains($0) || next(4) != 0 }
                : names.filter { _ in next(10) != 0 } + (next(6) == 0 ? [names[next(names.count)]] : [])
            var order = members
            for i in order.indices.reversed() where i > 0 { order.swapAt(i, next(i + 1)) }
            let tile = "{" + order.map { "\"\($0)\":\(value(of: $0))" }.joined(separator: ",") + "}"
            let text = Array("[\(tile)]".utf8)
            var expected: Outcome
            do { expected = .tiles(try reader.decode([Manifest.Tile].self, from: text)) } catch {
                expected = .failed("\(error)")
            }
            var got: Outcome
            do {
                got = .tiles(
                    try reader.decodeElements(Manifest.Tile.self, from: text) { view in
                        let read = view.read(Manifest.Tile.Reading.self)
                        if read != nil { quick += 1 }
                        return read
                    })
            } catch {
                got = .failed("\(error)")
            }
            #expect(got == expected, "\(tile)")
            // The scanner, which reads the bulk of a big manifest, reads the same tile or none.
            if let scanned = text.withUnsafeBytes({ JSONScanner.read(Manifest.Tile.Reading.self, inArray: $0) }) {
                scannedTiles += 1
                #expect(.tiles(scanned) == expected, "\(tile)")
            }
        }
        #expect(quick > 10, "the direct reading was tried on tiles it reads: \(quick)")
        #expect(scannedTiles > 10, "the scanner read tiles: \(scannedTiles)")
    }

    @Test("a selection reads only the tiles it keeps, in order, each with its index in the wall")
    func selection() throws {
        let manifest = try awkwardManifest(count: 30_000)
        let path = folder.write(Array(try ManifestWriter.encode(manifest)), to: "m.json")
        let whole = try ManifestReader.read(path, threads: 2)
        var asked: [Manifest.Page] = []
        let kept = try ManifestReader.read(path, threads: 2) { rest in
            asked = rest.pages
            return { page, cell in page == 0 && cell.y >= 100_000 && cell.y < 160_000 || cell.x > 1_000 }
        }
        #expect(asked == manifest.pages && !asked.isEmpty)
        #expect(kept.identity == whole.identity)
        let expected = manifest.tiles.filter { $0.cell.y >= 100_000 && $0.cell.y < 160_000 || $0.cell.x > 1_000 }
        #expect(expected.count > 100 && expected.count < 29_000)
        #expect(kept.manifest.tiles == expected)
        var rest = kept.manifest
        rest.tiles = manifest.tiles
        #expect(rest == manifest)
        // A kept tile that is broken is named by its index in the wall.
        let text = String(decoding: try ManifestWriter.encode(manifest), as: UTF8.self)
        let victim = try #require(expected.last { $0.cell.x > 1_000 }).index
        let broken = "\"index\":\(victim),"
        _ = folder.write(Array(text.replacingOccurrences(of: broken, with: "").utf8), to: "m.json")
        #expect {
            _ = try ManifestReader.read(path, threads: 2) { _ in { _, cell in cell.x > 1_000 } }
        } throws: {
            ($0 as? ManifestError)?.kind == .notAManifest
                && ($0 as? ManifestError)?.reason.contains("tiles[\(victim)]") == true
        }
    }

    @Test("a selection keeps the same tiles from text written otherwise, and a tile that is not JSON still fails it")
    func selectionOfOtherText() throws {
        let manifest = try awkwardManifest(count: 12_000)
        let written = String(decoding: try ManifestWriter.encode(manifest), as: UTF8.self)
        // Escapes a render does not write, pages with a fraction, spaces inside cells: each a
        // few tiles, in different batches.
        var text = written.replacingOccurrences(of: "é", with: "\\u00e9")
        for index in [5, 4_500, 11_999] {
            let page = "\"index\":\(index),\"orientation\":1,\"page\":0,"
            #expect(text.contains(page))
            text = text.replacingOccurrences(
                of: page, with: page.replacingOccurrences(of: "page\":0", with: "page\":0.0"))
        }
        for index in [77, 7_777] {
            let cell = manifest.tiles[index].cell
            let compact = "\"cell\":{\"height\":\(cell.height),\"width\":\(cell.width),\"x\":\(cell.x),\"y\":\(cell.y)}"
            #expect(text.contains(compact))
            text = text.replacingOccurrences(of: compact, with: compact.replacingOccurrences(of: ",", with: " ,\n "))
        }
        #expect(text != written)
        let path = folder.write(Array(text.utf8), to: "m.json")
        let keep: (Int, Manifest.Box) -> Bool = { _, cell in cell.x > 1_000 || cell.y % 7 == 0 }
        let kept = try ManifestReader.read(path, threads: 2) { _ in keep }.manifest.tiles
        let expected = try Wall.readManifest(path).tiles.filter { keep($0.page, $0.cell) }
        #expect(kept == expected && expected.count > 1_000)
        #expect(expected == manifest.tiles.filter { keep($0.page, $0.cell) })
        // A number no JSON has, in a tile the selection does not keep: the manifest is still no JSON.
        let victim = try #require(manifest.tiles.first { !keep($0.page, $0.cell) && $0.index > 5_000 })
        let index = "\"index\":\(victim.index),"
        _ = folder.write(
            Array(written.replacingOccurrences(of: index, with: "\"index\":0\(victim.index),").utf8), to: "m.json")
        #expect {
            _ = try ManifestReader.read(path, threads: 2) { _ in keep }
        } throws: {
            ($0 as? ManifestError)?.kind == .notAManifest
                && ($0 as? ManifestError)?.reason.contains("not JSON") == true
        }
    }

    @Test(
        "JSON laid out otherwise (no spaces, keys in any order, tiles not last, older pretty tiles) reads as Foundation reads it"
    )
    func otherLayouts() throws {
        let manifest = try awkwardManifest(count: 50)
        let encoder = JSONEncoder()
        let compact = try encoder.encode(manifest)
        let path = folder.write(Array(compact), to: "compact.json")
        #expect(try Wall.readManifest(path) == JSONDecoder().decode(Manifest.self, from: compact))
        var empty = manifest
        empty.tiles = []
        _ = folder.write(Array(try encoder.encode(empty)), to: "compact.json")
        #expect(try Wall.readManifest(path) == empty)
        // Manifests written before tiles went one to a line: all of it pretty, parts too.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let pretty = folder.write(Array(try encoder.encode(manifest)), to: "pretty.json")
        #expect(try Wall.readManifest(pretty) == manifest)
        let some = try ManifestReader.read(pretty, threads: 1) { _ in { _, cell in cell.x < 500 } }.manifest.tiles
        #expect(some == manifest.tiles.filter { $0.cell.x < 500 } && !some.isEmpty)
    }

    @Test("a broken manifest is an error naming the file and what is wrong, never a crash")
    func brokenManifests() throws {
        let manifest = try awkwardManifest(count: 10_000)
        let text = String(decoding: try ManifestWriter.encode(manifest), as: UTF8.self)
        let path = folder.file("broken.json")
        func reason(_ text: String) -> String? {
            _ = folder.write(Array(text.utf8), to: "broken.json")
            do {
                _ = try Wall.readManifest(path)
                return nil
            } catch let error as ManifestError {
                #expect(error.message.hasPrefix(path + ": "))
                #expect(error.kind == .notAManifest, "\(error.message)")
                return error.reason
            } catch {
                Issue.record("not a ManifestError: \(error)")
                return "other"
            }
        }
        // Cut anywhere: in the tiles, in a string, before the end.
        for cut in [10, text.utf8.count / 3, text.utf8.count / 2 + 1, text.utf8.count - 3] {
            #expect(reason(String(decoding: Array(text.utf8)[..<cut], as: UTF8.self)) != nil)
        }
        // A field missing from tile 9,000 (in a later batch) is named with the tile's index.
        let tile = "\"index\":9000,"
        #expect(text.contains(tile))
        let missing = reason(text.replacingOccurrences(of: tile, with: ""))
        #expect(missing?.contains("tiles[9000]") == true, "\(missing ?? "")")
        #expect(missing?.contains("index") == true)
        // The list's commas.
        #expect(reason(text.replacingOccurrences(of: "\n  ]", with: ",\n  ]"))?.contains("comma") == true)
        #expect(
            reason(text.replacingOccurrences(of: "},\n    {\"", with: "}\n    {\""))?.contains("comma") == true)
        #expect(reason(text.replacingOccurrences(of: "\"tiles\" : [\n", with: "\"tiles\" : [\n,")) != nil)
        // No tiles at all, not JSON, not a file.
        #expect(reason(text.replacingOccurrences(of: "\"tiles\" :", with: "\"tilez\" :"))?.contains("tiles") == true)
        #expect(reason("GIF89a") != nil)
        #expect(reason("") != nil)
        #expect(throws: ManifestError.self) { try Wall.readManifest(folder.file("absent.json")) }
        #expect {
            try Wall.readManifest(folder.file("absent.json"))
        } throws: {
            ($0 as? ManifestError)?.kind == .unreadable
        }
    }

    @Test("every value a render takes is checked on reading: the tile and field named, no crash, nothing written")
    func handEdited() throws {
        var options = WallOptions()
        options.layout.width = 600
        let manifest = try Wall.manifest(
            ofSizes: [Size(width: 400, height: 300), Size(width: 300, height: 400)], options: options)
        let page = manifest.pageSizes[0]
        let edits: [(String, (inout Manifest) -> Void, String)] = [
            ("a negative width", { $0.tiles[1].width = -50 }, "tile 1 (sizes[1]): its image is -50x"),
            (
                "a crop outside the source", { $0.tiles[0].crop = Region(x: -50, y: 0, width: 100_000, height: 10) },
                "tile 0 (sizes[0]): its crop (100000.0x10.0 at -50.0,0.0) is not inside its 400x300 source"
            ),
            ("a tile off the page's edge", { $0.tiles[0].x = page.width - 10 }, "tile 0 (sizes[0]): its image"),
            ("a cell off the page", { $0.tiles[0].cell.y = -1 }, "tile 0 (sizes[0]): its cell"),
            ("a page that is not there", { $0.tiles[1].page = 3 }, "tile 1 (sizes[1]): its image is on page 4 of 1"),
            ("an empty page", { $0.pages[0].height = 0 }, "page 1 is"),
            ("an orientation EXIF has not", { $0.tiles[0].orientation = 9 }, "tile 0 (sizes[0]): orientation 9"),
            ("a source of no pixels", { $0.tiles[0].sourceWidth = 0 }, "tile 0 (sizes[0]): its source is 0x300 px"),
            ("a negative gap", { $0.layout.configuration.columnGap = -4 }, "layout: invalid layout: column gap"),
            (
                "a border that blanks every tile", { $0.render?.style.border = 1_000_000_000 },
                "render: border 1000000000"
            ),
            ("a negative corner radius", { $0.render?.style.cornerRadius = -5 }, "render: cornerRadius -5"),
            ("a version to come", { $0.version = 999 }, "version 999, where this ImageWall reads versions 1 to 1"),
            (
                "a root that is not listed",
                {
                    $0.roots = [Manifest.Root(path: "photos")]
                    $0.tiles[0].root = 7
                }, "tile 0 (sizes[0]): root 7 of the 1 the manifest lists"
            ),
            (
                "a source that is not its path under its root",
                {
                    $0.roots = [Manifest.Root(path: "photos")]
                    ($0.tiles[0].root, $0.tiles[0].path, $0.tiles[0].source) = (0, "a.jpg", "/etc/passwd")
                }, "tile 0 (/etc/passwd): its source is not its path a.jpg under its root photos"
            ),
        ]
        // The same manifest with its sources where a render writes them reads back.
        var rooted = manifest
        rooted.roots = [Manifest.Root(path: "./photos/")]
        (rooted.tiles[0].root, rooted.tiles[0].path, rooted.tiles[0].source) = (0, "a.jpg", "photos/a.jpg")
        (rooted.tiles[1].root, rooted.tiles[1].path, rooted.tiles[1].source) = (0, "b.jpg", "./photos//b.jpg")
        let elsewhere = TemporaryFolder()
        _ = try Wall.readManifest(elsewhere.write(Array(try ManifestWriter.encode(rooted)), to: "a.json"))
        // Replayed with --root, or from where the manifest moved: the source lies elsewhere.
        rooted.roots?.append(Manifest.Root(path: "photos"))
        (rooted.tiles[1].root, rooted.tiles[1].path, rooted.tiles[1].source) = (1, "sub/b.jpg", "/ci/photos/sub/b.jpg")
        _ = try Wall.readManifest(elsewhere.write(Array(try ManifestWriter.encode(rooted)), to: "rooted.json"))
        for (what, edit, expected) in edits {
            var edited = manifest
            if edited.render == nil { edited.render = RenderSettings() }
            edit(&edited)
            let path = folder.write(Array(try ManifestWriter.encode(edited)), to: "edited.json")
            do {
                _ = try Wall.readManifest(path)
                Issue.record("\(what): read without a word")
            } catch let error as ManifestError {
                #expect(error.kind == .notDrawable, "\(what): \(error.reason)")
                #expect(error.reason.contains(expected), "\(what): \(error.reason)")
            }
        }
        // The command says so and writes nothing, not even a temporary file.
        var edited = manifest
        edited.tiles[1].width = -50
        let path = folder.write(Array(try ManifestWriter.encode(edited)), to: "edited.json")
        let run = try Fixtures.run(
            Fixtures.binary, ["render", "--from-manifest", path, "-o", folder.file("out.png"), "-q"])
        #expect(run.status == 1 && run.errors.contains("tile 1 (sizes[1]): its image is -50x"), "\(run.errors)")
        #expect(Fixtures.files(in: folder.path) == ["edited.json"] && Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }
}
