import ImageWall
import WallCodecs
import WallCore
import WallFiles

extension Wall {
    /// Renders part `part` of the sheet the manifest at `manifestPath` records to the part file
    /// `output`: its share of the bands (see ``SheetPart``), compressed exactly as a whole
    /// render compresses them, with a header naming the manifest (a hash of its bytes), the
    /// sheet's pages and the part. Only the tiles those rows meet are decoded; memory is bounded
    /// as for a whole render. Relative sources are found under `root` when given. Any worker
    /// that sees the sources can render any part; ``assemble(parts:to:tiles:threads:hooks:)``
    /// joins them. With `deepZoom`, the part also makes the top-level tiles of a Deep Zoom
    /// pyramid that its rows hold whole, so that assembling a pyramid only makes the rest.
    @discardableResult
    public static func render(
        part: SheetPart, ofManifestAt manifestPath: String, to output: String, root: String? = nil,
        deepZoom: DeepZoomTileFormat? = nil, options: WallOptions, hooks: RunHooks = RunHooks()
    ) throws -> PartHeader {
        // Only the tiles this part draws are read and probed: those its rows and the row
        // above meet (a pyramid's tiles overlap it).
        let (manifest, identity) = try hooks.profile.measure(.manifest, wall: true) {
            try ManifestReader.read(manifestPath, threads: options.limits.threads) { manifest in
                let rows = part.rows(of: manifest.pageSizes)
                return { page, cell in
                    rows.contains { $0.page == page && cell.y < $0.to && cell.y + cell.height >= $0.from }
                }
            }
        }
        let (plan, options) = try Replay.plan(
            of: manifest, options: options, root: root, recordedAt: manifestPath, hooks: hooks)
        return try PartRender(plan: plan, options: options, hooks: hooks).run(
            part, manifestID: identity.description, to: output, deepZoom: deepZoom)
    }

    /// Joins the part files at `parts` (in any order) into the sheet's PNG, or its pages named
    /// from `output` as a render names them: byte-identical to rendering the manifest in one
    /// process, without decoding or compressing anything again. With `output` ending in `.dzi`,
    /// each page becomes a Deep Zoom pyramid instead (tiles in `tiles`, made on `threads`
    /// threads), its rows decoded from the parts as they stream. Parts of another manifest, a
    /// part missing or given twice, a truncated or damaged part: a ``PartError`` naming it, and
    /// nothing written. What `alongside` stages is put in place with the pages, all or none.
    /// Returns the files written.
    @discardableResult
    public static func assemble(
        parts: [String], to output: String, tiles: DeepZoomTileFormat = .png, threads: Int = 1,
        hooks: RunHooks = RunHooks(), alongside: AssemblyAlongside? = nil
    ) throws -> [String] {
        try PartAssembler.assemble(
            parts, to: output, tiles: tiles, threads: threads, isCancelled: hooks.isCancelled, alongside: alongside)
    }

    /// What an assembly writes besides its pages (a gallery page), staged once the pages are
    /// complete: given the pages' files and, for each written to a file, where its bytes are
    /// until it is put in place; put in place with the pages, all or none.
    public typealias AssemblyAlongside =
        @Sendable (_ pages: [String], _ written: [String: String]) throws -> [any StagedOutput]

    /// The header of the part file at `path`.
    public static func partHeader(_ path: String) throws -> PartHeader {
        try PartReader(path: path).header
    }

    /// The manifest at `path`, and how a part file names it (a hash of the bytes it was read
    /// from), as ``PartHeader/manifest`` holds it: one reading of the file gives both, its tiles
    /// decoded on `threads` threads.
    public static func readManifestAndIdentity(_ path: String, threads: Int = 1) throws -> (
        manifest: Manifest, identity: String
    ) {
        let (manifest, identity) = try ManifestReader.read(path, threads: threads)
        return (manifest, identity.description)
    }
}
