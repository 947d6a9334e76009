#if canImport(Glibc)
    import Glibc
#endif
import WallCodecs
import WallCompositor
import WallCore
import WallLayout

/// Finished tiles of one variant, parked in an anonymous temporary file between decoding and
/// painting, so that no variant has to hold its tiles in memory.
final class TileSpill: @unchecked Sendable {
    private let descriptor: Int32
    private let offsets: [Int]
    private let sizes: [Size]
    let channels: Int

    /// A spill for cells of `sizes`, `channels` bytes a pixel.
    init(sizes: [Size], channels: Int) throws {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = (folder + "/imagewall-spill-XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CodecError(.write, path: "temporary spill file", reason: String(cString: strerror(errno))) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }  // gone when closed
        descriptor = fd
        self.sizes = sizes
        self.channels = channels
        var offsets: [Int] = []
        var offset = 0
        for size in sizes {
            offsets.append(offset)
            offset += size.width * size.height * channels
        }
        self.offsets = offsets
    }

    deinit { close(descriptor) }

    func store(_ bitmap: Bitmap, at index: Int) throws {
        precondition(bitmap.channels == channels && bitmap.size == sizes[index])
        try bitmap.pixels.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offsets[index] + done))
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { throw CodecError(.write, path: "temporary spill file", reason: String(cString: strerror(errno))) }
                done += wrote
            }
        }
    }

    func load(_ index: Int) throws -> Bitmap {
        var bitmap = Bitmap(size: sizes[index], alpha: channels == 4 ? .premultiplied : .none)
        try bitmap.pixels.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let got = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offsets[index] + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { throw CodecError(.write, path: "temporary spill file", reason: "short read") }
                done += got
            }
        }
        return bitmap
    }
}

extension Wall {
    /// Renders several variants of the same inputs (e.g. column counts or widths) in one run:
    /// every source is probed once and decoded once, at the largest size any variant needs,
    /// and resampled from there for each. `manifests`, when given, has one path per variant.
    /// A single variant is a plain ``render(to:manifest:options:diagnostics:)``.
    public func render(
        variants: [(output: String, options: WallOptions)], manifests: [String]? = nil,
        diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) throws -> [Manifest] {
        precondition(!variants.isEmpty && (manifests == nil || manifests!.count == variants.count))
        if variants.count == 1 {
            return [try render(to: variants[0].output, manifest: manifests?[0], options: variants[0].options, diagnostics: diagnostics)]
        }
        let base = variants[0].options
        for variant in variants { try variant.options.effectiveLayout.validate() }
        let (images, skipped) = try probeAndOrder(options: base, diagnostics: diagnostics)
        var plans = try variants.map { try Wall.plan(images: images, skipped: skipped, options: $0.options) }
        // One decode per source for all variants; each variant's tile resampled from it or from
        // a larger variant's tile. Recorded in the plans, for the manifests.
        let margin = base.decoder.margin
        let recipes = images.indices.map { index in
            Wall.variantRecipes(images[index], placements: plans.map { $0.arrangement.placements[index] }, margin: margin)
        }
        for v in plans.indices {
            for (index, image) in images.enumerated() {
                let own = TileRecipe(ownFor: image, placement: plans[v].arrangement.placements[index])
                if recipes[index][v] != own { plans[v].recipes[index] = recipes[index][v] }
            }
        }
        var allPaths: [[String]] = []
        for (plan, variant) in zip(plans, variants) {
            try SheetPipeline.checkSizes(plan.arrangement.pages, cap: variant.options.maxSheetPixels)
            allPaths.append(PageNaming.paths(for: variant.output, count: plan.arrangement.pages.count))
        }
        try refuseOverwritingInputs(outputs: allPaths.flatMap { $0 } + (manifests ?? []), images: images)
        // Each painter works on one thread (its tiles come ready from the spill); the
        // parallelism is across variants.
        var pipelines = try zip(plans, variants).map { plan, variant in
            var options = variant.options
            options.threads = 1
            return try SheetPipeline(plan: plan, options: options, diagnostics: diagnostics)
        }
        let spills = try zip(plans, variants).map { plan, variant in
            try TileSpill(sizes: plan.arrangement.placements.map(\.cell.size), channels: variant.options.background.isOpaque ? 3 : 4)
        }

        // Phase 1: decode each source once, finish its tile for every variant.
        base.progress?.begin(.render, total: images.count)
        let decoder = base.decoder
        let decodeMemory = MemoryBudget(limit: base.decodeMemory)
        let frozen = pipelines
        let frozenPlans = plans
        _ = try parallelMap(images.count, threads: base.threads) { index -> Bool in
            if base.isCancelled() { throw WallRunError.cancelled }
            defer { base.progress?.advance(.render) }
            let image = images[index]
            let placements = frozenPlans.map { $0.arrangement.placements[index] }
            let target = recipes[index][0].decodedFor  // the same for every variant
            // The decoded image is held until every variant's tile is made from it.
            try decodeMemory.withReservation(decoder.workingMemory(info: image.info, target: target)) {
                var decoded: Result<Bitmap, any Error>
                do {
                    let result = try base.profile.measure(.decode) {
                        try decoder.decode(path: image.path, info: image.info, target: target)
                    }
                    try frozen[0].report(result.warnings, for: index)
                    decoded = .success(Alpha.premultiplied(result.bitmap))  // once for every variant
                } catch {
                    decoded = .failure(error)
                }
                let tiles = (try? decoded.get()).map { bitmap in
                    Wall.variantTiles(bitmap, of: image, placements: placements, recipes: recipes[index], linear: base.linear, profile: base.profile)
                }
                for (v, pipeline) in frozen.enumerated() {
                    let placement = placements[v]
                    let pixels: Bitmap
                    switch decoded {
                    case .success:
                        pixels = tiles![v]
                    case .failure(let error):
                        // Reported once, through the first variant; every variant draws it grey.
                        pixels = v == 0 ? try pipeline.placeholder(for: index, error: error)
                            : Bitmap(size: placement.image.size, alpha: .none, fill: [128, 128, 128])
                    }
                    let background = pipeline.options.background
                    let finished = try base.profile.measure(.cells) {
                        let cell = try pipeline.cell(index, pixels: pixels)
                        return background.isOpaque ? Alpha.flattened(cell, over: background) : Alpha.premultiplied(cell)
                    }
                    try base.profile.measure(.spill) { try spills[v].store(finished, at: index) }
                }
            }
            return true
        }

        // Phase 2: paint and encode the variants from their spills, several at once.
        for v in pipelines.indices {
            let spill = spills[v]
            pipelines[v].tileSource = { index in try base.profile.measure(.spill) { try spill.load(index) } }
        }
        let painters = pipelines
        let paths = allPaths
        _ = try parallelMap(painters.count, threads: base.threads) { v -> Bool in
            try painters[v].render(to: paths[v])
            return true
        }
        var manifestsOut: [Manifest] = []
        for v in painters.indices {
            let manifest = Manifest(
                arrangement: plans[v].arrangement, sources: images.map(Manifest.Source.init), sectionTitles: plans[v].sectionTitles,
                options: variants[v].options, outputs: allPaths[v], warnings: painters[0].warnings.messages(for:), skipped: skipped,
                recipes: plans[v].recipes)
            if let manifests { try ManifestWriter.write(manifest, to: manifests[v]) }
            manifestsOut.append(manifest)
        }
        return manifestsOut
    }

    /// The recipe for each variant's tile of `image`: one decode, for the largest size any of
    /// them needs; then, largest first, each tile resampled from the smallest whole-image tile
    /// already made that still has `margin` times the size it needs (the headroom decoding
    /// leaves), or else from the decode. So the big decode is filtered once per size, not once
    /// per variant.
    static func variantRecipes(_ image: ProbedImage, placements: [Placement], margin: Int) -> [TileRecipe] {
        let needs = placements.map { Wall.neededSize(image, $0) }
        let decodedFor = Size(width: needs.map(\.width).max() ?? 1, height: needs.map(\.height).max() ?? 1)
        let displayed = image.info.displayedSize
        let order = placements.indices.sorted { (needs[$0].area ?? .max, $0) > (needs[$1].area ?? .max, $1) }
        var recipes = [TileRecipe](repeating: TileRecipe(decodedFor: decodedFor), count: placements.count)
        var made: [(size: Size, via: [Size])] = []  // whole-image tiles, smaller than the image
        for v in order {
            let need = needs[v]
            // A pixel's rounding in either size does not count against the headroom.
            let sources = made.filter { $0.size.width + margin >= margin * need.width && $0.size.height + margin >= margin * need.height }
            if let source = sources.min(by: { $0.size.width < $1.size.width }) { recipes[v].via = source.via + [source.size] }
            let size = placements[v].image.size
            if placements[v].crop == nil && size.width < displayed.width && size.height < displayed.height {
                made.append((size, recipes[v].via))
            }
        }
        return recipes
    }

    /// Each variant's tile of `image` from its decode, made as `recipes` say; the whole-image
    /// tiles they pass through are made once.
    static func variantTiles(
        _ decoded: Bitmap, of image: ProbedImage, placements: [Placement], recipes: [TileRecipe], linear: Bool,
        profile: StageProfile? = nil
    ) -> [Bitmap] {
        var wholes: [Size: Bitmap] = [:]
        return zip(placements, recipes).map { placement, recipe in
            profile.measure(.resample) {
                var source = decoded
                for size in recipe.via {
                    source = wholes[size] ?? Wall.whole(source, of: image, resampledTo: size, linear: linear)
                    wholes[size] = source
                }
                if placement.crop == nil, let made = wholes[placement.image.size] { return made }
                let tile = Wall.resample(source, of: image, into: placement, linear: linear)
                if placement.crop == nil { wholes[placement.image.size] = tile }
                return tile
            }
        }
    }
}
