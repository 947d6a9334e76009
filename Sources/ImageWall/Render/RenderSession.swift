import Foundation
import WallCache
import WallCodecs
import WallCompositor
import WallCore
import WallFiles
import WallLayout

/// What every render of one set of images shares, whole sheets and parts alike, set up in
/// one place: the pages' sizes checked against their format's cap and the outputs against the
/// inputs before anything is decoded; one warnings list, one cache, one ``TileMaker``; then,
/// per plan, the cells and the source of each tile's finished cell.
package struct RenderSession {
    /// The images every plan of the session lays out.
    let images: [ProbedImage]
    /// How the run reports and is cancelled.
    let hooks: RunHooks
    /// Decoders' warnings, each said once, recorded in the manifests.
    let warnings: TileWarnings
    /// Decoded images, tiles and compressed bands kept between runs, if anywhere.
    let cache: RenderCache?
    /// Makes every tile, each source decoded once.
    let maker: TileMaker

    /// A session for sheets whose pages have `pages` sizes in their formats, written to
    /// `outputs`; `options` are the first (or only) sheet's. Throws when a page is over its
    /// format's cap or an output would overwrite an input.
    package init(
        images: [ProbedImage], options: WallOptions, pages: [(sizes: [Size], format: PageFormat)], outputs: [String],
        warnings planWarnings: [Int: [String]] = [:], hooks: RunHooks
    ) throws {
        for page in pages {
            try SheetSizeError.check(
                page.sizes, cap: page.format.isPixelCapped ? options.limits.maxSheetPixels : Int.max)
        }
        try Self.refuseOverwritingInputs(outputs: outputs, images: images)
        // Crops that follow faces need the detector: never a sheet cropped otherwise without a word.
        if options.layout.gravity == .faces, let reason = FaceDetector.unavailable {
            throw WallRunError.noFaceDetector(reason)
        }
        try OutputFolders.check(outputs)
        OutputFolders.removeLeftovers(besides: outputs, diagnostics: hooks.diagnostics)
        self.images = images
        self.hooks = hooks
        warnings = TileWarnings(images: images, diagnostics: hooks.diagnostics)
        for (index, messages) in planWarnings.sorted(by: { $0.key < $1.key }) {
            for message in messages { warnings.add(message, for: index) }
        }
        cache = options.cache.map(RenderCache.init)
        maker = TileMaker(
            images: images, settings: options.rendering.tile, limits: options.limits, gravity: options.layout.gravity,
            hooks: hooks, warnings: warnings, cache: cache)
    }

    /// The cells of `plan` drawn with `options`.
    package func cells(of plan: Plan, options: WallOptions) throws -> CellMaker {
        try CellMaker(plan: plan, options: options)
    }

    /// Tile `index`'s finished cell for `plan` on its own: made (or found in the cache) and
    /// decorated by `cells`.
    package func cell(_ index: Int, of plan: Plan, cells: CellMaker) throws -> Bitmap {
        let pixels = try maker.tiles(
            index, placements: [plan.arrangement.placements[index]], recipes: [plan.recipe(for: index)])[0]
        return try hooks.profile.measure(.cells) { try cells.cell(index, pixels: pixels) }
    }

    /// The writer of `plan`'s pages, preparing cells on `threads` threads.
    package func pageWriter(plan: Plan, options: WallOptions, cells: CellMaker, threads: Int) -> PageWriter {
        PageWriter(plan: plan, options: options, hooks: hooks, cells: cells, threads: threads, cache: cache)
    }

    /// Ends the session: keeps the cache under its size limit, and says once when it could not
    /// be written.
    package func finish() {
        guard let cache else { return }
        cache.store.trim()
        if let problem = cache.store.problem {
            hooks.diagnostics(
                .warning(source: cache.store.directory, message: problem + " (the render went on without it)"))
        }
    }

    /// A key of the settings that shape a sheet's pixels beyond its manifest's layout.
    package static func settingsID(_ options: WallOptions) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var hasher = KeyHasher()
        hasher.add((try? encoder.encode(options.rendering)).map { String(decoding: $0, as: UTF8.self) } ?? "")
        hasher.add("background \(options.background) strict \(options.limits.strict)")
        return hasher.finish().description
    }

    /// Refuses a run whose outputs would overwrite one of its images.
    private static func refuseOverwritingInputs(outputs: [String], images: [ProbedImage]) throws {
        var targets: [String: String] = [:]
        for output in outputs { if let resolved = FilePaths.resolved(output) { targets[resolved] = output } }
        guard !targets.isEmpty else { return }
        for image in images {
            if let resolved = FilePaths.resolved(image.path), let output = targets[resolved] {
                throw WallRunError.outputIsInput(output)
            }
        }
    }
}
