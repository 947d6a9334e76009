import WallCodecs
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The first stage of a run: inputs scanned, every header read, and the readable images put
/// in the order asked for.
enum InputProbe {
    /// Reads the header of every file `inputs` names, on `threads` threads.
    static func probe(
        _ inputs: [String], threads: Int, maxImagePixels: Int, scan: InputScanner.Options,
        rating: RatingFilter = RatingFilter(), readsRatings: Bool = false, pages: PageSelection = .first,
        progress: ProgressReporter?
    ) -> ProbeResult {
        let scanned = InputScanner.scan(inputs, options: scan)
        let candidates = scanned.candidates
        let probe = ImageProbe(maxImagePixels: maxImagePixels)
        progress?.begin(.probe, total: candidates.count)
        let results =
            (try? parallelMap(candidates.count, threads: threads) {
                (i: Int) -> (Result<ProbedImage, CodecError>, RatingFilter.Omission?) in
                defer { progress?.advance(.probe) }
                let path = candidates[i].path
                var result = Result { () throws(CodecError) -> ProbedImage in
                    var image = ProbedImage(path: path, info: try probe.probe(path: path))
                    image.readFileStatus()
                    return image
                }
                // Ratings are read through Exiv2 (XMP's too, which the bounded EXIF reader does not
                // read) only when a filter or a {rating} caption asks for them.
                guard rating.isActive || readsRatings, case .success(var image) = result else { return (result, nil) }
                let read = PictureRating.read(path: path)
                if let stars = read.stars {
                    var camera = image.info.camera ?? CameraInfo()
                    camera.rating = stars
                    image.info.camera = camera
                    result = .success(image)
                }
                return (result, rating.isActive ? rating.omission(read) : nil)
            }) ?? []
        var images: [ProbedImage] = []
        var failures: [CodecError] = []
        var ownOutputs = scanned.ownOutputs
        var ratedOut: [RatedOut] = []
        for (candidate, (result, omission)) in zip(candidates, results) {
            switch result {
            case .success(let image) where candidate.inFolder && isOwnOutput(image.info):
                ownOutputs.append(image.path)
            case .success(let image) where omission != nil:
                ratedOut.append(RatedOut(path: image.path, reason: omission!))
            case .success(let image): images.append(image)
            case .failure(let error): failures.append(error)
            }
        }
        if pages == .all { images = paged(images, probe: probe, failures: &failures) }
        if scan.pairs == .together { images = Pairing.joined(images) }
        var result = ProbeResult(
            images: images, failures: failures, candidates: candidates.count, ignored: scanned.ignored,
            foldersNotRead: scanned.foldersNotRead, filteredOut: scanned.filteredOut.count, ownOutputs: ownOutputs,
            repeats: scanned.repeats)
        result.ratedOut = ratedOut
        return result
    }

    /// `images` with each file of several pages (a PDF) as one image a page, in order; a page that
    /// cannot be read is a failure of its own.
    static func paged(_ images: [ProbedImage], probe: ImageProbe, failures: inout [CodecError]) -> [ProbedImage] {
        images.flatMap { image -> [ProbedImage] in
            guard (image.info.pageCount ?? 1) > 1 else { return [image] }
            let pages: [Result<ImageInfo, CodecError>]
            do throws(CodecError) {
                pages = try probe.probePages(of: image.info, path: image.path)
            } catch {
                // Its first page was read a moment ago: drawn, the rest reported.
                failures.append(error)
                var first = image
                first.info.page = 1
                return [first]
            }
            return pages.compactMap { page in
                switch page {
                case .success(let info):
                    var next = image
                    next.info = info
                    return next
                case .failure(let error):
                    failures.append(error)
                    return nil
                }
            }
        }
    }

    /// Whether a file found in a folder is a sheet ImageWall wrote (a PNG's Software text, a
    /// JPEG's or WebP's EXIF Software), which would otherwise become a tile of the next render
    /// of the same folder.
    static func isOwnOutput(_ info: ImageInfo) -> Bool {
        ImageWallRelease.isSoftware(info.software)
    }

    /// Probes `inputs` and puts the readable images in the order `options` asks for;
    /// unreadable ones are thrown (``ErrorPolicy/fail``) or reported and returned as skipped.
    static func ordered(_ inputs: [String], options: WallOptions, hooks: RunHooks) throws -> ProbeResult {
        guard !inputs.isEmpty else { throw WallRunError.noInputs }
        let probed = hooks.profile.measure(.probe, wall: true) {
            probe(
                inputs, threads: options.limits.threads, maxImagePixels: options.limits.maxImagePixels,
                scan: options.input.scan,
                rating: options.input.rating, readsRatings: options.rendering.caption?.uses(.rating) == true,
                pages: options.input.pages, progress: hooks.progress)
        }
        try hooks.checkCancelled()
        for path in probed.ownOutputs {
            hooks.diagnostics(.note(source: path, message: "left out: a sheet ImageWall wrote"))
        }
        for left in probed.ratedOut {
            hooks.diagnostics(.note(source: left.path, message: "left out: " + left.reason.explanation))
        }
        for repeated in probed.repeats {
            hooks.diagnostics(.note(source: repeated.path, message: "drawn once: the same file as \(repeated.sameAs)"))
        }
        for folder in probed.foldersNotRead where folder.reason == .alreadyRead {
            hooks.diagnostics(.warning(source: folder.path, message: folder.reason.rawValue))
        }
        if options.limits.onError == .fail, let first = probed.failures.first { throw first }
        for failure in probed.failures {
            hooks.diagnostics(.skipped(source: failure.path, reason: failure.reason, stage: .probe))
        }
        guard !probed.images.isEmpty else {
            throw WallRunError.noImages(
                tried: probed.failures.count, first: probed.failures.first,
                subFoldersNotRead: probed.foldersNotRead.notRecursive.count, ownOutputs: probed.ownOutputs,
                ratedOut: probed.ratedOut.count)
        }
        var ordered = probed
        ordered.images = options.input.sort.sorted(
            probed.images, reverse: options.input.reverse, seed: options.input.seed
        ).map { entry in
            var image = entry.image
            image.sortKey = entry.key
            return image
        }
        let (roots, origins) = SourceRoots.split(ordered.images.map(\.path), inputs: inputs)
        ordered.roots = roots
        for (i, origin) in origins.enumerated() {
            ordered.images[i].origin = .init(root: origin.root, path: origin.path)
        }
        return try Stacking.stacked(ordered, options: options, hooks: hooks)
    }
}
