import ArgumentParser
import ImageWall
import WallCompositor
import WallCore

/// How the sheet looks beyond its layout: background, captions, title, fonts, corners and
/// borders, and how images are resampled.
struct AppearanceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Sheet colour: #rrggbb, #rgb, #rrggbbaa, a name (white, black, gray, charcoal, …) or transparent for an RGBA sheet.",
            valueName: "color"))
    var background: RGBAColor = libraryDefaults.background

    @Option(
        help: ArgumentHelp(
            "Caption under each image, from fields \(CaptionField.helpList). [ … ] is left out when a field in it has no value: '{stem}[ · {camera}][ · {exposure}]'; {lens|no lens} gives a fallback; {{ }} [[ ]] are the characters.",
            valueName: "template"))
    var caption: String?

    @Option(help: ArgumentHelp("A title across the top of the first page.", valueName: "text"))
    var title: String?

    @Option(
        help: ArgumentHelp(
            "Font for captions, title and headers: a file, a family fontconfig knows (\"Liberation Sans\", \"DejaVu Serif:bold\"; fc-list : family lists them) or a font file's name (DejaVuSans-Bold). Characters it lacks come from the installed fonts fontconfig ranks after it; Arabic, Hebrew, Devanagari and other scripts are shaped by HarfBuzz.",
            valueName: "path|name"))
    var font: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Caption text size (default: from --caption-height, or \(RenderSettings.defaultFontSize)).",
            valueName: "px"))
    var fontSize: Int?

    @Option(
        help: ArgumentHelp(
            "Colour of captions, title and headers (default: contrasting with the background).", valueName: "color"))
    var captionColor: RGBAColor?

    @Option(parsing: .unconditional, help: ArgumentHelp("Round each image's corners (anti-aliased).", valueName: "px"))
    var cornerRadius = libraryDefaults.rendering.style.cornerRadius

    @Option(parsing: .unconditional, help: ArgumentHelp("A border just inside each image's edge.", valueName: "px"))
    var border = libraryDefaults.rendering.style.border

    @Option(help: ArgumentHelp("Colour of the border.", valueName: "color"))
    var borderColor: RGBAColor = libraryDefaults.rendering.style.borderColor

    @Flag(help: "Resample in linear light (gamma-correct) instead of on sRGB values.")
    var linear = false

    init() {}

    /// Refuses negative sizes and a caption template that does not parse.
    func validate() throws {
        if cornerRadius < 0 || border < 0 { throw ValidationError("--corner-radius and --border cannot be negative") }
        let largest = RenderSettings.largestDecoration
        if cornerRadius > largest || border > largest {
            throw ValidationError("--corner-radius and --border are at most \(largest) px")
        }
        if let fontSize, !(1...largest).contains(fontSize) {
            throw ValidationError("--font-size must be 1 to \(largest) (got \(fontSize))")
        }
        if let caption {
            do { _ = try CaptionTemplate(caption) } catch { throw ValidationError(error.message) }
        }
    }

    /// Sets the sheet's look.
    func apply(to options: inout WallOptions) {
        options.background = background
        options.rendering.caption = caption.flatMap { try? CaptionTemplate($0) }
        options.rendering.title = title
        options.rendering.font = font
        options.rendering.fontSize = fontSize
        options.rendering.textColor = captionColor
        options.rendering.style = TileStyle(cornerRadius: cornerRadius, border: border, borderColor: borderColor)
        options.rendering.tile.linear = linear
    }
}
