import WallCache
import WallCodecs
import WallCompositor
import WallCore
import WallJSON
import WallLayout

/// Makes the pixels of tiles, one source at a time: decodes it (under the decode memory
/// budget, shrunk on load for the size its recipe names), records the decoder's warnings (or
/// with `strict` refuses the file), and resamples it through each recipe into each placement.
/// A source that cannot be decoded gives ``Placeholder`` tiles (the reason in words) and one
/// warning, or with ``ErrorPolicy/fail`` stops the run.
///
/// A plain render asks for one placement at a time; batch variants ask for one per variant whose
/// own decode is the same, sharing it. Every tile of a run is made here, and here the cache sits: a tile
/// already made from the same content the same way is read back, else a decode already made
/// for the same content and decode plan, else the file is decoded.
struct TileMaker: Sendable {
    let images: [ProbedImage]
    /// How each tile is decoded and resampled: held whole in each tile's cache key.
    let settings: TileSettings
    /// The text of ``settings`` that each tile's cache key holds.
    let settingsKey: String
    let decoder: ImageDecoder
    let memory: MemoryBudget
    let strict: Bool
    let onError: ErrorPolicy
    let profile: StageProfile?
    let warnings: TileWarnings
    let cache: RenderCache?
    /// What a source replaced since it was probed is probed with again, and cropped by.
    let probe: ImageProbe
    let gravity: Gravity
    /// Told of each decode (see ``RunHooks/decoded``).
    let decodedHook: (@Sendable (ProbedImage, Size, DecodedImage) -> Bitmap?)?
    /// Sources' content keys the caller has (see ``RunHooks/contentKey``).
    let knownKey: (@Sendable (String) -> CacheKey?)?

    /// A maker of `images`' tiles as `settings` say, within `limits`, cropped towards `gravity`.
    init(
        images: [ProbedImage], settings: TileSettings, limits: RunLimits, gravity: Gravity, hooks: RunHooks,
        warnings: TileWarnings, cache: RenderCache? = nil
    ) {
        self.images = images
        self.settings = settings
        settingsKey = TileMaker.keyText(of: settings)
        decoder = settings.decoder
        memory = MemoryBudget(limit: limits.decodeMemory)
        strict = limits.strict
        onError = limits.onError
        profile = hooks.profile
        self.warnings = warnings
        self.cache = cache
        probe = ImageProbe(maxImagePixels: limits.maxImagePixels)
        self.gravity = gravity
        decodedHook = hooks.decoded
        knownKey = hooks.contentKey
    }

    /// The text of `settings` a tile's cache key holds: every field, by name, in a fixed order
    /// (their compact JSON, keys sorted), the same in every process.
    static func keyText(of settings: TileSettings) -> String {
        // Encoding a struct of a few scalars cannot fail.
        try! JSONText.text(of: settings, compact: true)
    }

    /// Tile `index` for each of `placements`, made as `recipes` say (one per placement, all
    /// decoded for the same size), premultiplied, with the image's ``TileMark`` drawn on, and
    /// the damaged mark when its file is damaged (a placeholder has neither).
    func tiles(_ index: Int, placements: [Placement], recipes: [TileRecipe]) throws -> [Bitmap] {
        var tiles = try pictures(index, placements: placements, recipes: recipes)
        guard warnings.placeholder(for: index) == nil else { return tiles }
        if let mark = images[index].mark {
            for i in tiles.indices { mark.draw(on: &tiles[i]) }
        }
        if let stack = images[index].stack, stack.hidden > 0 {
            for i in tiles.indices { TileMark.drawStack(hidden: stack.hidden, on: &tiles[i]) }
        }
        if warnings.isDamaged(index) {
            for i in tiles.indices { TileMark.drawDamaged(on: &tiles[i]) }
        }
        return tiles
    }

    /// The tiles' pictures, unmarked: read back from the cache, resampled from a decode, or
    /// placeholders.
    private func pictures(_ index: Int, placements: [Placement], recipes: [TileRecipe]) throws -> [Bitmap] {
        precondition(placements.count == recipes.count && !recipes.isEmpty)
        var (image, placements, recipes) = (images[index], placements, recipes)
        do {
            if let refusal = image.refusal { throw CodecError(.decode, path: image.path, reason: refusal) }
            if image.fileChanged() { (image, placements, recipes) = try probedAgain(index, placements: placements) }
            let target = recipes[0].decodedFor
            let keys = cacheKeys(image, placements: placements, recipes: recipes)
            // A crop that follows the content is chosen from the decode: its tiles are made
            // afresh (the decode itself may come from the cache), so the manifest learns the crop.
            let smart = smartCrop(placements)
            if let cache, let keys, smart == nil {
                // Placements of the same size and crop (variants whose columns are as wide) have
                // the same tile: each is read once.
                var read: [CacheKey: DecodedImage?] = [:]
                let found = profile.measure(.cache) {
                    keys.tiles.map { key in
                        if let known = read[key] { return known }
                        let tile = cache.tile(key)
                        read[key] = tile
                        return tile
                    }
                }
                if let first = found[0], found.allSatisfy({ $0 != nil }) {
                    try report(first, for: index)
                    return found.map { $0!.bitmap }
                }
            }
            // The decoded image is held until every placement's tile is made from it.
            return try memory.withReservation(decoder.workingMemory(info: image.info, target: target)) {
                var decoded: DecodedImage
                if let cache, let keys, let found = profile.measure(.cache, { cache.decoded(keys.decode) }) {
                    decoded = found
                } else {
                    decoded = try profile.measure(.decode) {
                        try decoder.decode(path: image.path, info: image.info, target: target)
                    }
                    if let cache, let keys {
                        profile.measure(.cache) { cache.save(decoded, as: keys.decode) }
                    }
                }
                try report(decoded, for: index)
                let halved = decodedHook?(image, target, decoded) ?? nil
                let source = Alpha.premultiplied(decoded.bitmap)  // once for every placement
                // Faces (else any subjects) marked in the file's XMP come first, then faces found.
                var subjects = smart.map { _ in TileMaker.subjects(of: image) } ?? []
                var chosenBy = subjects.isEmpty ? smart?.rawValue ?? "" : "regions"
                if gravity == .faces, smart != nil, subjects.isEmpty {
                    do {
                        subjects = try profile.measure(.faces) { try TileMaker.faces(in: decoded.bitmap, of: image) }
                        if !subjects.isEmpty { chosenBy = "faces" }
                    } catch {
                        warnings.add("faces not looked for: \(error.reason)", for: index)
                    }
                }
                let tiles = TileMaker.resample(
                    source, halved: halved, of: image, into: placements, recipes: recipes, linear: settings.linear,
                    smart: smart, subjects: subjects, profile: profile
                ) { placement, crop in
                    warnings.setCrop(crop, by: chosenBy, for: index, drawnAt: placement.image.size)
                }
                if let cache, let keys, smart == nil {
                    profile.measure(.cache) {
                        var saved: Set<CacheKey> = []
                        for (tile, key) in zip(tiles, keys.tiles) where saved.insert(key).inserted {
                            cache.save(tile: tile, of: decoded, as: key)
                        }
                    }
                }
                return tiles
            }
        } catch {
            if onError == .fail || error is WallRunError { throw error }
            warnings.addPlaceholder(error.reason, for: index)
            return placements.map { Placeholder.tile(size: $0.image.size, reason: error.reason) }
        }
    }

    /// Image `index` probed again, its file having changed since it was probed, with
    /// `placements` and their recipes for the picture it holds now: the same when its size is
    /// the same; else each tile keeps its rectangle and shows the new picture undistorted
    /// (see ``SourceChange``), with a warning, or under `strict` the file is refused.
    private func probedAgain(_ index: Int, placements: [Placement]) throws(CodecError) -> (
        ProbedImage, [Placement], [TileRecipe]
    ) {
        var image = images[index]
        let then = image.info.displayedSize
        image.info = try probe.probe(path: image.path)
        image.readFileStatus()
        guard let changed = SourceChange(then: then, now: image.info.displayedSize, gravity: gravity) else {
            let recipes = placements.map { TileRecipe(ownFor: image, placement: $0, floor: settings.decodeFloor) }
            return (image, placements, recipes)
        }
        let change = changed.description(since: "it was probed")
        if strict { throw CodecError(.decode, path: image.path, reason: change + " (--strict)") }
        warnings.add(change + ", " + changed.drawn, for: index)
        let moved = placements.map { placement in
            var placement = placement
            placement.crop = changed.crop(placement.crop, drawnAt: placement.image.size)
            return placement
        }
        // One decode for every placement: for the largest any of them needs.
        let needed = moved.map { TileRecipe.neededSize(image, $0) }
        let recipe = TileRecipe(
            decodedFor: Size(width: needed.map(\.width).max() ?? 1, height: needed.map(\.height).max() ?? 1))
        return (image, moved, moved.map { _ in recipe })
    }

    /// The cache's keys for `image`'s decode and for each placement's tile, when there is a
    /// cache and the file can be read: its content, the decode plan, then how each tile is cut
    /// and resampled from the decode (the ``settings`` whole, the sizes it passes through, its
    /// crop).
    private func cacheKeys(_ image: ProbedImage, placements: [Placement], recipes: [TileRecipe]) -> (
        decode: CacheKey, tiles: [CacheKey]
    )? {
        guard let cache,
            let content = profile.measure(
                .cache, { knownKey?(image.path) ?? cache.store.contentKey(ofFile: image.path) })
        else {
            return nil
        }
        profile.measure(.cache) { cache.serve(content, bytes: image.fileSize) }
        var hasher = KeyHasher()
        hasher.add("decoded \(RenderCache.format) \(ImageWallRelease.version) \(CodecLibraries.versions)")
        hasher.add(content)
        hasher.add(decoder.decodePlan(info: image.info, target: recipes[0].decodedFor))
        let decode = hasher.finish()
        let tiles = zip(placements, recipes).map { placement, recipe in
            var hasher = KeyHasher()
            hasher.add("tile")
            hasher.add(decode)
            hasher.add(settingsKey)
            for size in recipe.via + [placement.image.size] {
                hasher.add(size.width)
                hasher.add(size.height)
            }
            if let crop = placement.crop {
                for edge in [crop.x, crop.y, crop.width, crop.height] {
                    hasher.add(Int(bitPattern: UInt(edge.bitPattern)))
                }
            } else {
                hasher.add(-1)
            }
            return hasher.finish()
        }
        return (decode, tiles)
    }

    /// The faces marked on `image` (else its other marked regions), in its displayed pixels.
    static func subjects(of image: ProbedImage) -> [Region] {
        let regions = PictureRegion.read(path: image.path, orientation: image.info.orientation)
        let faces = regions.filter(\.isFace)
        let shown = image.info.displayedSize
        return (faces.isEmpty ? regions : faces).map {
            $0.box.scaled(x: Double(shown.width), y: Double(shown.height))
        }
    }

    /// The long side a decode is averaged down to before faces are looked for: faces down to
    /// 20 px in it (a twentieth of the picture) are found, in a few milliseconds.
    static let faceSearchSide = 400

    /// The faces OpenCV finds in `decoded` (the picture `image` as displayed, at any scale), in
    /// its displayed pixels.
    static func faces(in decoded: Bitmap, of image: ProbedImage) throws(FaceDetectorError) -> [Region] {
        let gray = Grayscale(decoded, longSide: faceSearchSide)
        let shown = image.info.displayedSize
        let x = Double(shown.width) / Double(gray.size.width), y = Double(shown.height) / Double(gray.size.height)
        return try FaceDetector.faces(in: gray).map { face in
            Region(
                x: Double(face.x) * x, y: Double(face.y) * y, width: Double(face.width) * x,
                height: Double(face.height) * y)
        }
    }

    /// How the crops of `placements` follow the content, when `--gravity` says they do and one
    /// of them crops.
    private func smartCrop(_ placements: [Placement]) -> SmartCrop.Measure? {
        guard gravity.followsContent, placements.contains(where: { $0.crop != nil }) else { return nil }
        // Without a face, a crop for faces follows attention.
        return gravity == .entropy ? .entropy : .attention
    }

    /// Records the decoder's warnings and notes, or with `strict` turns warnings into the
    /// file's error (notes change no pixel and never do).
    private func report(_ decoded: DecodedImage, for index: Int) throws(CodecError) {
        if strict && !decoded.warnings.isEmpty {
            throw CodecError(
                .decode, path: images[index].path,
                reason: "damaged (--strict): " + decoded.warnings.joined(separator: "; "))
        }
        for message in decoded.warnings { warnings.add(message, for: index) }
        if decoded.isDamaged { warnings.addDamage(for: index) }
        for note in decoded.notes { warnings.add(note: note, for: index) }
    }

    /// Each placement's tile of `image` from its decode, made as `recipes` say; the
    /// whole-image tiles they pass through are made once.
    static func resample(
        _ decoded: Bitmap, halved: Bitmap? = nil, of image: ProbedImage, into placements: [Placement],
        recipes: [TileRecipe], linear: Bool, smart: SmartCrop.Measure? = nil, subjects: [Region] = [],
        profile: StageProfile? = nil, chosen: (Placement, Region) -> Void = { _, _ in }
    ) -> [Bitmap] {
        var wholes: [Size: Bitmap] = [:]
        return zip(placements, recipes).map { placement, recipe in
            profile.measure(.resample) {
                var (source, sourceHalved) = (decoded, halved)
                for size in recipe.via {
                    source =
                        wholes[size]
                        ?? whole(source, halved: sourceHalved, of: image, resampledTo: size, linear: linear)
                    wholes[size] = source
                    sourceHalved = nil
                }
                if placement.crop == nil, let made = wholes[placement.image.size] { return made }
                var placement = placement
                if let smart, let crop = placement.crop {
                    let moved = SmartCrop.place(
                        crop, shown: image.info.displayedSize, in: source, by: smart, subjects: subjects)
                    placement.crop = moved
                    chosen(placement, moved)
                }
                let tile = resample(source, halved: sourceHalved, of: image, into: placement, linear: linear)
                if placement.crop == nil { wholes[placement.image.size] = tile }
                return tile
            }
        }
    }

    /// The whole of `decoded` resampled to `size`: a step of a ``TileRecipe``.
    static func whole(
        _ decoded: Bitmap, halved: Bitmap? = nil, of image: ProbedImage, resampledTo size: Size, linear: Bool
    ) -> Bitmap {
        let frame = Rect(x: 0, y: 0, width: size.width, height: size.height)
        return resample(decoded, halved: halved, of: image, into: Placement(cell: frame, image: frame), linear: linear)
    }

    /// The part of `decoded` (the whole displayed image, at any scale) that `placement` shows,
    /// resampled to its image rectangle, premultiplied; `halved`, when given, is `decoded`
    /// premultiplied and halved (see ``WallCompositor/Resampler/resize(_:to:region:linear:halved:)``).
    static func resample(
        _ decoded: Bitmap, halved: Bitmap? = nil, of image: ProbedImage, into placement: Placement, linear: Bool
    ) -> Bitmap {
        let displayed = image.info.displayedSize
        let region = placement.crop.map { crop in
            crop.scaled(
                x: Double(decoded.size.width) / Double(displayed.width),
                y: Double(decoded.size.height) / Double(displayed.height))
        }
        return Resampler.resize(
            Alpha.premultiplied(decoded), to: placement.image.size, region: region, linear: linear, halved: halved)
    }
}
