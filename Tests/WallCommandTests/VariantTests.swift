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

@Suite("Batch variants, progress, cancellation")
struct VariantTests {
    let folder = TemporaryFolder()

    func options(columns: Int, width: Int = 600) -> WallOptions {
        var options = WallOptions()
        (options.layout.columns, options.layout.width, options.limits.threads) = (columns, width, 2)
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
        for phase in phases { #expect(updates.last { $0.phase == phase }.map { $0.done == $0.total } == true) }
        #expect(updates.last { $0.phase == .render }?.total == SampleCatalog.all.count)

        // With --stack, the pictures compared are a phase of their own, after the probe.
        var stacking = options
        stacking.input.stacking = StackOptions(mode: .similar)
        let stacked = Mutex<[ProgressUpdate]>([])
        try Wall(inputs: [Fixtures.sampleImages]).render(
            to: folder.file("s.png"), options: stacking,
            hooks: RunHooks(progress: ProgressReporter { update in stacked.withLock { $0.append(update) } }))
        let stackUpdates = stacked.withLock { $0 }
        let stackPhases = stackUpdates.map(\.phase).reduce(into: [Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(stackPhases == [.probe, .stack, .layout, .render, .write])
        #expect(stackUpdates.last { $0.phase == .stack }.map { $0.done == $0.total && $0.total > 0 } == true)
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
