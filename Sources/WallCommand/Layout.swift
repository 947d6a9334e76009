import ArgumentParser
import Foundation
import ImageWall
import WallCore

extension ImageWallCommand {
    /// `imagewall layout`: probe and lay out, no pixels.
    public struct Layout: ParsableCommand {
        /// The command's abstract and its discussion, with examples.
        public static let configuration = CommandConfiguration(
            commandName: "layout",
            abstract: "Lay images out without decoding them and print where every tile goes.",
            discussion: """
                Reads only image headers (or sizes you give; --stack also reads a small copy of \
                each picture it compares) and runs the layout engine, printing \
                the manifest as JSON with --json, or a table. With --sizes the engine needs no \
                files at all: give one "WIDTH HEIGHT" pair a line (blank lines and # comments \
                ignored), or a JSON array of {"width": W, "height": H} objects; "-" reads \
                standard input.

                EXAMPLES:
                  imagewall layout Photos --json
                  imagewall layout Photos --layout justified --row-height 200
                  printf '4000 3000\\n3000 4000\\n6000 1500\\n' | imagewall layout --sizes - --layout justified --json
                  imagewall layout --sizes sizes.json --layout grid --columns 6 --json
                """)

        @OptionGroup(title: "Inputs")
        var input: InputOptions

        @Option(
            help: ArgumentHelp(
                "Lay out these sizes instead of images: a file, or - for standard input.", valueName: "file"))
        var sizes: String?

        @Flag(help: "Print the manifest as JSON.")
        var json = false

        @OptionGroup(title: "Layout")
        var layout: LayoutOptions

        @Option(help: ArgumentHelp("What to do with unreadable inputs: skip or fail.", valueName: "policy"))
        var onError: ErrorPolicy = libraryDefaults.limits.onError

        /// A command with every option at its default, as ArgumentParser makes it.
        public init() {}

        /// Refuses options that cannot work together, before anything is read.
        public func validate() throws {
            if !input.hasInputs && sizes == nil {
                throw ValidationError("give image files or folders, or --sizes FILE")
            }
            if input.hasInputs && sizes != nil { throw ValidationError("give either images or --sizes, not both") }
            if layout.variants.count > 1 {
                throw ValidationError("layout prints one layout: give one --columns and one --width")
            }
        }

        /// Runs the command; failures end in an exit code, never a crash.
        public func run() throws {
            var options = WallOptions(layout: layout.configuration)
            input.apply(to: &options)
            if let seed = input.pickedSeed(quiet: false) { options.input.seed = seed }
            options.grouping = layout.groupBy
            options.limits.onError = onError
            options.limits.threads = RunLimits.everyCore
            // Streamed: a million tiles are written (or listed) one at a time from the layout.
            let manifest: StreamedManifest
            do {
                if let sizes {
                    manifest = try Wall.streamedManifest(ofSizes: try SizeList.read(sizes), options: options)
                } else {
                    let plan = try Wall(inputs: try input.allInputs()).plan(
                        options: options, hooks: RunHooks(diagnostics: { Console.error($0.description) }))
                    manifest = Wall.streamedManifest(of: plan, options: options)
                }
            } catch let error as WallError {
                Console.error("error: \(error.message)")
                throw ExitStatus.failure
            }
            if json {
                try Console.withStandardOutput {
                    try ManifestWriter.write(
                        manifest, to: $0, named: "standard output", threads: options.limits.threads)
                }
            } else {
                Console.output(
                    "sheet \(manifest.outline.width)x\(manifest.outline.height), \(manifest.tileCount) tiles")
                for tile in manifest.tiles {
                    let crop =
                        tile.crop.map { String(format: " crop %.1f,%.1f %.1fx%.1f", $0.x, $0.y, $0.width, $0.height) }
                        ?? ""
                    Console.output(
                        "\(tile.index)\t\(tile.width)x\(tile.height)+\(tile.x)+\(tile.y)\t\(tile.source)\(crop)")
                }
            }
        }
    }
}

/// Sizes given as text: "W H" lines or a JSON array of {"width","height"}.
enum SizeList {
    struct ParseError: WallError {
        var message: String
    }

    static func read(_ path: String) throws -> [Size] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw ParseError(message: "\(path): cannot read the sizes file")
            }
            data = contents
        }
        return try parse(Array(data), name: path == "-" ? "standard input" : path)
    }

    /// Sizes from the bytes of a sizes file, read line by line without a `String` for each
    /// (a million lines are common for planning a wall).
    static func parse(_ bytes: [UInt8], name: String) throws -> [Size] {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        if bytes.first(where: { !isSpace($0) }) == UInt8(ascii: "[") {
            struct Entry: Decodable { var width: Int; var height: Int }
            do {
                let entries = try JSONDecoder().decode([Entry].self, from: Data(bytes))
                return try entries.enumerated().map { i, e in
                    let size = Size(width: e.width, height: e.height)
                    guard isAllowed(size) else { throw refusal(of: size, at: "\(name): entry \(i)") }
                    return size
                }
            } catch let error as ParseError {
                throw error
            } catch {
                throw ParseError(message: "\(name): not a JSON array of {\"width\", \"height\"} objects")
            }
        }
        // One pass over the bytes, a line's fields found and read in place: splitting into
        // arrays of lines and fields, and a place named for every line, cost more than the layout.
        var sizes: [Size] = []
        try bytes.withUnsafeBufferPointer { text in
            var at = 0
            var number = 0
            while at <= text.count {
                number += 1
                let lineStart = at
                var fields: (Range<Int>, Range<Int>) = (0..<0, 0..<0)
                var count = 0
                while at < text.count && !endsFields(text[at]) {
                    if isSeparator(text[at]) {
                        at += 1
                        continue
                    }
                    let start = at
                    while at < text.count && !endsFields(text[at]) && !isSeparator(text[at]) { at += 1 }
                    count += 1
                    if count == 1 { fields.0 = start..<at } else if count == 2 { fields.1 = start..<at }
                }
                while at < text.count && text[at] != 0x0A { at += 1 }  // a comment
                let line = lineStart..<at
                at += 1
                if count == 0 { continue }
                guard count == 2, let w = integer(text, fields.0), let h = integer(text, fields.1) else {
                    let got = String(decoding: text[line], as: UTF8.self)
                    throw ParseError(message: "\(name): line \(number): expected \"WIDTH HEIGHT\", got \"\(got)\"")
                }
                let size = Size(width: w, height: h)
                guard isAllowed(size) else { throw refusal(of: size, at: "\(name): line \(number)") }
                sizes.append(size)
            }
        }
        if sizes.isEmpty { throw ParseError(message: "\(name): no sizes") }
        return sizes
    }

    /// Whether `byte` separates a line's fields: a space, a tab, a comma or a carriage return.
    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") || byte == 0x0D
    }

    /// Whether `byte` ends a line's fields: its line feed, or a comment's `#`.
    private static func endsFields(_ byte: UInt8) -> Bool { byte == 0x0A || byte == UInt8(ascii: "#") }

    /// The decimal integer of `text[field]` (a field: not empty) with an optional sign, as
    /// `Int(_:)` reads it; nil for anything else or a value out of range.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>, _ field: Range<Int>) -> Int? {
        var at = field.lowerBound
        let negative = text[at] == UInt8(ascii: "-")
        if negative || text[at] == UInt8(ascii: "+") { at += 1 }
        guard at < field.upperBound else { return nil }
        var value = 0
        while at < field.upperBound {
            let digit = text[at] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            at += 1
        }
        return negative ? -value : value
    }

    /// Whether `size` may be laid out: both sides positive and within 31 bits.
    private static func isAllowed(_ size: Size) -> Bool {
        size.width > 0 && size.height > 0 && size.width <= 0x7FFF_FFFF && size.height <= 0x7FFF_FFFF
    }

    /// Why `size`, given at `place`, is not laid out.
    private static func refusal(of size: Size, at place: String) -> ParseError {
        ParseError(message: "\(place): size \(size) must be positive")
    }
}
