import Foundation
import WallCodecs
import WallCore
import WallLayout

extension Wall {
    /// Renders exactly the layout recorded in `manifest` again (same tiles, rectangles, crops,
    /// pages and options) from its sources as they are now, e.g. to regenerate a fixture after
    /// a source image changed. A source whose size changed is drawn into its recorded rectangle
    /// (its crop scaled to the new size); one that cannot be read is skipped (drawn grey) or
    /// stops the render, as `options.onError` says. Pages go to `output` (named as usual) or, by
    /// default, to the files the manifest records.
    @discardableResult
    public static func render(
        from manifest: Manifest, to output: String? = nil, manifest manifestPath: String? = nil,
        options base: WallOptions, diagnostics: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) throws -> Manifest {
        var options = base
        options.layout = manifest.layout.configuration
        options.grouping = manifest.layout.grouping
        options.background = RGBAColor(parsing: manifest.layout.background) ?? .white
        try manifest.render?.apply(to: &options)
        let probe = ImageProbe(maxImagePixels: options.maxImagePixels)
        var images: [ProbedImage] = []
        var placements: [Placement] = []
        var skipped: [CodecError] = []
        var recipes: [Int: TileRecipe] = [:]
        for tile in manifest.tiles {
            let recorded = Size(width: tile.sourceWidth, height: tile.sourceHeight)
            var image: ProbedImage
            do {
                image = ProbedImage(path: tile.source, info: try probe.probe(path: tile.source))
            } catch {
                if options.onError == .fail { throw error }
                diagnostics(.skipped(source: error.path, reason: error.reason, stage: .probe))
                skipped.append(error)
                // Keep the recorded place; decoding will fail and draw it grey.
                image = ProbedImage(path: tile.source, info: ImageInfo(
                    format: ImageFormat(rawValue: tile.format ?? "png") ?? .png, storedSize: recorded,
                    colorModel: .rgb, bitDepth: 8, hasAlpha: false, isProgressive: false))
            }
            image.sortKey = tile.sortKey
            let now = image.info.displayedSize
            let sx = Double(now.width) / Double(max(1, recorded.width)), sy = Double(now.height) / Double(max(1, recorded.height))
            // A batch variant's tile is made the same way again, while its source is the same size.
            if now == recorded, let recipe = tile.recipe(forSourceOf: now) { recipes[images.count] = recipe }
            images.append(image)
            placements.append(Placement(
                cell: tile.cell.rect, image: Rect(x: tile.x, y: tile.y, width: tile.width, height: tile.height),
                caption: tile.caption?.rect,
                crop: tile.crop.map { $0.scaled(x: sx, y: sy) },
                section: tile.section, page: tile.page))
        }
        let pageSizes = manifest.pages.isEmpty
            ? [Size(width: manifest.width, height: manifest.height)]
            : manifest.pages.map { Size(width: $0.width, height: $0.height) }
        let arrangement = Arrangement(
            pages: pageSizes, placements: placements,
            sectionHeaders: manifest.sections.map { SectionHeader(section: $0.index, frame: $0.header.rect, page: $0.page) },
            title: manifest.title?.box.rect)
        let titles = manifest.sections.sorted { $0.index < $1.index }.map(\.title)
        let plan = Plan(images: images, skipped: skipped, arrangement: arrangement, sectionTitles: titles, recipes: recipes)
        let paths = output.map { PageNaming.paths(for: $0, count: pageSizes.count) } ?? manifest.pages.map(\.file)
        guard paths.count == pageSizes.count else { throw WallRunError.manifestWithoutPages }
        try SheetPipeline.checkSizes(pageSizes, cap: options.maxSheetPixels)
        try Wall(inputs: []).refuseOverwritingInputs(outputs: paths + [manifestPath].compactMap { $0 }, images: images)
        let pipeline = try SheetPipeline(plan: plan, options: options, diagnostics: diagnostics)
        try pipeline.render(to: paths)
        var result = Manifest(
            arrangement: arrangement, sources: images.map(Manifest.Source.init), sectionTitles: titles, options: options,
            outputs: paths, warnings: pipeline.warnings.messages(for:), skipped: skipped, recipes: recipes)
        result.title = manifest.title
        if let manifestPath { try ManifestWriter.write(result, to: manifestPath) }
        return result
    }

    /// Reads a manifest file.
    public static func readManifest(_ path: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
