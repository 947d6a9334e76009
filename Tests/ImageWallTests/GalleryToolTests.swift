import ArgumentParser
import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallLayout
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Inputs and order")
struct InputOrderTests {
    let folder = TemporaryFolder()

    func plan(_ inputs: [String], _ configure: (inout WallOptions) -> Void = { _ in }) throws -> Plan {
        var options = WallOptions()
        configure(&options)
        return try Wall(inputs: inputs).plan(options: options)
    }

    func names(_ plan: Plan) -> [String] { plan.images.map { $0.path.split(separator: "/").last.map(String.init)! } }

    func populate() {
        let png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        for name in ["img10.png", "img2.png", "IMG1.png", "b.png", ".hidden.png"] { folder.write(png, to: name) }
        mkdir(folder.file("sub"), 0o755)
        FileManager.default.createFile(atPath: folder.file("sub/deep.png"), contents: Data(png))
    }

    @Test("natural order puts img2 before img10; reverse flips; keys are recorded")
    func natural() throws {
        populate()
        defer { unlink(folder.file("sub/deep.png")); rmdir(folder.file("sub")) }
        #expect(names(try plan([folder.path])) == ["IMG1.png", "b.png", "img10.png", "img2.png"])  // as given: bytes
        let sorted = try plan([folder.path]) { $0.sort = .natural }
        #expect(names(sorted) == ["b.png", "IMG1.png", "img2.png", "img10.png"])
        #expect(sorted.images.allSatisfy { $0.sortKey != nil })
        #expect(
            names(
                try plan([folder.path]) {
                    $0.sort = .natural; $0.reverse = true
                }) == ["img10.png", "img2.png", "IMG1.png", "b.png"])
    }

    @Test("recursion, include and exclude globs (case ignored), hidden files skipped")
    func scanning() throws {
        populate()
        defer { unlink(folder.file("sub/deep.png")); rmdir(folder.file("sub")) }
        #expect(names(try plan([folder.path]) { $0.scan.recursive = true }).contains("deep.png"))
        #expect(!names(try plan([folder.path])).contains("deep.png"))
        // Globs ignore case, as camera names (IMG_0001.JPG) need.
        #expect(names(try plan([folder.path]) { $0.scan.include = ["img*"] }) == ["IMG1.png", "img10.png", "img2.png"])
        #expect(
            names(
                try plan([folder.path]) {
                    $0.scan.exclude = ["img*", "*/sub/*"]; $0.scan.recursive = true
                }) == ["b.png"])
        #expect(!names(try plan([folder.path]) { $0.scan.recursive = true }).contains(".hidden.png"))
    }

    @Test("random order is the same for a seed, whatever the input order, and differs across seeds")
    func random() throws {
        let inputs = SampleCatalog.paths
        let a = names(
            try plan(inputs) {
                $0.sort = .random; $0.seed = 7
            })
        let b = names(
            try plan(inputs.reversed()) {
                $0.sort = .random; $0.seed = 7
            })
        let c = names(
            try plan(inputs) {
                $0.sort = .random; $0.seed = 8
            })
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a) == Set(c))
    }

    @Test("size, aspect and date orders")
    func keyed() throws {
        let bySize = try plan(SampleCatalog.paths) { $0.sort = .size }
        #expect(bySize.images.map(\.fileSize) == bySize.images.map(\.fileSize).sorted())
        let byAspect = try plan(SampleCatalog.paths) { $0.sort = .aspect }
        let aspects = byAspect.images.map { Double($0.info.displayedSize.width) / Double($0.info.displayedSize.height) }
        #expect(aspects == aspects.sorted())
        #expect(byAspect.images.first?.path.hasSuffix("tall-1x3-progressive-444.jpg") == true)
        // No EXIF dates in the samples: date falls back to the modification time.
        let byDate = try plan(SampleCatalog.paths) { $0.sort = .date }
        #expect(
            byDate.images.allSatisfy {
                if case .text(let t) = $0.sortKey! { return t.count == 19 } else { return false }
            })
    }

    @Test("--files-from takes 100,000 inputs: 1,000 files given 100 times each, each drawn once")
    func manyInputs() throws {
        let gray = Fixtures.read(Fixtures.sample("png-gray.png"))!
        let files = (0..<1000).map { folder.write(gray, to: "g\($0).png") }
        defer { for file in files { unlink(file) } }
        let list = folder.write(
            Array((0..<100_000).map { files[$0 % files.count] + "\n" }.joined().utf8), to: "list.txt")
        let command = try ImageWallCommand.Layout.parse([
            "--files-from", list, "--layout", "grid", "--columns", "100", "--width", "2010", "--gap", "0", "--padding",
            "5",
        ])
        _ = command  // parsed; the library does the work below
        let inputs = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
        var options = WallOptions()
        options.threads = 2
        (options.layout.kind, options.layout.columns) = (.grid, 100)
        let plan = try Wall(inputs: inputs).plan(options: options)
        #expect(inputs.count == 100_000 && plan.images.count == 1000 && plan.repeats.count == 99_000)
        #expect(plan.arrangement.placements.count == 1000)
    }
}

extension SampleCatalog {
    static var paths: [String] { all.map { Fixtures.sample($0.fileName) } }
}

@Suite("Batch variants, progress, cancellation")
struct VariantTests {
    let folder = TemporaryFolder()

    func options(columns: Int, width: Int = 600) -> WallOptions {
        var options = WallOptions()
        (options.layout.columns, options.layout.width, options.threads) = (columns, width, 2)
        return options
    }

    @Test("every variant is the same sheet, to the byte, as the variant rendered alone, and so is its manifest")
    func variants() throws {
        let jobs = [3, 5].flatMap { c in
            [400, 700].map { w in (output: folder.file("v\(c)x\(w).png"), options: options(columns: c, width: w)) }
        }
        let manifests = try Wall(inputs: [Fixtures.sampleImages]).render(
            variants: jobs, manifests: jobs.map { $0.output + ".json" })
        #expect(manifests.count == 4)
        for (manifest, job) in zip(manifests, jobs) {
            let single = try Wall(inputs: [Fixtures.sampleImages]).plan(options: job.options)
            #expect(
                manifest.tiles.map { [$0.x, $0.y, $0.width, $0.height] }
                    == single.arrangement.placements.map { [$0.image.x, $0.image.y, $0.image.width, $0.image.height] })
            let alone = folder.file("single.png")
            let aloneManifest = try Wall(inputs: [Fixtures.sampleImages]).render(to: alone, options: job.options)
            #expect(Fixtures.read(job.output) == Fixtures.read(alone), "\(job.output)")
            #expect(manifest.tiles == aloneManifest.tiles)
            #expect(manifest.tiles.allSatisfy { $0.via == nil && $0.decodedFor == nil })
        }
    }

    @Test("--from-manifest follows a recipe an earlier batch recorded, and not one that asks for nonsense")
    func variantFixtures() throws {
        let output = folder.file("f.png"), path = output + ".json"
        try Wall(inputs: [Fixtures.sampleImages]).render(to: output, manifest: path, options: options(columns: 4))
        var recorded = try Wall.readManifest(path)
        // As a batch before 0.3 recorded a tile made through a larger variant's whole tile.
        let index = try #require(recorded.tiles.firstIndex { $0.crop == nil && $0.width < $0.sourceWidth / 2 })
        let tile = recorded.tiles[index]
        let step = Size(width: tile.width * 2, height: tile.height * 2)
        recorded.tiles[index].decodedFor = step
        recorded.tiles[index].via = [step]
        let again = try Wall.render(from: recorded, to: folder.file("again.png"), options: WallOptions())
        #expect(again.tiles[index].via == [step] && again.tiles[index].decodedFor == step)
        let twice = try Wall.render(from: recorded, to: folder.file("twice.png"), options: WallOptions())
        #expect(Fixtures.read(folder.file("again.png")) == Fixtures.read(folder.file("twice.png")))
        #expect(twice.tiles == again.tiles)
        // A hand-edited recipe that asks for nonsense (a step bigger than the image, or empty)
        // is not followed: the tile is decoded for itself and the render goes on.
        var edited = recorded
        edited.tiles[index].via = [Size(width: 100_000, height: 100_000)]
        edited.tiles[(index + 1) % edited.tiles.count].decodedFor = Size(width: 0, height: 0)
        edited.tiles[(index + 1) % edited.tiles.count].via = [Size(width: 0, height: 5)]
        let redone = try Wall.render(from: edited, to: folder.file("edited.png"), options: WallOptions())
        #expect(redone.tiles[index].via == nil && redone.tiles[index].decodedFor == nil)
        #expect(try SheetDiff.load(folder.file("edited.png")).size == Size(width: edited.width, height: edited.height))
    }

    @Test("the command refuses variant outputs that would overwrite each other")
    func collision() {
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse(["x", "-o", "s.png", "--columns", "3,4"])
        }
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([
                "x", "-o", "s-{columns}.png", "--columns", "3,4", "--manifest", "m.json",
            ])
        }
        #expect(
            (try? ImageWallCommand.Render.parse([
                "x", "-o", "s-{columns}x{width}.png", "--columns", "3,4", "--width", "900,1200",
            ])) != nil)
    }

    @Test("progress goes through every phase and ends complete")
    func progress() throws {
        let seen = Mutex<[ProgressUpdate]>([])
        let options = options(columns: 4)
        let hooks = RunHooks(progress: ProgressReporter { update in seen.withLock { $0.append(update) } })
        try Wall(inputs: [Fixtures.sampleImages]).render(
            to: folder.file("p.png"), manifest: folder.file("p.json"), options: options, hooks: hooks)
        let updates = seen.withLock { $0 }
        let phases = updates.map(\.phase).reduce(into: [Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == [.probe, .layout, .render, .write])
        for phase in Phase.allCases { #expect(updates.last { $0.phase == phase }.map { $0.done == $0.total } == true) }
        #expect(updates.last { $0.phase == .render }?.total == SampleCatalog.all.count)
    }

    @Test("cancelling stops the render and leaves no file")
    func cancel() {
        let count = Atomic<Int>(0)
        var options = options(columns: 4)
        options.layout.maxPageHeight = 900
        let hooks = RunHooks(
            progress: ProgressReporter { _ in count.add(1, ordering: .relaxed) },
            isCancelled: { count.load(ordering: .relaxed) > 40 })
        #expect(throws: WallRunError.cancelled) {
            try Wall(inputs: [Fixtures.sampleImages]).render(to: folder.file("c.png"), options: options, hooks: hooks)
        }
        #expect(Fixtures.files(in: folder.path).isEmpty && Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }

    @Test("the async API reports progress and returns the manifest; cancelling its task cleans up")
    func async() async throws {
        let updates = Atomic<Int>(0)
        let manifest = try await Wall(inputs: [Fixtures.sampleImages]).render(
            to: folder.file("a.png"), options: options(columns: 4),
            progress: { _ in updates.add(1, ordering: .relaxed) })
        #expect(
            manifest.tiles.count == SampleCatalog.all.count
                && updates.load(ordering: .relaxed) > SampleCatalog.all.count)
        var finished = false
        for try await event in Wall(inputs: [Fixtures.sampleImages]).events(
            rendering: folder.file("e.png"), options: options(columns: 3))
        {
            if case .finished(let m) = event { finished = m.tiles.count == SampleCatalog.all.count }
        }
        #expect(finished)
        let target = folder.file("x.png"), big = options(columns: 2, width: 4000)
        let task = Task {
            try await Wall(inputs: [Fixtures.sampleImages]).render(to: target, options: big, progress: { _ in })
        }
        task.cancel()
        await #expect(throws: WallRunError.cancelled) { _ = try await task.value }
        #expect(Fixtures.read(folder.file("x.png")) == nil)
        #expect(Fixtures.hiddenFiles(in: folder.path).isEmpty)
    }
}

@Suite("Fixtures: diff, render again, HTML")
struct FixtureToolTests {
    let folder = TemporaryFolder()

    func render(_ inputs: [String], to name: String) throws -> Manifest {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (500, 3)
        return try Wall(inputs: inputs).render(
            to: folder.file(name), manifest: folder.file(name + ".json"), options: options)
    }

    @Test("diff counts changed pixels, draws them, names the tiles, and exits 0, 1 or 2")
    func diff() throws {
        let sources = folder.file("src")
        mkdir(sources, 0o755)
        defer { for f in Fixtures.files(in: sources) { unlink(sources + "/" + f) }; rmdir(sources) }
        for name in ["a.png", "b.png", "c.png"] {
            FileManager.default.createFile(
                atPath: sources + "/" + name, contents: Data(Fixtures.read(Fixtures.sample("png-rgb.png"))!))
        }
        let before = try render([sources], to: "before.png")
        // Paint a red block into b.png: same size, different pixels.
        var changed = try SheetDiff.load(sources + "/b.png")
        for y in 100..<150 {
            for x in 100..<150 {
                changed.pixels.replaceSubrange((y * 420 + x) * 3..<(y * 420 + x) * 3 + 3, with: [255, 0, 0])
            }
        }
        try PNGEncoder.write(changed, to: sources + "/b.png")
        _ = try render([sources], to: "after.png")
        let (result, mask, picture) = try SheetDiff.compare(
            try SheetDiff.load(folder.file("before.png")), try SheetDiff.load(folder.file("after.png")), tolerance: 2)
        #expect(result.changedPixels > 100 && result.maxDelta > 100)
        #expect(picture.pixels.contains(255))
        let after = try Wall.readManifest(folder.file("after.png.json"))
        let changes = SheetDiff.compare(
            before, after, mask: SheetDiff.ChangeMask(width: result.size.width, flags: mask))
        // Named by their path under the folder given.
        #expect(changes.changed == ["b.png"] && changes.moved.isEmpty && changes.appeared.isEmpty)
        // Exit statuses.
        let same = try ImageWallCommand.Diff.parse([folder.file("before.png"), folder.file("before.png")])
        try same.run()
        let different = try ImageWallCommand.Diff.parse([
            folder.file("before.png"), folder.file("after.png"), "-o", folder.file("d.png"),
        ])
        #expect(throws: ExitCode(1)) { try different.run() }
        #expect(Fixtures.read(folder.file("d.png")) != nil)
        let allowed = try ImageWallCommand.Diff.parse([
            folder.file("before.png"), folder.file("after.png"), "--max-diff-pixels", "5%",
        ])
        try allowed.run()
        _ = try render([Fixtures.sample("png-rgba.png")], to: "other.png")
        let mismatch = try ImageWallCommand.Diff.parse([folder.file("before.png"), folder.file("other.png")])
        #expect(throws: ExitCode(2)) { try mismatch.run() }
        #expect(throws: SheetDiff.SizeMismatch.self) {
            try SheetDiff.compare(
                Bitmap(size: Size(width: 1, height: 1), alpha: .none),
                Bitmap(size: Size(width: 2, height: 1), alpha: .none), tolerance: 0)
        }
    }

    @Test("--from-manifest renders the recorded layout again, even after a source changed size")
    func fromManifest() throws {
        var options = WallOptions()
        (options.layout.kind, options.layout.width, options.layout.columns) = (.grid, 600, 3)
        options.rendering.caption = try CaptionTemplate("{stem}")
        options.rendering.style = TileStyle(cornerRadius: 6)
        let manifest = try Wall(inputs: [Fixtures.sampleImages]).render(
            to: folder.file("first.png"), manifest: folder.file("first.json"), options: options)
        let again = try Wall.render(
            from: try Wall.readManifest(folder.file("first.json")), to: folder.file("again.png"), options: WallOptions()
        )
        #expect(Fixtures.read(folder.file("first.png")) == Fixtures.read(folder.file("again.png")))
        #expect(again.tiles.map(\.cell) == manifest.tiles.map(\.cell))
        // A source replaced by a bigger picture keeps its rectangle.
        let source = folder.file("grow.png")
        FileManager.default.createFile(atPath: source, contents: Data(Fixtures.read(Fixtures.sample("png-rgb.png"))!))
        let small = try Wall(inputs: [source]).render(
            to: folder.file("g1.png"), manifest: folder.file("g1.json"), options: options)
        FileManager.default.createFile(
            atPath: source, contents: Data(Fixtures.read(Fixtures.sample("panorama-4x1.jpg"))!))
        let redone = try Wall.render(
            from: try Wall.readManifest(folder.file("g1.json")), to: folder.file("g2.png"), options: WallOptions())
        #expect(redone.tiles[0].cell == small.tiles[0].cell && redone.tiles[0].sourceWidth == 800)
    }

    @Test("the HTML page links every tile to its source in percentages of its page, with relative, escaped links")
    func html() throws {
        let manifest = try render(
            [Fixtures.sample("png-rgb.png"), Fixtures.sample("orientation-6.jpg")], to: "sheet one.png")
        let page = GalleryPage.html(manifest, at: folder.file("index.html"))
        #expect(page.contains("src=\"./sheet%20one.png\""))
        #expect(page.components(separatedBy: "<a href=").count - 1 == 2)
        #expect(!page.contains("<map") && !page.contains("<area"))
        let tile = manifest.tiles[1]
        let sheet = manifest.pages[0]
        let left = String(format: "%.4f%%", Double(tile.x) * 100 / Double(sheet.width))
        let width = String(format: "%.4f%%", Double(tile.width) * 100 / Double(sheet.width))
        let top = String(format: "%.4f%%", Double(tile.y) * 100 / Double(sheet.height))
        let height = String(format: "%.4f%%", Double(tile.height) * 100 / Double(sheet.height))
        #expect(page.contains("style=\"left: \(left); top: \(top); width: \(width); height: \(height)\""))
        #expect(page.contains("aspect-ratio: \(sheet.width) / \(sheet.height)"))
        #expect(page.contains("title=\"orientation-6.jpg\" aria-label=\"orientation-6.jpg\""))
        #expect(page.contains("/SampleImages/png-rgb.png\""))
        #expect(page.contains("name=\"viewport\""))
        #expect(!page.contains("http://") && !page.contains("https://"))
    }

    @Test("one page for variants of different columns shows each window one, and the others' images are blank there")
    func variantsPage() throws {
        try ImageWallCommand.Render.parse([
            Fixtures.sample("png-rgb.png"), Fixtures.sample("orientation-6.jpg"), "-o", folder.file("v-{columns}.jpg"),
            "--columns", "2,4", "--width", "400", "--html", folder.file("v.html"), "-q",
        ]).run()
        let page = String(decoding: try #require(Fixtures.read(folder.file("v.html"))), as: UTF8.self)
        #expect(page.contains("src=\"./v-2.jpg\"") && page.contains("src=\"./v-4.jpg\""))
        #expect(page.components(separatedBy: "<a href=").count - 1 == 4, "each variant's own tile links")
        // 2 columns below 640 px, 4 from there; each variant's images blank outside its windows.
        #expect(page.contains("@media (max-width: 639.98px) { .variant-0 { display: block; } }"))
        #expect(page.contains("@media (min-width: 640px) { .variant-1 { display: block; } }"))
        #expect(page.contains("<source media=\"(min-width: 640px)\" srcset=\"data:image/gif"))
        #expect(page.contains("<source media=\"(max-width: 639.98px)\" srcset=\"data:image/gif"))
        #expect(page.contains("loading=\"lazy\""))
        // Variants of the same columns cannot share a page.
        #expect(throws: (any Error).self) {
            try ImageWallCommand.Render.parse([
                Fixtures.sampleImages, "-o", "w-{width}.png", "--width", "400,800", "--html", "w.html",
            ])
        }
    }

    @Test("a gallery page shows the originals a browser cannot through JPEG renditions beside it, upright")
    func renditions() throws {
        let sources = ["heic-rotated-6.heic", "png-rgb.png", "video-rotated-6.mov", "tiff-rgba-lzw.tif"]
        let manifest = try render(sources.map(Fixtures.sample), to: "r.png")
        let warnings = try GalleryPage.write(manifest, to: folder.file("r.html"))
        #expect(warnings.isEmpty)
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.file("r_files/renditions")).sorted()
        #expect(made.count == 3 && !made.contains { $0.contains("png-rgb") }, "\(made)")
        let page = String(decoding: try #require(Fixtures.read(folder.file("r.html"))), as: UTF8.self)
        for name in made {
            #expect(page.contains("data-view=\"./r_files/renditions/\(name)\""))
            let rendition = try SheetDiff.load(folder.file("r_files/renditions/\(name)"))
            let source = try #require(sources.first { name.contains(($0 as NSString).deletingPathExtension) })
            let shown = try ImageProbe().probe(path: Fixtures.sample(source)).displayedSize
            // Upright as displayed: the same shape as the source shown, at most 2048 px long.
            let aspect = Double(rendition.size.width) / Double(rendition.size.height)
            #expect(abs(aspect - Double(shown.width) / Double(shown.height)) < 0.02, "\(name): \(rendition.size)")
            #expect(max(rendition.size.width, rendition.size.height) <= GalleryRenditions.longSide)
        }
        #expect(page.contains("<dialog") && page.contains("ArrowRight"))
        // The PNG sheet stays the fixture; the page shows a JPEG copy of it, of the same size.
        #expect(page.contains("src=\"./r_files/sheets/1-r.jpg\""))
        let copy = try SheetDiff.load(folder.file("r_files/sheets/1-r.jpg"))
        let sheet = try SheetDiff.load(folder.file("r.png"))
        #expect(copy.size == sheet.size)
        #expect(
            try #require(Fixtures.read(folder.file("r_files/sheets/1-r.jpg"))).count
                < (try #require(Fixtures.read(folder.file("r.png")))).count)
    }

    @Test("every command's help has examples; --version answers")
    func help() {
        for command in [
            ImageWallCommand.Render.self, ImageWallCommand.Layout.self, ImageWallCommand.Probe.self,
            ImageWallCommand.Diff.self,
        ] as [any ParsableCommand.Type] {
            #expect(ImageWallCommand.helpMessage(for: command).contains("EXAMPLES"), "\(command)")
        }
        #expect(ImageWallCommand.configuration.version == Wall.version)
        let render = ImageWallCommand.helpMessage(for: ImageWallCommand.Render.self)
        for option in [
            "--recursive", "--include", "--exclude", "--files-from", "--sort", "--reverse", "--seed", "--quiet",
            "--verbose", "--progress", "--from-manifest", "--html", "{columns}",
        ] {
            #expect(render.contains(option), "\(option)")
        }
    }
}
