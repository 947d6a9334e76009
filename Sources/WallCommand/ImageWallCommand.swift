import ArgumentParser
import ImageWall
import WallCore

/// The `imagewall` command: contact sheets of folders of images.
public struct ImageWallCommand: ParsableCommand {
    /// The version `--version` prints.
    public static let version = ImageWallRelease.version

    /// The command's name, abstract, discussion with examples, and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "imagewall",
        abstract:
            "Lay out folders of images (JPEG, PNG, HEIF, AVIF, WebP, TIFF, GIF, JPEG XL, camera RAW, video; BMP, PSD, OpenEXR, JPEG 2000 and more through FFmpeg; SVG, PDF) as a wall (masonry, grid, justified and more) and render it to a contact sheet (PNG, JPEG, WebP, PDF or Deep Zoom).",
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
