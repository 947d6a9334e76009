import WallCodecs
import WallCompositor
import WallCore
import WallFiles
import WallLayout

/// What a run writes besides its pages and manifests (a gallery page and its files), staged
/// once the manifests are known: given them and, for each page written to a file, where its
/// finished bytes are until they are put in place (to read them); put in place with the pages.
public typealias Alongside =
    @Sendable (_ manifests: [Manifest], _ written: [String: String]) throws -> [any StagedOutput]

/// The one render sequence for whole sheets, for a plain render, batch variants and a
/// replayed manifest alike: a ``RenderSession`` checks the pages and outputs before anything
/// is decoded and makes every tile; pages are painted in bands and streamed to temporary
/// files; all files are put in place together once every page is complete; then the manifests.
struct SheetBatch {
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
    let alongside: Alongside?

    /// Jobs that lay out the same images (several for batch variants, which share every
    /// decode); `alongside` stages what else the run writes (see ``Alongside``).
    init(jobs: [Job], hooks: RunHooks, alongside: Alongside? = nil) {
        precondition(!jobs.isEmpty && jobs.allSatisfy { $0.plan.images == jobs[0].plan.images })
        self.jobs = jobs
        self.hooks = hooks
        self.alongside = alongside
    }

    /// Renders every job and writes its manifest, and what `alongside` stages, all put in place
    /// together once everything is written (or nothing, when something fails); returns the
    /// manifests, each tile made from the plan when it is written or read.
    func run() throws -> [StreamedManifest] {
        let jobs = self.jobs
        for job in jobs where job.pages.count != job.plan.arrangement.pages.count {
            throw WallRunError.manifestWithoutPages
        }
        for job in jobs {
            try job.format.check(
                pages: job.plan.arrangement.pages, opaque: job.options.background.isOpaque,
                output: job.pages.first ?? "")
        }
        let session = try RenderSession(
            images: jobs[0].plan.images, options: jobs[0].options,
            pages: jobs.map { ($0.plan.arrangement.pages, $0.format) },
            outputs: jobs.flatMap { $0.pages + [$0.manifest].compactMap { $0 } }, warnings: jobs[0].plan.warnings,
            hooks: hooks)
        defer { session.finish() }
        let files: [any CompletedPage]
        if jobs.count == 1 {
            files = try renderAsNeeded(jobs[0], session: session)
        } else {
            files = try renderThroughSpills(jobs, session: session)
        }
        hooks.progress?.begin(.write, total: 1)
        // Streamed from the plans: a million tiles are written without being held together.
        let said = session.warnings.recorded
        let manifests = jobs.map { job in
            StreamedManifest(plan: job.plan, options: job.options, outputs: job.pages, messages: said)
        }
        // The manifests and what else the run writes are written beside the pages before
        // anything is put in place, so the run's files are all there or none.
        var staged: [any StagedOutput] = files.map { $0 as any StagedOutput }  // one by one: no run-time cast
        do {
            try hooks.profile.measure(.manifestWrite, wall: true) {
                for (job, manifest) in zip(jobs, manifests) {
                    if let path = job.manifest {
                        staged.append(try ManifestWriter.stage(manifest, to: path, threads: job.options.limits.threads))
                    }
                }
            }
            if let alongside {
                let written = Dictionary(
                    files.compactMap { ($0 as? AtomicFile).map { ($0.destination, $0.temporaryPath) } },
                    uniquingKeysWith: { first, _ in first })
                // A gallery page shows every tile: held whole for it.
                staged += try alongside(manifests.map(\.manifest), written)
            }
        } catch {
            staged.discardAll()
            throw error
        }
        try staged.commitAll()
        hooks.progress?.advance(.write)
        return manifests
    }

    /// One sheet: each tile made when the bands reach it, on `threads` threads, and freed when
    /// they pass it.
    private func renderAsNeeded(_ job: Job, session: RenderSession) throws -> [any CompletedPage] {
        let plan = job.plan
        let cells = try session.cells(of: plan, options: job.options)
        let hooks = self.hooks
        hooks.progress?.begin(.render, total: plan.arrangement.placements.count)
        let writer = session.pageWriter(
            plan: plan, options: job.options, cells: cells, threads: job.options.limits.threads)
        return try writer.write(to: job.pages, as: job.format) { index in
            defer { hooks.progress?.advance(.render) }
            return try session.cell(index, of: plan, cells: cells)
        }
    }

    /// The bytes of finished cells a batch keeps in memory until its variants are painted; the
    /// rest wait in temporary files.
    static let spillMemory = 32 << 20

    /// Batch variants: each source decoded once for every variant whose own decode would be
    /// the same (the same decode plan), and each variant's tile resampled from that decode just
    /// as a render of that variant alone makes it, so a variant's bytes are those of the same
    /// sheet rendered alone; each cell finished into its variant's spill; then the variants
    /// painted from their spills, several at once, each on one thread.
    private func renderThroughSpills(_ jobs: [Job], session: RenderSession) throws -> [any CompletedPage] {
        let hooks = self.hooks
        let base = jobs[0].options
        let cells = try jobs.map { try session.cells(of: $0.plan, options: $0.options) }
        let memory = SpillMemory(limit: SheetBatch.spillMemory)
        let spills = jobs.map { job in
            TileSpill(
                sizes: job.plan.arrangement.placements.map(\.cell.size),
                channels: job.options.background.isOpaque ? 3 : 4, memory: memory)
        }
        let images = jobs[0].plan.images
        hooks.progress?.begin(.render, total: images.count)
        _ = try parallelMap(images.count, threads: base.limits.threads) { index -> Bool in
            try hooks.checkCancelled()
            defer { hooks.progress?.advance(.render) }
            let tiles = try tilesAsAlone(index, of: jobs, session: session)
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
        return try parallelMap(jobs.count, threads: base.limits.threads) { v -> [any CompletedPage] in
            let writer = session.pageWriter(plan: jobs[v].plan, options: jobs[v].options, cells: cells[v], threads: 1)
            let spill = spills[v]
            return try writer.write(to: jobs[v].pages, as: jobs[v].format) { index in
                try hooks.profile.measure(.spill) { try spill.load(index) }
            }
        }.flatMap { $0 }
    }

    /// Tile `index` of every job, each made as a render of that job alone makes it: the jobs
    /// whose own decodes have the same plan share one decode, the others decode apart.
    private func tilesAsAlone(_ index: Int, of jobs: [Job], session: RenderSession) throws -> [Bitmap] {
        let image = jobs[0].plan.images[index]
        let placements = jobs.map { $0.plan.arrangement.placements[index] }
        let recipes = jobs.map { $0.plan.recipe(for: index) }
        var groups: [(plan: String, jobs: [Int])] = []
        for v in jobs.indices {
            let plan = session.maker.decoder.decodePlan(info: image.info, target: recipes[v].decodedFor)
            if let g = groups.firstIndex(where: { $0.plan == plan }) {
                groups[g].jobs.append(v)
            } else {
                groups.append((plan, [v]))
            }
        }
        var tiles = [Bitmap?](repeating: nil, count: jobs.count)
        for group in groups {
            let made = try session.maker.tiles(
                index, placements: group.jobs.map { placements[$0] }, recipes: group.jobs.map { recipes[$0] })
            for (v, tile) in zip(group.jobs, made) { tiles[v] = tile }
        }
        return tiles.map { $0! }
    }
}
