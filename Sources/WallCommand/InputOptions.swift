import ArgumentParser
import Foundation
import ImageWall

extension ImageWall.SortOrder: ExpressibleByArgument {}
extension PairPolicy: ExpressibleByArgument {}

/// Where the images come from and in which order (`render` and `layout`).
struct InputOptions: ParsableArguments {
    @Argument(help: "Image files and folders of images.")
    var inputs: [String] = []

    @Flag(name: [.short, .long], help: "Also take images from sub-folders (hidden ones excepted).")
    var recursive = false

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
            "Read more inputs from FILE (- for standard input): one path a line (LF or CRLF), or NUL-separated as find -print0 writes them (told by the NUL bytes, or --null).",
            valueName: "file"))
    var filesFrom: String?

    @Flag(
        name: [.customShort("0"), .customLong("null")],
        help: "--files-from's paths are separated by NUL bytes (find -print0, xargs -0), so names may hold line feeds.")
    var null = false

    @Option(
        help: ArgumentHelp(
            "Order: none (as given), name, natural (img2 before img10), path, mtime, date (taken: EXIF, else a date in the file name, else mtime), size, aspect, random.",
            valueName: "order"))
    var sort: ImageWall.SortOrder = WallOptions().sort

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Option(
        help: ArgumentHelp(
            "Seed of --sort random: the same seed gives the same order (without it one is picked and printed).",
            valueName: "n"))
    var seed: UInt64?

    func validate() throws {
        try validateList()
    }

    /// The inputs, with those of --files-from after the arguments.
    func allInputs() throws -> [String] {
        guard let filesFrom else { return inputs }
        let data: Data
        if filesFrom == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: filesFrom) else {
                throw ValidationError("--files-from \(filesFrom): cannot read the file")
            }
            data = contents
        }
        return inputs + InputList.paths(in: Array(data), separator: null ? .null : .automatic)
    }

    var hasInputs: Bool { !inputs.isEmpty || filesFrom != nil }

    /// For `--sort random` without `--seed`: a seed picked now, said on stderr unless `quiet`,
    /// so that the order can be asked for again.
    func pickedSeed(quiet: Bool) -> UInt64? {
        guard sort == .random, seed == nil else { return nil }
        let picked = UInt64.random(in: 1...999_999)
        if !quiet { Console.error("--sort random: seed \(picked) (give --seed \(picked) for this order again)") }
        return picked
    }

    /// Refuses --null without a list to read.
    func validateList() throws {
        if null && filesFrom == nil { throw ValidationError("--null goes with --files-from FILE") }
    }

    func apply(to options: inout WallOptions) {
        options.scan = InputScanner.Options(recursive: recursive, include: include, exclude: exclude, pairs: pairs)
        options.sort = sort
        options.reverse = reverse
        if let seed { options.seed = seed }
    }
}
