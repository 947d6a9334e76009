import Foundation
import WallCache
import WallCodecs
import WallCompositor
import WallCore
import WallLayout

/// The one render sequence, for a plain render, batch variants and a replayed manifest alike:
/// page sizes checked and outputs named before anything is decoded; every tile made by one
/// ``TileMaker``; pages painted in bands and streamed to PNGs in temporary files; all files put
/// in place together once every page is complete; then the manifests.
struct SheetRender {
    /// One sheet: its plan, its options, the files of its pages and their format, and its
    /// manifest's path.
    struct Job {
        var plan: Plan
        var options: WallOptions
        var pages: [String]
        var format: PageFormat
        var manifest: String?
    }

    var jobs: [Job]
    let hooks: RunHooks

    /// Jobs that lay out the same images (several for batch variants, which share every decode).
    init(jobs: [Job], hooks: RunHooks) {
        precondition(!jobs.isEmpty && jobs.allSatisfy { $0.plan.images == jobs[0].plan.images })
        self.jobs = jobs
        self.hooks = hooks
    }

    /// Renders every job and writes its manifest; returns the manifests.
    func run() throws -> [Manifest] {
        var jobs = self.jobs
        for job in jobs {
            guard job.pages.count == job.plan.arrangement.pages.count else { throw WallRunError.manifestWithoutPages }
            try SheetSizeError.check(
                job.plan.arrangement.pages, cap: job.format.isPixelCapped ? job.options.maxSheetPixels : Int.max)
        }
        let images = jobs[0].plan.images
        try refuseOverwritingInputs(
            outputs: jobs.flatMap { $0.pages + [$0.manifest].compactMap { $0 } }, images: images)
        let warnings = TileWarnings(images: images, diagnostics: hooks.diagnostics)
        let cache = jobs[0].options.cache.map(RenderCache.init)
        defer { if let cache { finish(cache) } }
        let maker = TileMaker(images: images, options: jobs[0].options, hooks: hooks, warnings: warnings, cache: cache)
        let files: [any CompletedPage]
        if jobs.count == 1 {
            files = try renderAsNeeded(jobs[0], maker: maker, cache: cache)
        } else {
            shareDecodes(&jobs, margin: maker.decoder.margin)
            files = try renderThroughSpills(jobs, maker: maker, cache: cache)
        }
        hooks.progress?.begin(.write, total: 1)
        for file in files { try file.commit() }
        let manifests = jobs.map { job in
            Manifest(plan: job.plan, options: job.options, outputs: job.pages, messages: warnings)
        }
        for (job, manifest) in zip(jobs, manifests) {
            if let path = job.manifest { try ManifestWriter.write(manifest, to: path) }
        }
        hooks.progress?.advance(.write)
        return manifests
    }

    /// Part `part` of the one job's sheet, to the part file `path`: only the tiles its rows
    /// meet are made, and nothing else is written. With `deepZoom`, the part also holds the
    /// top-level Deep Zoom tiles its rows hold whole, in that format. Returns the part's header.
    func runPart(_ part: SheetPart, manifestID: String, to path: String, deepZoom: DeepZoomTileFormat? = nil) throws
        -> PartHeader
    {
        precondition(jobs.count == 1)
        let job = jobs[0]
        let plan = job.plan
        try SheetSizeError.check(plan.arrangement.pages, cap: job.options.maxSheetPixels)
        try refuseOverwritingInputs(outputs: [path], images: plan.images)
        let warnings = TileWarnings(images: plan.images, diagnostics: hooks.diagnostics)
        let cache = job.options.cache.map(RenderCache.init)
        defer { if let cache { finish(cache) } }
        let maker = TileMaker(images: plan.images, options: job.options, hooks: hooks, warnings: warnings, cache: cache)
        let cells = try CellMaker(plan: plan, options: job.options)
        let pages = plan.arrangement.pages
        let rows = part.rows(of: pages)
        let header = PartHeader(
            manifest: manifestID, part: part.number, parts: part.count, software: PageWriter.software,
            settings: SheetRender.settingsID(job.options),
            compression: job.options.rendering.compression,
            pages: pages.map { .init(width: $0.width, height: $0.height, alpha: !job.options.background.isOpaque) },
            deepZoom: deepZoom, rows: rows)
        let hooks = self.hooks
        let tiles = Set(
            rows.flatMap { r in
                plan.arrangement.tiles(
                    intersecting: Rect(x: 0, y: r.from, width: pages[r.page].width, height: r.to - r.from), page: r.page
                )
            })
        hooks.progress?.begin(.render, total: tiles.count)
        let writer = PageWriter(
            plan: plan, options: job.options, hooks: hooks, cells: cells, threads: job.options.threads, cache: cache)
        if deepZoom == .jpeg && !job.options.background.isOpaque {
            throw CodecError(
                .write, path: path, reason: "JPEG tiles cannot hold a transparent background: use PNG tiles")
        }
        let file = try AtomicFile(destination: path)
        var spill: String?
        defer { if let spill { try? FileManager.default.removeItem(atPath: spill) } }
        do {
            let part = try PartWriter(file: file, header: header)
            var made: [PartTiles] = []
            for r in rows {
                var pyramid: PartTiles?
                if let deepZoom {
                    if spill == nil { spill = try PrivateFolder(beside: path, tag: "tiles").path }
                    pyramid = PartTiles(
                        page: r.page, size: pages[r.page], painted: max(0, r.from - 1)..<r.to,
                        channels: job.options.background.isOpaque ? 3 : 4, format: deepZoom, folder: spill!)
                }
                try writer.paint(
                    page: r.page, rows: r.range, into: part.sink(page: r.page),
                    cell: { index in
                        defer { if tiles.contains(index) { hooks.progress?.advance(.render) } }
                        let pixels = try maker.tiles(
                            index, placements: [plan.arrangement.placements[index]], recipes: [plan.recipe(for: index)]
                        )[0]
                        return try hooks.profile.measure(.cells) { try cells.cell(index, pixels: pixels) }
                    },
                    tap: pyramid.map { pyramid in { band, count in try pyramid.add(rows: band, count: count) } })
                if let pyramid { made.append(pyramid) }
            }
            for pyramid in made {
                for tile in pyramid.made {
                    guard let bytes = FileManager.default.contents(atPath: tile.file) else {
                        throw CodecError(.write, path: tile.file, reason: "the tile just made cannot be read")
                    }
                    try part.append(tile: Array(bytes), page: pyramid.page, column: tile.column, row: tile.row)
                    unlink(tile.file)
                }
            }
            try part.finish()
            try file.finishWriting()
            hooks.progress?.begin(.write, total: 1)
            try file.commit()
            hooks.progress?.advance(.write)
        } catch {
            file.discard()
            throw error
        }
        return header
    }

    /// A key of the settings that shape a sheet's pixels beyond its manifest's layout.
    static func settingsID(_ options: WallOptions) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var hasher = KeyHasher()
        hasher.add((try? encoder.encode(options.rendering)).map { String(decoding: $0, as: UTF8.self) } ?? "")
        hasher.add("background \(options.background) strict \(options.strict)")
        return hasher.finish().description
    }

    /// One sheet: each tile made when the bands reach it, on `threads` threads, and freed when
    /// they pass it.
    private func renderAsNeeded(_ job: Job, maker: TileMaker, cache: RenderCache?) throws -> [any CompletedPage] {
        let plan = job.plan
        let cells = try CellMaker(plan: plan, options: job.options)
        let hooks = self.hooks
        hooks.progress?.begin(.render, total: plan.arrangement.placements.count)
        let writer = PageWriter(
            plan: plan, options: job.options, hooks: hooks, cells: cells, threads: job.options.threads, cache: cache)
        return try writer.write(to: job.pages, as: job.format) { index in
            defer { hooks.progress?.advance(.render) }
            let pixels = try maker.tiles(
                index, placements: [plan.arrangement.placements[index]], recipes: [plan.recipe(for: index)])[0]
            return try hooks.profile.measure(.cells) { try cells.cell(index, pixels: pixels) }
        }
    }

    /// Records in each job's plan how its tiles share one decode per source (see
    /// ``TileRecipe/shared(by:placements:margin:)``), where that differs from a plain tile.
    private func shareDecodes(_ jobs: inout [Job], margin: Int) {
        for (index, image) in jobs[0].plan.images.enumerated() {
            let placements = jobs.map { $0.plan.arrangement.placements[index] }
            let recipes = TileRecipe.shared(by: image, placements: placements, margin: margin)
            for v in jobs.indices where recipes[v] != TileRecipe(ownFor: image, placement: placements[v]) {
                jobs[v].plan.recipes[index] = recipes[v]
            }
        }
    }

    /// Batch variants: each source decoded once and its cell finished for every variant into
    /// that variant's spill; then the variants painted from their spills, several at once, each
    /// on one thread.
    private func renderThroughSpills(_ jobs: [Job], maker: TileMaker, cache: RenderCache?) throws -> [any CompletedPage]
    {
        let hooks = self.hooks
        let base = jobs[0].options
        let cells = try jobs.map { try CellMaker(plan: $0.plan, options: $0.options) }
        let spills = try jobs.map { job in
            try TileSpill(
                sizes: job.plan.arrangement.placements.map(\.cell.size),
                channels: job.options.background.isOpaque ? 3 : 4)
        }
        let images = jobs[0].plan.images
        hooks.progress?.begin(.render, total: images.count)
        _ = try parallelMap(images.count, threads: base.threads) { index -> Bool in
            try hooks.checkCancelled()
            defer { hooks.progress?.advance(.render) }
            let tiles = try maker.tiles(
                index, placements: jobs.map { $0.plan.arrangement.placements[index] },
                recipes: jobs.map { $0.plan.recipe(for: index) })
            for v in jobs.indices {
                let background = jobs[v].options.background
                let finished = try hooks.profile.measure(.cells) {
                    let cell = try cells[v].cell(index, pixels: tiles[v])
                    return background.isOpaque ? Alpha.flattened(cell, over: background) : Alpha.premultipliedRGBA(cell)
                }
                try hooks.profile.measure(.spill) { try spills[v].store(finished, at: index) }
            }
            return true
        }
        return try parallelMap(jobs.count, threads: base.threads) { v -> [any CompletedPage] in
            let writer = PageWriter(
                plan: jobs[v].plan, options: jobs[v].options, hooks: hooks, cells: cells[v], threads: 1, cache: cache)
            let spill = spills[v]
            return try writer.write(to: jobs[v].pages, as: jobs[v].format) { index in
                try hooks.profile.measure(.spill) { try spill.load(index) }
            }
        }.flatMap { $0 }
    }

    /// Keeps the cache under its size limit, and says once when it could not be written.
    private func finish(_ cache: RenderCache) {
        cache.store.trim()
        if let problem = cache.store.problem {
            hooks.diagnostics(
                .warning(source: cache.store.directory, message: problem + " (the render went on without it)"))
        }
    }

    /// Refuses a run whose outputs would overwrite one of its images.
    private func refuseOverwritingInputs(outputs: [String], images: [ProbedImage]) throws {
        var targets: [String: String] = [:]
        for output in outputs { if let resolved = resolvedPath(output) { targets[resolved] = output } }
        guard !targets.isEmpty else { return }
        for image in images {
            if let resolved = resolvedPath(image.path), let output = targets[resolved] {
                throw WallRunError.outputIsInput(output)
            }
        }
    }
}
