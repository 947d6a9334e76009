import ArgumentParser
import Foundation
import ImageWall

extension ImageWall.SortOrder: ExpressibleByArgument {}

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
        help: ArgumentHelp("Read more inputs from FILE, one path a line (- for standard input).", valueName: "file"))
    var filesFrom: String?

    @Option(
        help: ArgumentHelp(
            "Order: none (as given), name, natural (img2 before img10), path, mtime, date (EXIF, else mtime), size, aspect, random.",
            valueName: "order"))
    var sort: ImageWall.SortOrder = WallOptions().sort

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Option(help: ArgumentHelp("Seed of --sort random: the same seed gives the same order.", valueName: "n"))
    var seed: UInt64?

    func validate() throws {
        if sort == .random && seed == nil {
            throw ValidationError("--sort random needs --seed N, so that the order can be repeated")
        }
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
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        return inputs + lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }.filter { !$0.isEmpty }
    }

    var hasInputs: Bool { !inputs.isEmpty || filesFrom != nil }

    func apply(to options: inout WallOptions) {
        options.scan = InputScanner.Options(recursive: recursive, include: include, exclude: exclude)
        options.sort = sort
        options.reverse = reverse
        if let seed { options.seed = seed }
    }
}
