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
            "The sheet to write, in the format its name says: \(PageFormat.names(joinedBy: "or")), PNG when it says none; {page}, {columns}, {width} and {layout} are replaced per page and variant.",
            valueName: "OUT.png"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "What to write: \(PageFormat.purposes). Default: as OUT's name says, png when it says none.",
            valueName: PageFormat.allCases.map(\.rawValue).joined(separator: "|")))
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
            "Also write a small HTML page showing the sheet at the window's width, each tile opening large (a JPEG rendition beside the page for HEIC, TIFF, JPEG XL, RAW and video originals) and linking to its source; with variants of different --columns and one page name, one page showing each window the variant that suits it.",
            valueName: "file.html"))
    var html: String?

    @Option(
        help: ArgumentHelp(
            "How the sheet is deflated: imagewall (ImageWall's own deflater: runs, as zlib's run-length strategy codes them, at about four times its speed and no larger), rle (zlib's run-length strategy) or zlib's LZ77 at a level 0 (stored) to 9 (smallest); 6 with --png-filter adaptive is libpng's default.",
            valueName: "imagewall|rle|0-9"))
    var compression: PNGCompression = libraryDefaults.rendering.compression

    @Option(
        help: ArgumentHelp(
            "PNG row filter: adaptive (libpng's default), none, sub, up, average, paeth.", valueName: "filter"))
    var pngFilter: PNGFilter = libraryDefaults.rendering.pngFilter

    @Option(
        help: ArgumentHelp(
            "Quality of JPEG and WebP sheets and of a PDF's pictures, 1 (smallest) to 100 (default \(RenderSettings.defaultQuality)); lossless keeps a PDF's pictures whole.",
            valueName: "1-100|lossless"))
    var quality: SheetQuality?

    @Option(
        help: ArgumentHelp(
            "The paper of a PDF sheet: a4 (the default), a3, a5, letter, legal or WxHmm (210x297mm). With --dpi and --margin it sets the sheet's width and page height, unless --width and --max-height do.",
            valueName: "a4|letter|WxHmm"))
    var paper: Paper?

    @Option(help: ArgumentHelp("Pixels per inch of a PDF's pictures (default 300).", valueName: "n"))
    var dpi: Int?

    @Option(help: ArgumentHelp("A PDF page's margin on every side, in millimetres (default 10).", valueName: "mm"))
    var margin: Double?

    init() {}

    /// Refuses an output named for a format ImageWall does not write, or for another one than
    /// `--format` asks for.
    func validate() throws {
        if quality?.value == 0 && pageFormat != .pdf {
            throw ValidationError("--quality lossless is for a PDF's pictures: a lossless sheet is a PNG")
        }
        if (paper != nil || dpi != nil || margin != nil) && pageFormat != .pdf {
            throw ValidationError("--paper, --dpi and --margin shape a PDF: write -o sheet.pdf")
        }
        if html != nil && pageFormat == .pdf {
            throw ValidationError("--html shows sheets as images in a page: write PNG, JPEG or WebP sheets for it")
        }
        if let printed = printedPaper, !printed.isUsable {
            throw ValidationError("--paper \(printed), --dpi and --margin leave no room for a picture")
        }
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

    /// The paper a PDF sheet is printed on, with the resolution and margins asked for; `nil`
    /// for other formats.
    var printedPaper: Paper? {
        guard pageFormat == .pdf else { return nil }
        var printed = paper ?? .a4
        printed.dpi = dpi ?? printed.dpi
        printed.margin = margin ?? printed.margin
        return printed
    }

    /// Sets how pages are encoded.
    func apply(to options: inout WallOptions) {
        options.rendering.compression = compression
        options.rendering.pngFilter = pngFilter
        options.rendering.quality = quality?.value
        options.rendering.paper = printedPaper
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
        if let manifest, Set(variants.map { OutputNaming.variant(manifest, for: $0) }).count < paths.count {
            throw ValidationError("--manifest \(manifest) names every variant the same: add {columns} and/or {width}")
        }
        // One --html page for all the variants shows each window one of them, told apart by
        // their column counts; pyramids and PDFs have pages of their own.
        if let html, Set(variants.map { OutputNaming.variant(html, for: $0) }).count < paths.count {
            if Set(variants.map(\.columns)).count < variants.count || pageFormat == .deepZoom {
                throw ValidationError(
                    "--html \(html) names every variant the same: one page shows variants of different --columns (PNG, JPEG or WebP sheets); else add {columns} and/or {width}"
                )
            }
        }
    }
}
