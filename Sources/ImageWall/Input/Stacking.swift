import WallCache
import WallCodecs
import WallCompositor
import WallCore

/// Finds pictures that are one moment or one picture several times (bursts, copies) and folds
/// each group into one tile: the best of them, standing for the rest (see ``PictureStack``).
///
/// Each picture that could join a stack is fingerprinted (``PictureFingerprint``) from its
/// EXIF thumbnail, else decoded small (a JPEG at 1/8, a HEIF's thumbnail); for bursts only
/// pictures taken within the gap of another are. The grouping is a pure function of capture
/// times and fingerprints, in the wall's order, so the same inputs stack the same way in every
/// run; the pictures of a stack as good as each other by rating and size are then decoded to
/// find the sharpest.
enum Stacking {
    /// What stacking knows of a picture: when it was taken (seconds on the camera's clock), its
    /// shape (the displayed size) and its fingerprint, when it could be decoded.
    struct Candidate: Sendable {
        var instant: Int?
        var shown = Size(width: 1, height: 1)
        var fingerprint: PictureFingerprint?

        /// Whether `other` looks like this picture: of the same shape (within 5 %: a resized copy
        /// rounds its sides; a crop is another picture) and alike by fingerprint.
        func isAlike(_ other: Candidate, within bits: Int) -> Bool {
            guard let print = fingerprint, let otherPrint = other.fingerprint else { return false }
            let a = shown.width * other.shown.height, b = other.shown.width * shown.height
            return abs(a - b) * 100 <= 5 * max(a, b) && print.isAlike(otherPrint, within: bits)
        }
    }

    /// The long side pictures without a thumbnail are decoded for to be fingerprinted: a 12 MP
    /// JPEG decodes at 1/8, a HEIF's own thumbnail will do.
    static let fingerprintSide = 128

    /// The stacks among `candidates` (in wall order), as their indices: for bursts, in the order
    /// taken, each picture within the gap of the one before and as alike; for similar pictures,
    /// in wall order, each as alike as the stack's first. Only stacks of two or more.
    static func groups(_ candidates: [Candidate], options: StackOptions) -> [[Int]] {
        switch options.mode {
        case .bursts:
            let timed = candidates.indices.filter { candidates[$0].instant != nil && candidates[$0].fingerprint != nil }
                .sorted { (candidates[$0].instant!, $0) < (candidates[$1].instant!, $1) }
            var groups: [[Int]] = []
            var current: [Int] = []
            for i in timed {
                if let last = current.last, candidates[i].instant! - candidates[last].instant! <= options.gap,
                    candidates[i].isAlike(candidates[last], within: options.distance)
                {
                    current.append(i)
                } else {
                    if current.count > 1 { groups.append(current) }
                    current = [i]
                }
            }
            if current.count > 1 { groups.append(current) }
            return groups
        case .similar:
            var groups: [[Int]] = []
            for (i, candidate) in candidates.enumerated() {
                guard let print = candidate.fingerprint else { continue }
                var best: (group: Int, distance: Int)?
                for (g, group) in groups.enumerated() {
                    let seed = candidates[group[0]]
                    let distance = seed.fingerprint!.distance(to: print)
                    if seed.isAlike(candidate, within: options.distance) && distance < (best?.distance ?? .max) {
                        best = (g, distance)
                    }
                }
                if let best { groups[best.group].append(i) } else { groups.append([i]) }
            }
            return groups.filter { $0.count > 1 }
        }
    }

    /// `probed` (in wall order) with each stack drawn as one picture, in the place of its first
    /// in the wall, carrying the stack; the other pictures of stacks leave the wall.
    static func stacked(_ probed: ProbeResult, options: WallOptions, hooks: RunHooks) throws -> ProbeResult {
        guard let stacking = options.input.stacking else { return probed }
        let images = probed.images
        // A video, a page of a document and a refused file are never stacked.
        let stackable = images.map { $0.info.format != .video && $0.info.page == nil && $0.refusal == nil }
        let instants = images.map { CaptureDate(of: $0).instant }
        let wanted = wantsFingerprint(stackable: stackable, instants: instants, options: stacking)
        let indices = images.indices.filter { wanted[$0] }
        let decoder = ImageDecoder.fingerprinting(like: options.decoder)
        let memory = MemoryBudget(limit: options.limits.decodeMemory)
        let cache = options.cache.map(RenderCache.init)
        hooks.progress?.begin(.stack, total: indices.count)
        // Each picture's content, read once with a cache: what keeps its fingerprint and sharpness.
        let read = try parallelMap(indices.count, threads: options.limits.threads) {
            n -> (print: PictureFingerprint?, content: CacheKey?) in
            defer { hooks.progress?.advance(.stack) }
            if hooks.isCancelled() { return (nil, nil) }
            return hooks.profile.measure(.stack) {
                let image = images[indices[n]]
                // Kept by content: a second render of the same pictures reads no pixel to compare them.
                let content = cache?.store.contentKey(ofFile: image.path)
                let key = content.map { RenderCache.lookKey("fingerprint", content: $0, decoder: decoder) }
                if let cache, let key, let kept = cache.fingerprint(key) { return (kept, content) }
                let print = fingerprint(of: image, decoder: decoder, memory: memory)
                if let cache, let key { cache.save(print, as: key) }
                return (print, content)
            }
        }
        try hooks.checkCancelled()
        var candidates = images.indices.map {
            Candidate(instant: instants[$0], shown: images[$0].info.displayedSize, fingerprint: nil)
        }
        var contents: [Int: CacheKey] = [:]
        for (n, i) in indices.enumerated() {
            candidates[i].fingerprint = read[n].print
            contents[i] = read[n].content
        }
        let groups = Stacking.groups(candidates, options: stacking)
        guard !groups.isEmpty else { return probed }

        var drawnAt: [Int: ProbedImage] = [:]
        var folded = Set<Int>()
        let choices = try chosen(
            in: groups, images: images, decoder: decoder, memory: memory, threads: options.limits.threads,
            cache: cache.map { ($0, contents) }, hooks: hooks)
        for (group, (chosen, choice)) in zip(groups, choices) {
            var image = images[chosen]
            let companions = group.filter { $0 != chosen }.flatMap { images[$0].companions }
            image.stack = PictureStack(
                by: stacking.mode, members: group.map { images[$0].path }, chosenBy: choice,
                companions: companions.isEmpty ? nil : companions)
            drawnAt[group.min()!] = image
            folded.formUnion(group)
        }
        var result = probed
        result.images = images.indices.compactMap { i in drawnAt[i] ?? (folded.contains(i) ? nil : images[i]) }
        return result
    }

    /// Which pictures are fingerprinted: every stackable one for similar pictures; for bursts
    /// those taken within the gap of another stackable one.
    static func wantsFingerprint(stackable: [Bool], instants: [Int?], options: StackOptions) -> [Bool] {
        guard options.mode == .bursts else { return stackable }
        var wanted = [Bool](repeating: false, count: stackable.count)
        let timed = stackable.indices.filter { stackable[$0] && instants[$0] != nil }
            .sorted { (instants[$0]!, $0) < (instants[$1]!, $1) }
        for (a, b) in zip(timed, timed.dropFirst()) where instants[b]! - instants[a]! <= options.gap {
            wanted[a] = true
            wanted[b] = true
        }
        return wanted
    }

    /// The fingerprint of `image`: from its EXIF thumbnail when it has one of its shape (a
    /// camera's JPEG: read in a fraction of a millisecond), else decoded small; `nil` when that
    /// decode is damaged or fails (the file is drawn on its own, and marked).
    static func fingerprint(of image: ProbedImage, decoder: ImageDecoder, memory: MemoryBudget) -> PictureFingerprint? {
        if let thumbnail = decoder.decodeEmbeddedThumbnail(path: image.path, info: image.info) {
            return PictureFingerprint(of: thumbnail.bitmap)
        }
        return decoded(image, longSide: fingerprintSide, decoder: decoder, memory: memory).map {
            PictureFingerprint(of: $0)
        }
    }

    /// The sharpness of `image` (see ``PictureFingerprint/sharpness(of:)``), decoded for it; 0
    /// when it cannot be decoded whole.
    static func sharpness(of image: ProbedImage, decoder: ImageDecoder, memory: MemoryBudget) -> Int {
        decoded(image, longSide: PictureFingerprint.sharpnessSide, decoder: decoder, memory: memory).map {
            PictureFingerprint.sharpness(of: $0)
        } ?? 0
    }

    /// `image` decoded at least `longSide` px on its long side (where it is that big), under
    /// the memory budget; `nil` when it cannot be decoded whole.
    static func decoded(_ image: ProbedImage, longSide: Int, decoder: ImageDecoder, memory: MemoryBudget) -> Bitmap? {
        let target = image.info.displayedSize.fitted(withinLongSide: longSide)
        return try? memory.withReservation(decoder.workingMemory(info: image.info, target: target)) {
            () throws(CodecError) -> Bitmap? in
            let decoded = try decoder.decode(path: image.path, info: image.info, target: target)
            return decoded.isDamaged ? nil : decoded.bitmap
        }
    }

    /// The member of each of `groups` drawn for it: the most stars (rejects below any, read
    /// through Exiv2 as `--min-rating` reads them), then the most pixels (an original before its
    /// smaller copies), then the sharpest (those still level decoded to be measured, on
    /// `threads` threads, kept in `cache` by the pictures' `contents` when given), then the first.
    static func chosen(
        in groups: [[Int]], images: [ProbedImage], decoder: ImageDecoder, memory: MemoryBudget, threads: Int,
        cache: (store: RenderCache, contents: [Int: CacheKey])? = nil, hooks: RunHooks
    ) throws -> [(Int, PictureStack.Choice)] {
        let ranks = groups.map { group in
            group.map { i -> (stars: Int, area: Int) in
                let rating = PictureRating.read(path: images[i].path)
                let stars = rating.isRejected ? -1 : rating.stars ?? images[i].info.camera?.rating ?? 0
                return (stars, images[i].info.displayedSize.area ?? 0)
            }
        }
        let level = ranks.map { rank -> [Int] in
            let top = rank.map { ($0.stars, $0.area) }.max { $0 < $1 }!
            return rank.indices.filter { rank[$0].stars == top.0 && rank[$0].area == top.1 }
        }
        let measured = zip(groups, level).flatMap { group, level in level.count > 1 ? level.map { group[$0] } : [] }
        let sharpness = try parallelMap(measured.count, threads: threads) { n -> Int in
            if hooks.isCancelled() { return 0 }
            // Counted as decoding: these decodes take the place of the hidden pictures' own.
            return hooks.profile.measure(.decode) {
                let key = cache?.contents[measured[n]].map {
                    RenderCache.lookKey("sharpness", content: $0, decoder: decoder)
                }
                if let key, let kept = cache?.store.sharpness(key) { return kept }
                let sharpness = Stacking.sharpness(of: images[measured[n]], decoder: decoder, memory: memory)
                if let key { cache?.store.save(sharpness: sharpness, as: key) }
                return sharpness
            }
        }
        try hooks.checkCancelled()
        let sharpnessOf = Dictionary(uniqueKeysWithValues: zip(measured, sharpness))
        return zip(groups, zip(ranks, level)).map { group, rankAndLevel in
            let (rank, level) = rankAndLevel
            var best = level[0]
            for n in level.dropFirst() where sharpnessOf[group[n]]! > sharpnessOf[group[best]]! { best = n }
            let choice: PictureStack.Choice =
                level.count > 1
                ? .sharpest
                : rank.contains { $0.stars != rank[best].stars } ? .rating : .largest
            return (group[best], choice)
        }
    }
}

extension PictureFingerprint {
    /// The fingerprint `--stack` compares of the image at `path` (whose header `info` was
    /// probed): from its EXIF thumbnail, else decoded small; `nil` when it cannot be decoded whole.
    public static func read(path: String, info: ImageInfo) -> PictureFingerprint? {
        Stacking.fingerprint(
            of: ProbedImage(path: path, info: info), decoder: .fingerprinting(like: ImageDecoder()),
            memory: MemoryBudget(limit: .max))
    }

    /// The sharpness `--stack` picks a stack's picture by, of the image at `path` (whose header
    /// `info` was probed); 0 when it cannot be decoded whole.
    public static func readSharpness(path: String, info: ImageInfo) -> Int {
        Stacking.sharpness(
            of: ProbedImage(path: path, info: info), decoder: .fingerprinting(like: ImageDecoder()),
            memory: MemoryBudget(limit: .max))
    }

    /// The hash as 16 hexadecimal digits.
    public var hexHash: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension ImageDecoder {
    /// A decoder like `decoder` that shrinks as far as a fingerprint allows.
    static func fingerprinting(like decoder: ImageDecoder) -> ImageDecoder {
        var fast = decoder
        fast.fast = true
        return fast
    }
}
