import ArgumentParser

/// Rendering and comparing with a golden sheet in one run.
struct CheckOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Render to a temporary file and compare it with this golden sheet, as imagewall diff does: exit 0 when they match, 1 when they differ, 2 when they cannot be compared.",
            valueName: "golden.png"))
    var check: String?

    @Option(
        help: ArgumentHelp(
            "With --check: the golden sheet's manifest, to name the tiles that differ (and for --ignore); --update rewrites it too.",
            valueName: "golden.json"))
    var checkManifest: String?

    @Flag(
        help:
            "With --check: replace the golden sheet (and manifest) with the new render when they differ, or create it."
    )
    var update = false

    @OptionGroup
    var comparing: CompareOptions

    init() {}

    /// Refuses the check's companions without it.
    func validate() throws {
        if !comparing.ignore.isEmpty && checkManifest == nil {
            throw ValidationError("--ignore names tiles: give the golden manifest with --check-manifest")
        }
        if check == nil && (checkManifest != nil || update) {
            throw ValidationError("--check-manifest and --update go with --check golden.png")
        }
    }
}
