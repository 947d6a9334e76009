import ArgumentParser
import WallParts

/// Rendering a manifest again, whole or one part of it.
struct ReplayOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Render exactly the layout this manifest records again (tiles, rectangles, crops, options), from its sources as they are now; pages go to -o or to the recorded files.",
            valueName: "M.json"))
    var fromManifest: String?

    @Option(
        help: ArgumentHelp(
            "With --from-manifest: render only part K of N of the sheet (a run of its bands) to -o as a part file, for imagewall assemble; with --format dzi the part also makes the Deep Zoom pyramid's full-resolution tiles its rows hold.",
            valueName: "K/N"))
    var part: SheetPart?

    @Option(
        help: ArgumentHelp(
            "With --from-manifest: find each source under this folder by its path under its input (sub/a.jpg of Photos), wherever the inputs were.",
            valueName: "DIR"))
    var root: String?

    init() {}

    /// Refuses --part and --root without --from-manifest.
    func validate() throws {
        if fromManifest == nil, part != nil || root != nil {
            throw ValidationError("\(part != nil ? "--part" : "--root") goes with --from-manifest M.json")
        }
    }
}
