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

/// The library's manifests and the older forms the reader takes, the check failing where it
/// must, and the schema's closed sets against the code's.
extension ManifestSchemaTests {
    @Test(
        "the library's manifests and the older forms the reader takes: sizes alone, a decode floor, goldens, batch recipes, no roots, pretty tiles"
    )
    func libraryAndOlderForms() throws {
        let photos = try photos()
        var manifests: [String] = []
        // Sizes without files, with a title and caption bands, written by the library; a render
        // with a gallery's decode floor.
        let sizes = (0..<40).map { Size(width: 300 + ($0 * 37) % 900, height: 300 + ($0 * 53) % 700) }
        var options = WallOptions()
        (options.layout.width, options.layout.maxPageHeight, options.layout.captionHeight) = (800, 1200, 16)
        options.rendering.title = "Sizes"
        try ManifestWriter.write(try Wall.manifest(ofSizes: sizes, options: options), to: output.file("sizes.json"))
        (options.layout.captionHeight, options.rendering.title) = (0, nil)
        options.rendering.tile.decodeFloor = 320
        let rendered = try Wall(inputs: [photos + "/a"]).render(
            to: output.file("floor.png"), manifest: output.file("floor.json"), options: options)
        manifests += [output.file("sizes.json"), output.file("floor.json")]
        // The goldens `imagewall check --update` wrote, and one `render --check --update` writes.
        let goldens = Fixtures.packageRoot + "/examples/fixtures/goldens"
        manifests += Fixtures.files(in: goldens).filter { $0.hasSuffix(".json") }.map { goldens + "/" + $0 }
        let check = try Fixtures.run(
            Fixtures.binary,
            [
                "render", photos + "/b", "--check", output.file("golden.png"), "--check-manifest",
                output.file("golden.json"), "--update", "--no-cache", "-q",
            ])
        #expect(check.status == 0, "\(check.errors)")
        manifests.append(output.file("golden.json"))
        // As a batch variant was recorded before 0.3 (a recipe: decoded for one size, resampled
        // through another), before roots and madeBy, every line indented: read, and replayed.
        var older = rendered
        (older.roots, older.madeBy) = (nil, nil)
        for i in older.tiles.indices {
            let shown = Size(width: older.tiles[i].sourceWidth, height: older.tiles[i].sourceHeight)
            (older.tiles[i].root, older.tiles[i].path) = (nil, nil)
            older.tiles[i].decodedFor = shown
            older.tiles[i].via = [Size(width: shown.width / 2, height: shown.height / 2)]
        }
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        output.write(Array(try pretty.encode(older)), to: "older.json")
        try render([
            "--from-manifest", output.file("older.json"), "-o", output.file("replayed.png"), "--manifest",
            output.file("replayed.json"),
        ])
        manifests += [output.file("older.json"), output.file("replayed.json")]
        try Self.expectValid(manifests)
        Self.expectHolding(
            ["\"decodeFloor\" : 320", "\"decodedFor\":{", "\"via\":[{", "\"text\" : \"Sizes\""], in: manifests)
        #expect(try Wall.readManifest(output.file("replayed.json")).tiles.allSatisfy { $0.via?.count == 1 })
    }

    @Test("the check can fail: a misspelt or new key, a wrong type, a value out of its set, a key missing or twice")
    func rejects() throws {
        let good = try imagewall(
            ["layout", Fixtures.sample("png-rgb.png"), Fixtures.sample("orientation-6.jpg"), "--json"],
            printingTo: "good.json")
        let text = String(decoding: try #require(Fixtures.read(good)), as: UTF8.self)
        // Each edit, and what the checker must say of it.
        let edits: [(name: String, from: String, to: String, says: String)] = [
            ("misspelt", "\"sourceWidth\":", "\"sourceWidht\":", "'sourceWidht' was unexpected"),
            ("new", "{\"cell\":", "{\"colour\":\"red\",\"cell\":", "'colour' was unexpected"),
            (
                "string", "\"orientation\":1,", "\"orientation\":\"1\",",
                "/tiles/0/orientation: '1' is not of type 'integer'"
            ),
            ("fraction", "\"index\":0,", "\"index\":0.5,", "/tiles/0/index: 0.5 is not of type 'integer'"),
            ("layout", "\"name\" : \"masonry\"", "\"name\" : \"spiral\"", "/layout/name: 'spiral' is not one of"),
            ("missing", "\"crop\":null,", "", "'crop' is a required property"),
            ("twice", "{\"cell\":", "{\"page\":0,\"cell\":", "'page' is written twice"),
            ("layoutKey", "\"tieTolerance\" : 0", "\"rowHeight\" : 300", "'tieTolerance' is a required property"),
            ("version", "\"version\" : 1", "\"version\" : 2", "/version: 1 was expected"),
        ]
        var files = [good]
        for edit in edits {
            let range = try #require(text.range(of: edit.from), "\(edit.name): \(edit.from) is not in the manifest")
            files.append(
                output.write(Array(text.replacingCharacters(in: range, with: edit.to).utf8), to: edit.name + ".json"))
        }
        let result = try Self.check(files)
        #expect(result.status == 1)
        #expect(!result.problems.contains { $0.hasPrefix(good + ":") }, "the manifest as written is valid")
        for edit in edits {
            let said = result.problems.filter { $0.hasPrefix(output.file(edit.name + ".json") + ": ") }
            #expect(said.contains { $0.contains(edit.says) }, "\(edit.name): \(said)")
        }
    }

    @Test("the schema's closed sets are the code's: every case allowed, and every value allowed one the reader takes")
    func closedSets() throws {
        let data = try #require(Fixtures.read(Self.schema))
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        /// The `enum` of property `name` of `$defs/object`.
        func values(_ object: String, _ name: String) throws -> [String] {
            let node = try #require(defs[object] as? [String: Any], "\(object)")
            let properties = try #require(node["properties"] as? [String: Any], "\(object)")
            let property = try #require(properties[name] as? [String: Any], "\(object).\(name)")
            return try #require(property["enum"] as? [String], "\(object).\(name) has an enum")
        }
        #expect(try values("layout", "name") == LayoutKind.allCases.map(\.rawValue))
        #expect(try values("layout", "direction") == Direction.allCases.map(\.rawValue))
        #expect(try values("layout", "fit") == Fit.allCases.map(\.rawValue))
        #expect(try values("layout", "gravity") == Gravity.allCases.map(\.rawValue))
        #expect(try values("layout", "lastRow") == LastRow.allCases.map(\.rawValue))
        #expect(try values("layout", "groupBy") == Grouping.allCases.map(\.rawValue))
        #expect(try values("tile", "format") == ImageFormat.allCases.map(\.rawValue))
        #expect(try values("render", "pngFilter") == PNGFilter.allCases.map(\.rawValue))
        #expect(try values("stack", "by") == StackMode.allCases.map(\.rawValue))
        // Sets the code does not list: each value the schema allows is one the reader takes.
        #expect(try values("tile", "mark").allSatisfy { TileMark(rawValue: $0) != nil })
        #expect(try values("tile", "dateFrom").allSatisfy { CaptureDate.Source(rawValue: $0) != nil })
        #expect(try values("stack", "chosenBy").allSatisfy { PictureStack.Choice(rawValue: $0) != nil })
        let top = try #require(schema["properties"] as? [String: Any])
        /// The `enum` of the `reason` of the items of the top level's list `name`.
        func itemReasons(_ name: String) throws -> [String] {
            let list = try #require(top[name] as? [String: Any])
            let items = try #require(list["items"] as? [String: Any])
            let properties = try #require(items["properties"] as? [String: Any])
            return try #require((properties["reason"] as? [String: Any])?["enum"] as? [String])
        }
        #expect(try itemReasons("ratedOut").allSatisfy { RatingFilter.Omission(rawValue: $0) != nil })
        #expect(try itemReasons("foldersNotRead").allSatisfy { FolderNotRead.Reason(rawValue: $0) != nil })
    }
}
