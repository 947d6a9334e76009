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
}

/// The result of probing a set of inputs.
public struct ProbeResult: Sendable {
    /// Readable images, in input order.
    public var images: [ProbedImage]
    /// Inputs that could not be read, in input order.
    public var failures: [ProbeError]
    /// How many files were looked at.
    public var candidates: Int
}

/// A contact sheet of a set of image files and folders: probe, lay out, render.
///
/// ```swift
/// var options = WallOptions(layout: MasonryLayout(
///     width: 2000, columns: 4, columnGap: 10, rowGap: 10, padding: Insets(all: 10)))
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
    public func probe(threads: Int = 1, maxImagePixels: Int = ImageProbe.defaultMaxImagePixels) -> ProbeResult {
        let candidates = InputScanner.candidates(for: inputs)
        let probe = ImageProbe(maxImagePixels: maxImagePixels)
        let results = (try? parallelMap(candidates.count, threads: threads) { i in
            Result { () throws(ProbeError) -> ImageInfo in try probe.probe(path: candidates[i].path) }
        }) ?? []
        var images: [ProbedImage] = []
        var failures: [ProbeError] = []
        for (candidate, result) in zip(candidates, results) {
            switch result {
            case .success(let info): images.append(ProbedImage(path: candidate.path, info: info))
            case .failure(let error): failures.append(error)
            }
        }
        return ProbeResult(images: images, failures: failures, candidates: candidates.count)
    }

    /// Renders the sheet to `output` (a PNG, written atomically) and, when `manifestPath` is
    /// given, its JSON manifest.
    ///
    /// With ``ErrorPolicy/fail`` the first unreadable input stops the render before any file
    /// is written; with ``ErrorPolicy/skip`` it is reported through `diagnostics` and listed
    /// under `skipped`. Returns the manifest.
    @discardableResult
    public func render(
        to output: String, manifest manifestPath: String? = nil, options: WallOptions,
        diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) throws -> Manifest {
        guard !inputs.isEmpty else { throw WallRunError.noInputs }
        try options.layout.validate()
        let probed = probe(threads: options.threads, maxImagePixels: options.maxImagePixels)
        if options.onError == .fail, let first = probed.failures.first { throw first }
        for failure in probed.failures {
            diagnostics(.skipped(source: failure.path, reason: failure.reason, stage: .probe))
        }
        let images = probed.images
        guard !images.isEmpty else { throw WallRunError.noImages(tried: probed.candidates) }
        try refuseOverwritingInputs(output: output, manifest: manifestPath, images: images)

        let arrangement = try options.layout.arrange(images.map(\.info.displayedSize))
        let warnings = TileWarnings()
        let renderer = SheetRenderer(
            canvas: arrangement.canvas, frames: arrangement.frames, background: options.background,
            threads: options.threads)
        let decoder = ImageDecoder()
        let frames = arrangement.frames
        let policy = options.onError
        let file = try AtomicFile(destination: output)
        let writer = try PNGStreamWriter(
            file: file, size: arrangement.canvas, hasAlpha: renderer.hasAlpha,
            compressionLevel: options.compressionLevel)
        try renderer.render(
            tile: { index in
                let image = images[index]
                let frame = frames[index]
                do {
                    let decoded = try decoder.decode(path: image.path, info: image.info, target: frame.size)
                    for message in decoded.warnings {
                        warnings.add(message, for: index)
                        diagnostics(.warning(source: image.path, message: message))
                    }
                    return Resampler.resize(Alpha.premultiplied(decoded.bitmap), to: frame.size)
                } catch {
                    if policy == .fail { throw error }
                    let message = "not decoded, drawn grey: \(error.reason)"
                    warnings.add(message, for: index)
                    diagnostics(.warning(source: image.path, message: message))
                    return Bitmap(size: frame.size, alpha: .none, fill: [128, 128, 128])
                }
            },
            emit: { rows, count in try writer.write(rows: rows, count: count) })
        try writer.finish()
        try file.commit()

        let manifest = Manifest(
            width: arrangement.canvas.width, height: arrangement.canvas.height,
            layout: Manifest.Layout(
                name: "masonry", width: options.layout.width, columns: options.layout.columns,
                columnGap: options.layout.columnGap, rowGap: options.layout.rowGap,
                padding: options.layout.padding, background: options.background.description),
            pages: [Manifest.Page(file: output, width: arrangement.canvas.width, height: arrangement.canvas.height)],
            tiles: images.indices.map { i in
                let frame = frames[i]
                let displayed = images[i].info.displayedSize
                return Manifest.Tile(
                    index: i, page: 0, source: images[i].path, x: frame.x, y: frame.y,
                    width: frame.width, height: frame.height, sourceWidth: displayed.width,
                    sourceHeight: displayed.height, orientation: images[i].info.orientation.rawValue,
                    format: images[i].info.format.rawValue, crop: nil, warnings: warnings.messages(for: i))
            },
            skipped: probed.failures.map { Manifest.Skipped(source: $0.path, reason: $0.reason) })
        if let manifestPath { try ManifestWriter.write(manifest, to: manifestPath) }
        return manifest
    }

    private func refuseOverwritingInputs(output: String, manifest: String?, images: [ProbedImage]) throws {
        let targets = [output, manifest].compactMap { $0 }.compactMap(Wall.resolvedPath)
        guard !targets.isEmpty else { return }
        for image in images {
            if let resolved = Wall.resolvedPath(image.path), let clash = targets.firstIndex(of: resolved) {
                throw WallRunError.outputIsInput(clash == 0 ? output : manifest ?? output)
            }
        }
    }

    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Decoder warnings per tile, gathered from the decoding threads.
final class TileWarnings: Sendable {
    private let store = Mutex<[Int: [String]]>([:])

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
            throw EncodeError(path: path, reason: "short write")
        }
        try file.commit()
    }
}

extension Error {
    /// The reason part of a codec error, or the whole description of another error.
    var reason: String {
        switch self {
        case let error as DecodeError: return error.reason
        case let error as ProbeError: return error.reason
        default: return String(describing: self)
        }
    }
}
