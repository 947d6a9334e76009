import ArgumentParser
import Foundation
import ImageWall
import WallCodecs

extension ImageWallCommand {
    /// `imagewall probe`: what each file's header says.
    public struct Probe: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "probe",
            abstract: "Show each image's format, size, orientation and colour from its header.",
            discussion: """
                Reads headers only, never pixels, of every format ImageWall reads \
                (\(ImageFormat.names)). "stored" is the size the pixels are kept at, "shown" the \
                size after the orientation (EXIF, the TIFF tag; HEIF files are shown as libheif \
                turns them); an embedded ICC profile (or a HEIF file's nclx colour) is named \
                after the colour model (rendering converts it to sRGB); "smaller" lists the \
                reduced versions a file holds (HEIF thumbnails, TIFF pyramid levels), which \
                rendering reads instead of the full image when they are large enough. \
                Unreadable files are listed with the reason, and the exit status is then 1, as \
                it is when the folders given hold no image (-r reads their sub-folders too). \
                --fingerprint also decodes each image small, as --stack does, and prints the \
                perceptual hash --stack compares (two pictures whose hashes differ in a few of \
                their 64 bits look alike) and the sharpness that picks a stack's picture.

                EXAMPLES:
                  imagewall probe SampleImages
                  imagewall probe photo.jpg --json
                  imagewall probe IMG_0042.HEIC scan.tif
                  imagewall probe -r ~/Pictures --json
                  imagewall probe --fingerprint IMG_0101.JPG IMG_0102.JPG
                """)

        @Argument(help: "Image files and folders of images.")
        var inputs: [String] = []

        @Flag(name: [.short, .long], help: "Also probe the images of sub-folders (hidden ones excepted).")
        var recursive = false

        @Flag(help: "Print JSON: one object per image, with \"error\" for unreadable files.")
        var json = false

        @Flag(help: "Also decode each image small and print the perceptual hash and sharpness --stack compares.")
        var fingerprint = false

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses options that cannot work together, before anything is read.
        public func validate() throws {
            if inputs.isEmpty { throw ValidationError("no input images: give image files or folders") }
        }

        struct Row: Encodable {
            var path: String
            var info: ImageInfo?
            var displayedWidth: Int?
            var displayedHeight: Int?
            var colorProfile: String?
            var hash: String?
            var sharpness: Int?
            var error: String?
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            let scan = InputScanner.scan(inputs, options: InputScanner.Options(recursive: recursive))
            let candidates = scan.candidates
            guard !candidates.isEmpty else {
                let none = WallRunError.noImages(tried: 0, subFoldersNotRead: scan.foldersNotRead.notRecursive.count)
                Console.error("error: \(none.message)")
                throw ExitStatus.failure
            }
            let probe = ImageProbe()
            let rows: [Row] = candidates.map { candidate in
                do {
                    let info = try probe.probe(path: candidate.path)
                    var row = Row(
                        path: candidate.path, info: info, displayedWidth: info.displayedSize.width,
                        displayedHeight: info.displayedSize.height,
                        colorProfile: ImageDecoder().colorProfile(path: candidate.path, info: info)?.description)
                    if fingerprint, let print = PictureFingerprint.read(path: candidate.path, info: info) {
                        row.hash = print.hexHash
                        row.sharpness = PictureFingerprint.readSharpness(path: candidate.path, info: info)
                    }
                    return row
                } catch {
                    return Row(path: candidate.path, error: error.reason)
                }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(rows)
                Console.output(String(decoding: data, as: UTF8.self))
            } else {
                Console.output(table(rows))
            }
            if rows.contains(where: { $0.error != nil }) { throw ExitStatus.failure }
        }

        func table(_ rows: [Row]) -> String {
            let header =
                [
                    "file", "format", "stored", "orient", "shown", "colour", "bits", "alpha", "progressive", "smaller",
                ] + (fingerprint ? ["hash", "sharpness"] : [])
            var lines = [header]
            for row in rows {
                guard let info = row.info else {
                    lines.append([row.path, "error: " + (row.error ?? "")])
                    continue
                }
                var colour = info.colorModel.rawValue
                if let subsampling = info.chromaSubsampling { colour += " " + subsampling }
                if info.hasICCProfile { colour += " + " + (row.colorProfile.map { $0.isEmpty ? "ICC" : $0 } ?? "ICC") }
                lines.append(
                    [
                        row.path.displayed, info.format.rawValue, info.storedSize.description,
                        String(info.orientation.rawValue),
                        info.displayedSize.description, colour, String(info.bitDepth), info.hasAlpha ? "yes" : "no",
                        info.isProgressive ? "yes" : "no",
                        info.reducedSizes?.map(\.description).joined(separator: ",") ?? "-",
                    ] + (fingerprint ? [row.hash ?? "-", row.sharpness.map(String.init) ?? "-"] : []))
            }
            var widths = [Int](repeating: 0, count: header.count)
            for line in lines where line.count == header.count {
                for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) }
            }
            return lines.map { line in
                guard line.count == header.count else { return line.joined(separator: "  ") }
                return line.enumerated().map { i, cell in
                    i == line.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                }.joined(separator: "  ")
            }.joined(separator: "\n")
        }
    }
}
