import ArgumentParser
import Foundation
import ImageWall

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

    /// For `--sort random` without `--seed`: see ``SelectionOptions/pickedSeed(quiet:)``.
    func pickedSeed(quiet: Bool) -> UInt64? { selection.pickedSeed(quiet: quiet) }

    /// Refuses --null without a list to read.
    func validateList() throws {
        if null && filesFrom == nil { throw ValidationError("--null goes with --files-from FILE") }
    }

    func apply(to options: inout WallOptions) {
        selection.apply(to: &options)
        options.scan.recursive = recursive
    }
}
