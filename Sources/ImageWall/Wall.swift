#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation
import Synchronization
import WallCodecs
import WallCompositor
import WallCore
import WallLayout

/// An image whose header was read.
public struct ProbedImage: Sendable, Hashable {
    /// The path as the user gave it.
    public var path: String
    /// What the header says.
    public var info: ImageInfo
    /// File size in bytes.
    public var fileSize: Int = 0
    /// Modification time, seconds since 1970.
    public var modified: Double = 0
    /// What the image was sorted by, when a sort order was asked for.
    public var sortKey: SortKey?
}

/// Probed images and their layout: everything known before any pixel is decoded.
public struct Plan: Sendable {
    /// Readable images, in input order.
    public var images: [ProbedImage]
    /// Inputs that could not be read.
    public var skipped: [CodecError]
    /// Where each image goes.
    public var arrangement: Arrangement
    /// Section titles (folders) when grouped, by section number.
    public var sectionTitles: [String]
    /// Tiles made otherwise than decoded for themselves alone (batch variants), by index.
    public var recipes: [Int: TileRecipe] = [:]

    /// How tile `index` is made: as recorded, or decoded for its own placement.
    func recipe(for index: Int) -> TileRecipe {
        recipes[index] ?? TileRecipe(ownFor: images[index], placement: arrangement.placements[index])
    }
}

/// How a tile's pixels are made when not from a decode of its own: decoded for `decodedFor`
/// (displayed pixels; the decoder keeps its margin over that), then resampled through the
/// whole-image sizes `via`, largest first, and into the tile. Batch variants share one decode
/// this way; the manifest records it, so `--from-manifest` makes the same pixels.
public struct TileRecipe: Hashable, Sendable {
    /// The size the source was decoded for.
    public var decodedFor: Size
    /// Whole-image sizes resampled through on the way, largest first.
    public var via: [Size]

    /// Creates a recipe.
    public init(decodedFor: Size, via: [Size] = []) {
        self.decodedFor = decodedFor
        self.via = via
    }

    /// The plain way: decoded for what `placement` shows of `image`, then resampled into it.
    init(ownFor image: ProbedImage, placement: Placement) {
        self.init(decodedFor: Wall.neededSize(image, placement))
    }
}

/// The result of probing a set of inputs.
public struct ProbeResult: Sendable {
    /// Readable images, in input order.
    public var images: [ProbedImage]
    /// Inputs that could not be read, in input order.
    public var failures: [CodecError]
    /// How many files were looked at.
    public var candidates: Int
}

/// A contact sheet of a set of image files and folders: probe, lay out, render.
///
/// ```swift
/// var layout = LayoutConfiguration(kind: .justified)
/// layout.width = 2400
/// var options = WallOptions(layout: layout)
/// options.threads = 2
/// let manifest = try Wall(inputs: ["Photos"]).render(to: "sheet.png", options: options)
/// ```
public struct Wall: Sendable {
    /// Files and folders, as the user gave them.
    public var inputs: [String]

    /// A wall of `inputs`: image files, or folders whose images are taken in name order.
    public init(inputs: [String]) {
        self.inputs = inputs
    }

    /// Reads every input's header, on `threads` threads.
    public func probe(
        threads: Int = 1, maxImagePixels: Int = ImageProbe.defaultMaxImagePixels,
        scan: InputScanner.Options = InputScanner.Options(), progress: ProgressReporter? = nil
    ) -> ProbeResult {
        let candidates = InputScanner.candidates(for: inputs, options: scan)
        let probe = ImageProbe(maxImagePixels: maxImagePixels)
        progress?.begin(.probe, total: candidates.count)
        let results = (try? parallelMap(candidates.count, threads: threads) { (i: Int) -> Result<ProbedImage, CodecError> in
            defer { progress?.advance(.probe) }
            return Result { () throws(CodecError) -> ProbedImage in
                let path = candidates[i].path
                let info = try probe.probe(path: path)
                var status = stat()
                _ = stat(path, &status)
                return ProbedImage(
                    path: path, info: info, fileSize: Int(status.st_size),
                    modified: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
            }
        }) ?? []
        var images: [ProbedImage] = []
        var failures: [CodecError] = []
        for result in results {
            switch result {
            case .success(let image): images.append(image)
            case .failure(let error): failures.append(error)
            }
        }
        return ProbeResult(images: images, failures: failures, candidates: candidates.count)
    }

    /// Probes the inputs and lays them out, without decoding any pixels.
    ///
    /// With ``ErrorPolicy/fail`` the first unreadable input is thrown; with
    /// ``ErrorPolicy/skip`` it is reported through `diagnostics` and listed under `skipped`.
    public func plan(options: WallOptions, diagnostics: @Sendable (Diagnostic) -> Void = { _ in }) throws -> Plan {
        try options.layout.validate()
        let (images, skipped) = try probeAndOrder(options: options, diagnostics: diagnostics)
        return try Wall.plan(images: images, skipped: skipped, options: options)
    }

    /// Probes the inputs and puts the readable ones in the order `options` asks for; unreadable
    /// ones are thrown (``ErrorPolicy/fail``) or reported and returned as skipped.
    func probeAndOrder(options: WallOptions, diagnostics: @Sendable (Diagnostic) -> Void) throws -> (images: [ProbedImage], skipped: [CodecError]) {
        guard !inputs.isEmpty else { throw WallRunError.noInputs }
        let probed = options.profile.measure(.probe, wall: true) {
            probe(threads: options.threads, maxImagePixels: options.maxImagePixels, scan: options.scan, progress: options.progress)
        }
        if options.isCancelled() { throw WallRunError.cancelled }
        if options.onError == .fail, let first = probed.failures.first { throw first }
        for failure in probed.failures {
            diagnostics(.skipped(source: failure.path, reason: failure.reason, stage: .probe))
        }
        guard !probed.images.isEmpty else { throw WallRunError.noImages(tried: probed.candidates) }
        let images = options.sort.sorted(probed.images, reverse: options.reverse, seed: options.seed).map { entry in
            var image = entry.image
            image.sortKey = entry.key
            return image
        }
        return (images, probed.failures)
    }

    /// Lays out images already probed and ordered.
    static func plan(images: [ProbedImage], skipped: [CodecError], options: WallOptions) throws -> Plan {
        options.progress?.begin(.layout, total: 1)
        let (sections, titles) = Wall.sections(of: images, grouping: options.grouping)
        let arrangement = try options.profile.measure(.layout, wall: true) {
            try options.effectiveLayout.arrange(images.map(\.info.displayedSize), sections: sections)
        }
        options.progress?.advance(.layout)
        return Plan(images: images, skipped: skipped, arrangement: arrangement, sectionTitles: titles)
    }

    /// Renders the sheet to `output` (a PNG, written atomically; several pages when the
    /// layout asks for them, named by ``PageNaming``) and, when `manifestPath` is given, its
    /// JSON manifest.
    ///
    /// With ``ErrorPolicy/fail`` the first unreadable input stops the render before any file
    /// is written; with ``ErrorPolicy/skip`` it is reported through `diagnostics` and listed
    /// under `skipped`. Returns the manifest.
    @discardableResult
    public func render(
        to output: String, manifest manifestPath: String? = nil, options: WallOptions,
        diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) throws -> Manifest {
        let plan = try plan(options: options, diagnostics: diagnostics)
        try SheetPipeline.checkSizes(plan.arrangement.pages, cap: options.maxSheetPixels)
        let paths = PageNaming.paths(for: output, count: plan.arrangement.pages.count)
        try refuseOverwritingInputs(outputs: paths + [manifestPath].compactMap { $0 }, images: plan.images)
        let pipeline = try SheetPipeline(plan: plan, options: options, diagnostics: diagnostics)
        try pipeline.render(to: paths)
        options.progress?.begin(.write, total: 1)
        let manifest = Manifest(
            arrangement: plan.arrangement, sources: plan.images.map(Manifest.Source.init), sectionTitles: plan.sectionTitles,
            options: options, outputs: paths, warnings: pipeline.warnings.messages(for:), skipped: plan.skipped)
        if let manifestPath { try ManifestWriter.write(manifest, to: manifestPath) }
        options.progress?.advance(.write)
        return manifest
    }

    /// The manifest of a plan, without a rendered page: what `imagewall layout` prints.
    public static func manifest(of plan: Plan, options: WallOptions) -> Manifest {
        Manifest(
            arrangement: plan.arrangement, sources: plan.images.map(Manifest.Source.init),
            sectionTitles: plan.sectionTitles, options: options, outputs: [], warnings: { _ in [] },
            skipped: plan.skipped)
    }

    /// The manifest of a layout of bare sizes (no files): sources are named `sizes[i]`.
    public static func manifest(ofSizes sizes: [Size], options: WallOptions) throws -> Manifest {
        let arrangement = try options.effectiveLayout.arrange(sizes)
        return Manifest(
            arrangement: arrangement,
            sources: sizes.enumerated().map { Manifest.Source(path: "sizes[\($0.offset)]", displayed: $0.element) },
            sectionTitles: [], options: options, outputs: [], warnings: { _ in [] }, skipped: [])
    }

    /// Decodes one image as `recipe` says (for the size its placement needs, unless it is a
    /// batch variant's) and resamples the part shown into the image rectangle.
    static func tile(
        _ image: ProbedImage, placement: Placement, recipe: TileRecipe, decoder: ImageDecoder, linear: Bool = false,
        profile: StageProfile? = nil, warn: (String) -> Void
    ) throws -> Bitmap {
        let decoded = try profile.measure(.decode) {
            try decoder.decode(path: image.path, info: image.info, target: recipe.decodedFor)
        }
        decoded.warnings.forEach(warn)
        return profile.measure(.resample) {
            var source = decoded.bitmap
            for size in recipe.via { source = whole(source, of: image, resampledTo: size, linear: linear) }
            return resample(source, of: image, into: placement, linear: linear)
        }
    }

    /// The whole of `decoded` resampled to `size`: a step of a ``TileRecipe``.
    static func whole(_ decoded: Bitmap, of image: ProbedImage, resampledTo size: Size, linear: Bool) -> Bitmap {
        let frame = Rect(x: 0, y: 0, width: size.width, height: size.height)
        return resample(decoded, of: image, into: Placement(cell: frame, image: frame), linear: linear)
    }

    /// The displayed size to decode `image` at so that the part `placement` shows keeps at
    /// least the tile's resolution.
    static func neededSize(_ image: ProbedImage, _ placement: Placement) -> Size {
        let displayed = image.info.displayedSize
        let target = placement.image.size
        return placement.crop.map { crop in
            Size(
                width: Int((Double(target.width) * Double(displayed.width) / crop.width).rounded(.up)),
                height: Int((Double(target.height) * Double(displayed.height) / crop.height).rounded(.up)))
        } ?? target
    }

    /// The part of `decoded` (the whole displayed image, at any scale) that `placement` shows,
    /// resampled to its image rectangle, premultiplied.
    static func resample(_ decoded: Bitmap, of image: ProbedImage, into placement: Placement, linear: Bool) -> Bitmap {
        let displayed = image.info.displayedSize
        let region = placement.crop.map { crop in
            let sx = Double(decoded.size.width) / Double(displayed.width)
            let sy = Double(decoded.size.height) / Double(displayed.height)
            return crop.scaled(x: sx, y: sy)
        }
        return Resampler.resize(Alpha.premultiplied(decoded), to: placement.image.size, region: region, linear: linear)
    }

    /// Section numbers by folder (the path up to its last slash), with the folders as titles.
    static func sections(of images: [ProbedImage], grouping: Grouping) -> ([Int]?, [String]) {
        guard grouping == .folder else { return (nil, []) }
        var numbers: [String: Int] = [:]
        var titles: [String] = []
        let sections = images.map { image -> Int in
            let folder = image.path.lastIndex(of: "/").map { String(image.path[..<$0]) } ?? "."
            if let number = numbers[folder] { return number }
            numbers[folder] = titles.count
            titles.append(folder)
            return titles.count - 1
        }
        return (sections, titles)
    }

    func refuseOverwritingInputs(outputs: [String], images: [ProbedImage]) throws {
        var targets: [String: String] = [:]
        for output in outputs { if let resolved = Wall.resolvedPath(output) { targets[resolved] = output } }
        guard !targets.isEmpty else { return }
        for image in images {
            if let resolved = Wall.resolvedPath(image.path), let output = targets[resolved] {
                throw WallRunError.outputIsInput(output)
            }
        }
    }

    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension Wall {
    /// The version the command line and the PNG's Software text report.
    public static let version = "0.2.0"
}

/// Decoder warnings per tile, gathered from the decoding threads.
final class TileWarnings: Sendable {
    private let store = Locked<[Int: [String]]>([:])

    func add(_ message: String, for index: Int) {
        store.withLock { $0[index, default: []].append(message) }
    }

    func messages(for index: Int) -> [String] {
        store.withLock { $0[index] ?? [] }
    }
}

/// Writes a manifest as pretty, key-sorted JSON, atomically.
public enum ManifestWriter {
    /// The JSON text of `manifest`, identical for identical manifests.
    public static func encode(_ manifest: Manifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(manifest)
        data.append(0x0A)
        return data
    }

    /// Writes `manifest` to `path`.
    public static func write(_ manifest: Manifest, to path: String) throws {
        let data = try encode(manifest)
        let file = try AtomicFile(destination: path)
        let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file.handle) }
        guard written == data.count else {
            throw CodecError(.write, path: path, reason: "short write")
        }
        try file.commit()
    }
}

extension Error {
    /// The reason part of a codec error, or the whole description of another error.
    public var reason: String {
        switch self {
        case let error as CodecError: return error.reason
        default: return String(describing: self)
        }
    }
}
