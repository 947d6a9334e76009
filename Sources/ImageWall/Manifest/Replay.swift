import WallCodecs
import WallCore
import WallFiles
import WallLayout

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A manifest turned back into a plan: the recorded tiles, rectangles, crops, pages and
/// options, with each source probed as it is now.
package enum Replay {
    /// The plan `manifest` records, its sources probed again, and `base` with the recorded
    /// layout and rendering settings. A source whose size changed is drawn into its recorded
    /// rectangle, never distorted: its crop scaled to the new size when its shape is the same,
    /// else cropped to the rectangle as `cover` crops (by the layout's gravity); it is warned
    /// about and recorded, and under `base.limits.strict` refused (drawn as a placeholder, or the run stops).
    /// One that cannot be read is kept in place to be drawn as a placeholder, or stops the run,
    /// as `base.limits.onError` says. Sources are found as
    /// ``source(of:in:root:recordedAt:)`` says. A manifest holding some of a wall's tiles (as a
    /// part reads it, see ``ManifestReader/read(_:threads:keeping:)``) gives a plan of those tiles,
    /// which knows each one's index in the wall.
    package static func plan(
        of manifest: Manifest, options base: WallOptions, root: String? = nil, recordedAt: String? = nil,
        hooks: RunHooks
    ) throws -> (
        plan: Plan, options: WallOptions
    ) {
        var options = base
        options.layout = manifest.layout.configuration
        options.grouping = manifest.layout.grouping
        options.background = manifest.layout.background
        if let recorded = manifest.render { options.rendering = recorded }
        if let title = manifest.title { options.rendering.title = title.text }
        let probe = ImageProbe(maxImagePixels: options.limits.maxImagePixels)
        var images: [ProbedImage] = []
        var placements: [Placement] = []
        var skipped: [CodecError] = []
        var recipes: [Int: TileRecipe] = [:]
        var warnings: [Int: [String]] = [:]
        for tile in manifest.tiles {
            let recorded = Size(width: tile.sourceWidth, height: tile.sourceHeight)
            let path = Replay.source(of: tile, in: manifest, root: root, recordedAt: recordedAt)
            var image = ProbedImage(path: path, info: Replay.recordedInfo(tile))
            if let root = tile.root, let relative = tile.path { image.origin = .init(root: root, path: relative) }
            do {
                if let page = tile.sourcePage {
                    image.info = try probe.probe(path: path, page: page)
                } else {
                    image.info = try probe.probe(path: path)
                }
                image.readFileStatus()
            } catch {
                if options.limits.onError == .fail { throw error }
                hooks.diagnostics(.skipped(source: error.path, reason: error.reason, stage: .probe))
                skipped.append(error)
                // Kept in its recorded place; decoding will fail and draw it grey.
            }
            image.sortKey = tile.sortKey
            image.companions = tile.companions ?? []
            image.stack = tile.stack
            if tile.mark != .video { image.pairing = tile.mark }
            let now = image.info.displayedSize
            var crop = tile.crop
            if let changed = SourceChange(then: recorded, now: now, gravity: options.layout.gravity) {
                crop = changed.crop(crop, drawnAt: Size(width: tile.width, height: tile.height))
                let change = changed.description(since: "the manifest")
                if options.limits.strict {
                    let reason = change + " (--strict)"
                    if options.limits.onError == .fail { throw CodecError(.probe, path: path, reason: reason) }
                    image.refusal = reason
                    skipped.append(CodecError(.probe, path: path, reason: reason))
                } else {
                    warnings[images.count, default: []].append(change + ", " + changed.drawn)
                }
            }
            // A batch variant's tile is made the same way again, while its source is the same size.
            if now == recorded, let recipe = tile.recipe(forSourceOf: now) { recipes[images.count] = recipe }
            images.append(image)
            placements.append(
                Placement(
                    cell: tile.cell.rect, image: Rect(x: tile.x, y: tile.y, width: tile.width, height: tile.height),
                    caption: tile.caption?.rect, crop: crop,
                    section: tile.section, page: tile.page))
        }
        let arrangement = Arrangement(
            pages: manifest.pageSizes, placements: placements,
            sectionHeaders: manifest.sections.map {
                SectionHeader(section: $0.index, frame: $0.header.rect, page: $0.page)
            },
            title: manifest.title?.box.rect)
        let titles = manifest.sections.sorted { $0.index < $1.index }.map(\.title)
        var plan = Plan(
            images: images, skipped: skipped, arrangement: arrangement, sectionTitles: titles, recipes: recipes)
        plan.roots = manifest.roots?.map(\.path) ?? []
        plan.warnings = warnings
        plan.decodeFloor = options.rendering.tile.decodeFloor
        if manifest.tiles.enumerated().contains(where: { $0.offset != $0.element.index }) {
            plan.wallIndices = manifest.tiles.map(\.index)
        }
        return (plan, options)
    }

    /// What the manifest records of a tile's source, for one not probed (or unreadable).
    private static func recordedInfo(_ tile: Manifest.Tile) -> ImageInfo {
        var info = ImageInfo(
            format: ImageFormat(rawValue: tile.format ?? "png") ?? .png,
            storedSize: Size(width: tile.sourceWidth, height: tile.sourceHeight), colorModel: .rgb, bitDepth: 8,
            hasAlpha: false, isProgressive: false)
        info.page = tile.sourcePage
        return info
    }

    /// Where tile `tile`'s source is now: under `root` when given (its path under its own root,
    /// or for an older manifest its source as recorded); else, for a manifest read from
    /// `recordedAt` that knows where its roots were from it, there when the file is there (the
    /// manifest moved with its sources, as fixtures do); else its source as recorded.
    static func source(of tile: Manifest.Tile, in manifest: Manifest, root: String?, recordedAt: String?) -> String {
        if let root { return path(tile.path ?? tile.source, under: root) }
        if let recordedAt, let index = tile.root, let relative = tile.path, let roots = manifest.roots,
            roots.indices.contains(index), let fromManifest = roots[index].fromManifest
        {
            let moved = path(path(relative, under: fromManifest), under: FilePaths.directory(of: recordedAt))
            if access(moved.systemPath, F_OK) == 0 { return moved }
        }
        return tile.source
    }

    /// `source` under `root` when it is relative.
    static func path(_ source: String, under root: String) -> String {
        guard !source.hasPrefix("/"), !root.isEmpty, root != "." else { return source }
        return root.hasSuffix("/") ? root + source : root + "/" + source
    }
}

extension Manifest {
    /// Every page's size (a manifest from before pages were listed for layouts has only the first).
    package var pageSizes: [Size] {
        pages.isEmpty ? [Size(width: width, height: height)] : pages.map { Size(width: $0.width, height: $0.height) }
    }
}
