import ArgumentParser
import ImageWall
import WallCore
import WallFiles

/// The `imagewall` command: contact sheets of folders of images.
public struct ImageWallCommand: ParsableCommand {
    /// The version `--version` prints.
    public static let version = ImageWallRelease.version

    /// The command's name, abstract, discussion with examples, and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "imagewall",
        abstract:
            "Lay out folders of images (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, camera RAW, OpenEXR, video; BMP, PSD, JPEG 2000 and more through FFmpeg; SVG, PDF) as a wall (masonry, grid, justified and more) and render it to a contact sheet (PNG, JPEG, WebP, PDF or Deep Zoom).",
        discussion: """
            Images are read from their headers first (size, orientation), laid out, then \
            decoded once each at the size they are drawn, and painted in bands into a streamed \
            sheet. A JSON manifest can record where every tile went.

            EXAMPLES:
              imagewall render Photos -o sheet.png
              imagewall render Photos --width 2400 --columns 6 --gap 8 -o sheet.png --manifest sheet.json
              imagewall render Photos --layout justified --row-height 240 -o sheet.png
              imagewall layout Photos --layout grid --columns 6 --json
              imagewall probe Photos/*.jpg
              imagewall check fixtures/suite.json --junit fixtures.xml

            \(ExitStatus.described)
            """,
        version: version,
        subcommands: [
            Render.self, Gallery.self, Layout.self, Probe.self, Diff.self, Check.self, Assemble.self, Cache.self,
        ])

    /// A command with every option at its default, as ArgumentParser makes it.
    public init() {}
}

extension ImageWallCommand {
    /// The command's arguments (its name left out) with their bytes kept: a file named in
    /// Latin-1 is found (``SystemPath``), where `CommandLine.arguments` repairs it into another name.
    public static var systemArguments: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { SystemPath.string(cString: $0) }
        }
    }

    /// Runs the command line as `main()` does, starting sooner when it begins with the name of
    /// a subcommand that has none of its own (`imagewall render …`): that subcommand parses the
    /// rest on its own and runs. ArgumentParser's pass of the root command over the whole line
    /// makes the named subcommand's arguments twice only to learn that none takes the rest of
    /// the line (16 M instructions, about 4 ms of every start). Whatever that parse does not turn
    /// into the subcommand itself — help, a version, a completion request, an error — goes the
    /// usual way from the start, so what is printed and the exit status are `main()`'s own.
    ///
    /// First it sets the allocator's thresholds for the whole process, whichever subcommand runs
    /// (``ProcessSetup/tuneAllocator(mmapBytes:trimBytes:)``).
    public static func mainNamingSubcommandFirst(_ arguments: [String] = ImageWallCommand.systemArguments) {
        // Big pixel buffers (decoded photos, progressive JPEG coefficients, RAW previews) come
        // and go per image. glibc raises its mmap threshold after freeing such buffers and then
        // keeps them in fragmenting heap arenas; a fixed threshold of 16 MB returns the biggest
        // to the system, keeping peak memory flat (about 185 MB instead of 300 MB for 1,000
        // wallpapers), while a trim threshold of 64 MB keeps the smaller ones (a 24 MP preview
        // decoded at a quarter, 4.5 MB) for the next image instead of mapping and zeroing them
        // again: a RAW folder's render 0.95 s of system time → 0.12 s, and its `probe` (100
        // NEFs, each preview 2.3 MB) 0.60 s → 0.16 s.
        ProcessSetup.tuneAllocator()
        guard let parsed = parsedSubcommand(arguments) else {
            if let mistaken = notACommand(arguments) { exit(withError: mistaken) }
            main(arguments)
            return
        }
        do {
            var command = parsed
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The error for a command line that starts with what is no command, the way a user of
    /// `montage` or an older ImageWall writes one (`imagewall Photos -o sheet.png`): it says
    /// which command draws it; `nil` when the line starts with a command or an option.
    static func notACommand(_ arguments: [String]) -> ValidationError? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help",
            !configuration.subcommands.contains(where: { $0.configuration.commandName == first })
        else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let line = (["imagewall", "render"] + arguments).map { $0.displayed }.joined(separator: " ")
        return ValidationError(
            "'\(first.displayed)' is not a command (\(names.joined(separator: ", "))); to draw a sheet: \(line)")
    }

    /// The subcommand `arguments` name first and the rest parsed by it alone, or `nil` when
    /// they name none, it has subcommands of its own, or the parse ends in anything but that
    /// subcommand.
    static func parsedSubcommand(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first,
            let command = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
            command.configuration.subcommands.isEmpty,
            let parsed = try? command.parseAsRoot(Array(arguments.dropFirst())),
            ObjectIdentifier(type(of: parsed)) == ObjectIdentifier(command)
        else { return nil }
        return parsed
    }
}
