import ArgumentParser
import Foundation
import ImageWall
import WallFiles

extension RejectedPolicy: ExpressibleByArgument {}
extension PageSelection: ExpressibleByArgument {}
extension StackMode: ExpressibleByArgument {}

/// Where the images come from and in which order (`render` and `layout`).
struct InputOptions: ParsableArguments {
    @Argument(help: "Image files and folders of images.")
    var inputs: [String] = []

    @Flag(name: [.short, .long], help: "Also take images from sub-folders (hidden ones excepted).")
    var recursive = false

    @Option(
        help: ArgumentHelp(
            "Read more inputs from FILE (- for standard input): one path a line (LF or CRLF), or NUL-separated as find -print0 writes them (told by the NUL bytes, or --null).",
            valueName: "file"))
    var filesFrom: String?

    @Flag(
        name: [.customShort("0"), .customLong("null")],
        help: "--files-from's paths are separated by NUL bytes (find -print0, xargs -0), so names may hold line feeds.")
    var null = false

    @OptionGroup
    var selection: SelectionOptions

    @Option(
        help: ArgumentHelp(
            "Only pictures rated at least N stars (0-5: EXIF Rating, else XMP xmp:Rating, read through Exiv2; unrated pictures count as 0, rejects as below any).",
            valueName: "N"))
    var minRating: Int?

    @Option(
        help: ArgumentHelp(
            "Pictures a photo organiser rejected (XMP xmp:Rating -1, as Lightroom, darktable and digiKam write it): include (as below any --min-rating), exclude, or only (a sheet of the rejects alone, to look at before deleting them).",
            valueName: "include|exclude|only"))
    var rejected: RejectedPolicy = .include

    @Option(
        help: ArgumentHelp(
            "Pages of a PDF: first (the document as one tile, drawn from its first page) or all (each page a tile of its own, in order; {page} captions its number).",
            valueName: "first|all"))
    var pages: PageSelection = .first

    @Option(
        help: ArgumentHelp(
            "Draw look-alike pictures (of one shape, close by perceptual hash and colours) as one tile, the sharpest (or the highest rated) with a badge \"+4\" for the others, all of them listed in the manifest: bursts (taken within --stack-gap seconds of each other, as the date sort reads the time) or similar (whenever taken: copies, re-encodes, resized versions). Each picture that could be stacked is decoded small to compare.",
            valueName: "bursts|similar"))
    var stack: StackMode?

    @Option(
        help: ArgumentHelp("With --stack bursts, the most seconds between two pictures of one burst.", valueName: "s"))
    var stackGap = 2

    @Option(
        help: ArgumentHelp(
            "With --stack, how many of the 64 bits of two pictures' perceptual hashes may differ (default 14 for bursts, 10 for similar; copies differ by 0-4, unrelated pictures by about 32).",
            valueName: "bits"))
    var stackDistance: Int?

    func validate() throws {
        try validateList()
        if stack == nil, stackDistance != nil || stackGap != 2 {
            throw ValidationError("--stack-gap and --stack-distance go with --stack bursts|similar")
        }
        if stackGap < 0 { throw ValidationError("--stack-gap \(stackGap): seconds are 0 or more") }
        if let stackDistance, !(0...64).contains(stackDistance) {
            throw ValidationError("--stack-distance \(stackDistance): a hash has 64 bits")
        }
        if let minRating, !(0...5).contains(minRating) {
            throw ValidationError("--min-rating \(minRating): stars are 0 to 5")
        }
    }

    /// The inputs, with those of --files-from after the arguments.
    func allInputs() throws -> [String] {
        guard let filesFrom else { return inputs }
        let data: Data
        if filesFrom == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = (try? FileContents.read(filesFrom)).map({ Data($0) }) else {
                throw ValidationError("--files-from \(filesFrom): cannot read the file")
            }
            data = contents
        }
        return inputs + InputList.paths(in: Array(data), separator: null ? .null : .automatic)
    }

    var hasInputs: Bool { !inputs.isEmpty || filesFrom != nil }

    /// For `--sort random` without `--seed`: see ``SelectionOptions/pickedSeed(quiet:)``.
    func pickedSeed(quiet: Bool) -> UInt64? { selection.pickedSeed(quiet: quiet) }

    /// Refuses --null without a list to read.
    func validateList() throws {
        if null && filesFrom == nil { throw ValidationError("--null goes with --files-from FILE") }
    }

    func apply(to options: inout WallOptions) {
        selection.apply(to: &options)
        options.input.scan.recursive = recursive
        options.input.rating = RatingFilter(minimum: minRating, rejected: rejected)
        options.input.pages = pages
        options.input.stacking = stack.map { StackOptions(mode: $0, gap: stackGap, distance: stackDistance) }
    }
}
