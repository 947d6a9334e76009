import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallLayout

/// Renders one part of a replayed manifest's sheet to a part file: only the tiles its rows
/// meet are made, through the same ``RenderSession`` and page writer as a whole render, so
/// its segments are those of the whole sheet.
struct PartRender {
    /// The manifest's plan and the options it is drawn with.
    var plan: Plan
    var options: WallOptions
    let hooks: RunHooks

    /// Part `part` of the sheet, to the part file `path`. With `deepZoom`, the part also holds
    /// the top-level Deep Zoom tiles its rows hold whole, in that format (and its pages, being
    /// pyramids, are not held to the PNG's pixel cap). Returns the part's header.
    func run(_ part: SheetPart, manifestID: String, to path: String, deepZoom: DeepZoomTileFormat? = nil) throws
        -> PartHeader
    {
        let pages = plan.arrangement.pages
        let session = try RenderSession(
            images: plan.images, options: options, pages: [(pages, deepZoom == nil ? .png : .deepZoom)],
            outputs: [path], warnings: plan.warnings, hooks: hooks)
        defer { session.finish() }
        let cells = try session.cells(of: plan, options: options)
        let rows = part.rows(of: pages)
        let header = PartHeader(
            manifest: manifestID, part: part.number, parts: part.count, software: ImageWallRelease.software,
            settings: RenderSession.settingsID(options), compression: options.rendering.compression,
            pages: pages.map { .init(width: $0.width, height: $0.height, alpha: !options.background.isOpaque) },
            deepZoom: deepZoom, rows: rows)
        let hooks = self.hooks
        let plan = self.plan
        let tiles = Set(
            rows.flatMap { r in
                plan.arrangement.tiles(
                    intersecting: Rect(x: 0, y: r.from, width: pages[r.page].width, height: r.to - r.from), page: r.page
                )
            })
        hooks.progress?.begin(.render, total: tiles.count)
        let writer = session.pageWriter(plan: plan, options: options, cells: cells, threads: options.limits.threads)
        if deepZoom == .jpeg && !options.background.isOpaque {
            throw CodecError(
                .write, path: path, reason: "JPEG tiles cannot hold a transparent background: use PNG tiles")
        }
        let file = try AtomicFile(destination: path)
        var spill: PrivateFolder?
        defer { spill?.remove() }
        do {
            let part = try PartWriter(file: file, header: header)
            var made: [PartTiles] = []
            for r in rows {
                var pyramid: PartTiles?
                if let deepZoom {
                    let folder = try spill ?? PrivateFolder(beside: path, tag: "tiles")
                    spill = folder
                    pyramid = PartTiles(
                        page: r.page, size: pages[r.page], painted: max(0, r.from - 1)..<r.to,
                        channels: options.background.isOpaque ? 3 : 4, format: deepZoom, folder: folder.path)
                }
                try writer.paint(
                    page: r.page, rows: r.range, into: part.sink(page: r.page),
                    cell: { index in
                        defer { if tiles.contains(index) { hooks.progress?.advance(.render) } }
                        return try session.cell(index, of: plan, cells: cells)
                    },
                    tap: pyramid.map { pyramid in { band, count in try pyramid.add(rows: band, count: count) } })
                if let pyramid { made.append(pyramid) }
            }
            for pyramid in made {
                for tile in pyramid.made {
                    guard let bytes = try? FileContents.read(tile.file) else {
                        throw FileError(.write, path: tile.file, reason: "the tile just made cannot be read")
                    }
                    try part.append(tile: bytes, page: pyramid.page, column: tile.column, row: tile.row)
                    unlink(tile.file.systemPath)
                }
            }
            try part.finish()
            try file.finishWriting()
            hooks.progress?.begin(.write, total: 1)
            try file.commit()
            hooks.progress?.advance(.write)
        } catch {
            file.discard()
            throw error
        }
        return header
    }
}
