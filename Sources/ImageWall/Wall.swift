import Foundation
import WallCodecs
import WallCore
import WallFiles
import WallLayout

/// A contact sheet of a set of image files and folders: probe, lay out, render. The entry
/// point of the library; the stages it runs live in `Input/`, `Plan/`, `Tiles/`, `Render/`
/// and `Manifest/`.
///
/// ```swift
/// var layout = LayoutConfiguration(kind: .justified)
/// layout.width = 2400
/// var options = WallOptions(layout: layout)
/// options.limits.threads = 2
/// let manifest = try Wall(inputs: ["Photos"]).render(to: "sheet.png", options: options)
/// ```
public struct Wall: Sendable {
    /// Files and folders, as the user gave them.
    public var inputs: [String]

    /// The version the command line and the PNG's Software text report.
    public static let version = ImageWallRelease.version

    /// A wall of `inputs`: image files, or folders whose images are taken in name order.
    public init(inputs: [String]) {
        self.inputs = inputs
    }

    /// Reads every input's header, on `threads` threads.
    public func probe(
        threads: Int = 1, maxImagePixels: Int = ImageProbe.defaultMaxImagePixels,
        scan: InputScanner.Options = InputScanner.Options(), progress: ProgressReporter? = nil
    ) -> ProbeResult {
        InputProbe.probe(inputs, threads: threads, maxImagePixels: maxImagePixels, scan: scan, progress: progress)
    }

    /// Probes the inputs and lays them out, without decoding any pixels.
    ///
    /// With ``ErrorPolicy/fail`` the first unreadable input is thrown; with
    /// ``ErrorPolicy/skip`` it is reported through the hooks' diagnostics and listed under
    /// `skipped`.
    public func plan(options: WallOptions, hooks: RunHooks = RunHooks()) throws -> Plan {
        try options.layout.validate()
        return try Plan.laidOut(
            InputProbe.ordered(inputs, options: options, hooks: hooks), options: options, hooks: hooks)
    }

    /// Renders the sheet to `output` (written atomically, in the ``PageFormat`` its name asks
    /// for: a PNG, or a Deep Zoom pyramid for `NAME.dzi`; several pages when the layout asks for
    /// them, named by ``OutputNaming``) and, when `manifestPath` is given, its JSON manifest. An
    /// output named for a format ImageWall does not write is a ``PageFormatError``.
    ///
    /// With ``ErrorPolicy/fail`` the first unreadable input stops the render before any file
    /// is written; with ``ErrorPolicy/skip`` it is reported through the hooks' diagnostics and
    /// listed under `skipped`. Returns the manifest.
    @discardableResult
    public func render(
        to output: String, manifest manifestPath: String? = nil, options: WallOptions, hooks: RunHooks = RunHooks()
    ) throws -> Manifest {
        try render(variants: [(output, options)], manifests: manifestPath.map { [$0] }, hooks: hooks)[0]
    }

    /// Renders several variants of the same inputs (e.g. column counts or widths) in one run:
    /// every source is probed once, and decoded once for all the variants whose own decode is
    /// the same, each variant's tile resampled from it as a render of that variant alone does,
    /// so each variant's sheet and manifest are those it would have alone. `manifests`, when
    /// given, has one path per variant. What `alongside` stages (a gallery page) is put in place
    /// with the sheets and manifests, all or none.
    @discardableResult
    public func render(
        variants: [(output: String, options: WallOptions)], manifests: [String]? = nil, hooks: RunHooks = RunHooks(),
        alongside: Alongside? = nil
    ) throws -> [Manifest] {
        try renderStreamed(variants: variants, manifests: manifests, hooks: hooks, alongside: alongside).map(\.manifest)
    }

    /// Renders as ``render(variants:manifests:hooks:alongside:)`` does, and returns each
    /// variant's manifest as it was written, each tile made from the plan when it is read (see
    /// ``StreamedManifest``): what the command keeps, so that a million tiles are never held
    /// together.
    package func renderStreamed(
        variants: [(output: String, options: WallOptions)], manifests: [String]? = nil, hooks: RunHooks = RunHooks(),
        alongside: Alongside? = nil
    ) throws -> [StreamedManifest] {
        precondition(!variants.isEmpty && (manifests == nil || manifests!.count == variants.count))
        for variant in variants { try variant.options.effectiveLayout.validate() }
        let formats = try variants.map { try PageFormat(path: $0.output) }
        try OutputFolders.check(variants.map(\.output) + (manifests ?? []))
        return try ImageDecoder.keepingProbedFiles { () throws in
            let probed = try InputProbe.ordered(inputs, options: variants[0].options, hooks: hooks)
            let jobs = try variants.enumerated().map { v, variant in
                let plan = try Plan.laidOut(probed, options: variant.options, hooks: hooks)
                return SheetBatch.Job(
                    plan: plan, options: variant.options,
                    pages: formats[v].pageFiles(for: variant.output, count: plan.arrangement.pages.count),
                    format: formats[v], manifest: manifests?[v])
            }
            return try SheetBatch(jobs: jobs, hooks: hooks, alongside: alongside).run()
        }
    }

    /// Renders exactly the layout recorded in `manifest` again (same tiles, rectangles, crops,
    /// pages and options) from its sources as they are now, e.g. to regenerate a fixture after
    /// a source image changed. A source whose size changed is warned about and drawn into its
    /// recorded rectangle, never distorted (scaled, or cropped as `cover` crops when its shape
    /// changed; refused under `options.limits.strict`); one that cannot be read is skipped (drawn as a
    /// placeholder) or stops the render, as `options.limits.onError` says. Pages go to `output` (named as usual) or, by
    /// default, to the files the manifest records. Sources are found under `root` when given
    /// (by their paths under their own roots); else, when `recordedAt` (the manifest's file)
    /// is given and the manifest knows where its roots were from it, there if they are there
    /// (the manifest moved with its sources); else as recorded. What `alongside` stages is put
    /// in place with the pages and the manifest, all or none.
    @discardableResult
    public static func render(
        from manifest: Manifest, to output: String? = nil, manifest manifestPath: String? = nil, root: String? = nil,
        recordedAt: String? = nil, options: WallOptions, hooks: RunHooks = RunHooks(), alongside: Alongside? = nil
    ) throws -> Manifest {
        try renderStreamed(
            from: manifest, to: output, manifest: manifestPath, root: root, recordedAt: recordedAt, options: options,
            hooks: hooks, alongside: alongside
        ).manifest
    }

    /// Renders as ``render(from:to:manifest:root:recordedAt:options:hooks:alongside:)`` does,
    /// and returns the manifest as it was written, each tile made from the plan when it is read
    /// (see ``StreamedManifest``).
    package static func renderStreamed(
        from manifest: Manifest, to output: String? = nil, manifest manifestPath: String? = nil, root: String? = nil,
        recordedAt: String? = nil, options: WallOptions, hooks: RunHooks = RunHooks(), alongside: Alongside? = nil
    ) throws -> StreamedManifest {
        let recorded = manifest.pages.compactMap(\.file)
        let format = try (output ?? recorded.first).map(PageFormat.init(path:)) ?? .png
        return try ImageDecoder.keepingProbedFiles { () throws in
            let (plan, options) = try Replay.plan(
                of: manifest, options: options, root: root, recordedAt: recordedAt, hooks: hooks)
            let count = plan.arrangement.pages.count
            let pages =
                output.map { format.pageFiles(for: $0, count: count) } ?? (recorded.count == count ? recorded : [])
            let job = SheetBatch.Job(plan: plan, options: options, pages: pages, format: format, manifest: manifestPath)
            return try SheetBatch(jobs: [job], hooks: hooks, alongside: alongside).run()[0]
        }
    }

    /// The manifest of a plan, without a rendered page: what `imagewall layout` prints.
    public static func manifest(of plan: Plan, options: WallOptions) -> Manifest {
        streamedManifest(of: plan, options: options).manifest
    }

    /// The manifest of a plan, without a rendered page, each tile made from the plan as it is
    /// written or read (see ``StreamedManifest``).
    public static func streamedManifest(of plan: Plan, options: WallOptions) -> StreamedManifest {
        StreamedManifest(plan: plan, options: options, outputs: [])
    }

    /// The manifest of a layout of bare sizes (no files): sources are named `sizes[i]`.
    public static func manifest(ofSizes sizes: [Size], options: WallOptions) throws -> Manifest {
        try streamedManifest(ofSizes: sizes, options: options).manifest
    }

    /// The manifest of a layout of bare sizes (no files), each tile made from the layout as it is
    /// written or read (see ``StreamedManifest``): sources are named `sizes[i]`.
    public static func streamedManifest(ofSizes sizes: [Size], options: WallOptions) throws -> StreamedManifest {
        let arrangement = try options.effectiveLayout.arrange(sizes)
        return StreamedManifest(
            arrangement: arrangement, tileCount: sizes.count,
            source: { Manifest.Source(sizeAt: $0, displayed: sizes[$0]) }, sectionTitles: [],
            options: options, outputs: [], messages: nil, skipped: [])
    }

    /// Reads a manifest file, its tiles decoded on `threads` threads.
    public static func readManifest(_ path: String, threads: Int = 1) throws -> Manifest {
        try ManifestReader.read(path, threads: threads).manifest
    }
}

extension Error {
    /// The reason part of a codec error, or the whole description of another error.
    public var reason: String {
        (self as? CodecError)?.reason ?? String(describing: self)
    }
}
