import ArgumentParser
import ImageWall
import WallCodecs
import WallLayout

/// What `render` writes and how: the sheet's file and format, its manifest and page, and how
/// its PNG is deflated.
struct OutputOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
            "The sheet to write: PNG, or JPEG (OUT.jpg), WebP (OUT.webp) or a Deep Zoom pyramid (OUT.dzi) as its name says; {page}, {columns}, {width} and {layout} are replaced per page and variant.",
            valueName: "OUT.png"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "What to write: png (one PNG a page, lossless: the format of fixtures), jpeg or webp (one a page, lossy, a seventh of the PNG or less: to mail or to show), or dzi (a Deep Zoom pyramid a page: OUT.dzi and OUT_files/LEVEL/COL_ROW.png, for zoomable viewers). Default: as OUT's name says, png when it says none.",
            valueName: "png|jpeg|webp|dzi"))
    var format: PageFormat?

    @Option(
        help: ArgumentHelp(
            "The Deep Zoom pyramid's tiles: png (lossless, exactly the sheet's pixels) or jpeg (smaller; opaque backgrounds only).",
            valueName: "png|jpeg"))
    var tileFormat: DeepZoomTileFormat = libraryDefaults.deepZoomTiles

    @Option(help: ArgumentHelp("Also write the JSON manifest of the layout here.", valueName: "file.json"))
    var manifest: String?

    @Option(
        help: ArgumentHelp(
            "Also write a small HTML page showing the sheet at the window's width, each tile linking to its source.",
            valueName: "file.html"))
    var html: String?

    @Option(
        help: ArgumentHelp(
            "How the sheet is deflated: rle (zlib's run-length strategy: fast, near libpng's default size) or an LZ77 level 0 (stored) to 9 (smallest); 6 with --png-filter adaptive is libpng's default.",
            valueName: "rle|0-9"))
    var compression: PNGCompression = libraryDefaults.rendering.compression

    @Option(
        help: ArgumentHelp(
            "PNG row filter: adaptive (libpng's default), none, sub, up, average, paeth.", valueName: "filter"))
    var pngFilter: PNGFilter = libraryDefaults.rendering.pngFilter

    @Option(
        help: ArgumentHelp(
            "Quality of JPEG and WebP sheets, 1 (smallest) to 100 (default \(RenderSettings.defaultQuality)).",
            valueName: "1-100"))
    var quality: Int?

    init() {}

    /// Refuses an output named for a format ImageWall does not write, or for another one than
    /// `--format` asks for.
    func validate() throws {
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1 to 100") }
        guard let output else { return }
        do {
            _ = try PageFormat.resolve(output: output, format: format)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The sheet's path as `--format` names it ("wall" becomes "wall.dzi").
    var sheet: String? { resolved?.path }

    /// The format of the sheet's pages, as `--format` or the output's name says.
    var pageFormat: PageFormat? { resolved?.format ?? format }

    /// The output and its format as ``PageFormat/resolve(output:format:)`` makes them, when
    /// there is an output and its name and `--format` agree.
    private var resolved: (path: String, format: PageFormat)? {
        output.flatMap { try? PageFormat.resolve(output: $0, format: format) }
    }

    /// Sets how pages are encoded.
    func apply(to options: inout WallOptions) {
        options.rendering.compression = compression
        options.rendering.pngFilter = pngFilter
        options.rendering.quality = quality
        options.deepZoomTiles = tileFormat
    }

    /// Refuses a batch whose variants would all write the same files: each of `-o`,
    /// `--manifest` and `--html` must name every variant apart.
    func validate(variants: [LayoutConfiguration]) throws {
        guard variants.count > 1, let output else { return }
        let paths = variants.map { OutputNaming.variant(output, for: $0) }
        if Set(paths).count < paths.count {
            throw ValidationError(
                "-o \(output) names every variant the same: add {columns} and/or {width} (e.g. sheet-{columns}x{width}.png)"
            )
        }
        for (flag, path) in [("--manifest", manifest), ("--html", html)] {
            if let path, Set(variants.map { OutputNaming.variant(path, for: $0) }).count < paths.count {
                throw ValidationError("\(flag) \(path) names every variant the same: add {columns} and/or {width}")
            }
        }
    }
}
