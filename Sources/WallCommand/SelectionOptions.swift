import ArgumentParser
import ImageWall

extension ImageWall.SortOrder: ExpressibleByArgument {}
extension PairPolicy: ExpressibleByArgument {}

/// Which files of a folder are drawn and in which order (`render`, `layout` and `gallery`).
struct SelectionOptions: ParsableArguments {
    @Option(
        name: .customLong("include"), parsing: .singleValue,
        help: ArgumentHelp(
            "Only files matching this glob (repeatable); without a slash it matches the file name.", valueName: "glob"))
    var include: [String] = []

    @Option(
        name: .customLong("exclude"), parsing: .singleValue,
        help: ArgumentHelp("Skip files matching this glob (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(
        help: ArgumentHelp(
            "together: a Live Photo (a HEIC or JPEG and its MOV) and a RAW+JPEG pair of the same name are one tile, the still marked LIVE or RAW+JPEG; separate: every file its own tile.",
            valueName: "together|separate"))
    var pairs: PairPolicy = .together

    @Option(
        help: ArgumentHelp(
            "Order: none (as given), name, natural (img2 before img10), path, mtime, date (taken: EXIF, else a date in the file name, else mtime), size, aspect, random.",
            valueName: "order"))
    var sort: ImageWall.SortOrder = WallOptions().input.sort

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Option(
        help: ArgumentHelp(
            "Seed of --sort random: the same seed gives the same order (without it one is picked and printed).",
            valueName: "n"))
    var seed: UInt64?

    init() {}

    /// For `--sort random` without `--seed`: a seed picked now, said on stderr unless `quiet`,
    /// so that the order can be asked for again.
    func pickedSeed(quiet: Bool) -> UInt64? {
        guard sort == .random, seed == nil else { return nil }
        let picked = UInt64.random(in: 1...999_999)
        if !quiet { Console.error("--sort random: seed \(picked) (give --seed \(picked) for this order again)") }
        return picked
    }

    /// Sets the filters, pairing and order (the scan's recursion is left as it is).
    func apply(to options: inout WallOptions) {
        options.input.scan.include = include
        options.input.scan.exclude = exclude
        options.input.scan.pairs = pairs
        options.input.sort = sort
        options.input.reverse = reverse
        if let seed { options.input.seed = seed }
    }
}
