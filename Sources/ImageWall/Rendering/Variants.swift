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
        guard fd >= 0 else { throw EncodeError(path: "temporary spill file", reason: String(cString: strerror(errno))) }
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
                guard wrote > 0 else { throw EncodeError(path: "temporary spill file", reason: String(cString: strerror(errno))) }
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
                guard got > 0 else { throw EncodeError(path: "temporary spill file", reason: "short read") }
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
        let plans = try variants.map { try Wall.plan(images: images, skipped: skipped, options: $0.options) }
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
        _ = try parallelMap(images.count, threads: base.threads) { index -> Bool in
            if base.isCancelled() { throw WallRunError.cancelled }
            defer { base.progress?.advance(.render) }
            let image = images[index]
            var largest = Size(width: 1, height: 1)
            for plan in plans {
                let needed = Wall.neededSize(image, plan.arrangement.placements[index])
                largest = Size(width: max(largest.width, needed.width), height: max(largest.height, needed.height))
            }
            // The decoded image is held until every variant's tile is made from it.
            try decodeMemory.withReservation(decoder.workingMemory(info: image.info, target: largest)) {
                var decoded: Result<Bitmap, any Error>
                do {
                    let result = try base.profile.measure(.decode) {
                        try decoder.decode(path: image.path, info: image.info, target: largest)
                    }
                    try frozen[0].report(result.warnings, for: index)
                    decoded = .success(Alpha.premultiplied(result.bitmap))  // once for every variant
                } catch {
                    decoded = .failure(error)
                }
                let tiles = (try? decoded.get()).map { bitmap in
                    Wall.variantTiles(
                        bitmap, of: image, placements: plans.map { $0.arrangement.placements[index] },
                        linear: frozen.map(\.options.linear), margin: decoder.margin, profile: base.profile)
                }
                for (v, pipeline) in frozen.enumerated() {
                    let placement = plans[v].arrangement.placements[index]
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
                options: variants[v].options, outputs: allPaths[v], warnings: painters[0].warnings.messages(for:), skipped: skipped)
            if let manifests { try ManifestWriter.write(manifest, to: manifests[v]) }
            manifestsOut.append(manifest)
        }
        return manifestsOut
    }

    /// Each variant's tile of `image` from its premultiplied decode. Largest first, a tile is
    /// resampled from the smallest image at hand that is still `margin` times the size it needs
    /// (the headroom decoding leaves): the decode, or a larger variant's tile that shows the
    /// whole image. So the full decode is filtered once per size class, not once per variant.
    static func variantTiles(
        _ decoded: Bitmap, of image: ProbedImage, placements: [Placement], linear: [Bool], margin: Int,
        profile: StageProfile? = nil
    ) -> [Bitmap] {
        let needs = placements.map { Wall.neededSize(image, $0) }
        let order = placements.indices.sorted { (needs[$0].area ?? .max, $0) > (needs[$1].area ?? .max, $1) }
        var sources = [decoded]
        var tiles = [Bitmap?](repeating: nil, count: placements.count)
        for v in order {
            let need = needs[v]
            // A pixel's rounding in either size does not count against the headroom.
            let source = sources.filter { $0.size.width + margin >= margin * need.width && $0.size.height + margin >= margin * need.height }
                .min { $0.size.width < $1.size.width } ?? decoded
            let tile = profile.measure(.resample) {
                Wall.resample(source, of: image, into: placements[v], linear: linear[v])
            }
            if placements[v].crop == nil && tile.size.width < source.size.width { sources.append(tile) }
            tiles[v] = tile
        }
        return tiles.map { $0! }
    }
}
