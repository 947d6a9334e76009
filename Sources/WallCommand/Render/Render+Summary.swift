import Foundation
import ImageWall
import WallFiles
import WallParts

#if canImport(Glibc)
    import Glibc
#endif

extension ImageWallCommand.Render {
    /// The line printed after a part is rendered.
    func summarize(_ header: PartHeader, to output: String, seconds: Double) {
        let rows = header.rows.reduce(0) { $0 + $1.to - $1.from }
        let pages = Set(header.rows.map(\.page)).count
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        Console.error(
            "part \(header.part)/\(header.parts): \(output), \(rows) rows of \(pages) \(pages == 1 ? "page" : "pages"), "
                + "\(String(format: "%.1f MB", Double(size) / 1e6)) in \(String(format: "%.1f s", seconds))")
    }

    /// The size of a written page: its file, and for a Deep Zoom pyramid its tiles too.
    static func bytes(of file: String) -> Int {
        var status = stat()
        var total = stat(file.systemPath, &status) == 0 ? Int(status.st_size) : 0
        if (try? PageFormat(path: file)) == .deepZoom,
            let tiles = FileManager.default.enumerator(atPath: DeepZoomGeometry.tilesFolder(of: file))
        {
            let folder = DeepZoomGeometry.tilesFolder(of: file)
            while let name = tiles.nextObject() as? String {
                if stat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                    total += Int(status.st_size)
                }
            }
        }
        return total
    }

    /// What a render's manifests' tiles show, counted in one pass (each tile of a streamed
    /// manifest is made as it is read).
    struct TileCounts {
        var tiles = 0
        var companions = 0
        var stacks: [PictureStack] = []
        var placeholders = 0
        var damaged = 0

        init(_ manifest: StreamedManifest) {
            for tile in manifest.tiles {
                tiles += 1
                companions += (tile.companions?.count ?? 0) + (tile.stack?.companions?.count ?? 0)
                if let stack = tile.stack { stacks.append(stack) }
                if tile.placeholder != nil { placeholders += 1 }
                if tile.damaged == true { damaged += 1 }
            }
        }
    }

    func summarize(_ streamed: [StreamedManifest], seconds: Double) {
        let results = streamed.map(\.outline)
        var bytes = 0
        var counted: Set<String> = []
        for result in results {
            for (number, page) in result.pages.enumerated() {
                let file = page.file ?? ""
                // A PDF holds every page: its file counted once, its pages named by number.
                let shared = result.pages.count > 1 && result.pages.allSatisfy { $0.file == page.file }
                if counted.insert(file).inserted { bytes += Self.bytes(of: file) }
                if reporting.verbose || results.count > 1 || result.pages.count > 1 {
                    Console.error("\(file)\(shared ? " page \(number + 1)" : ""): \(page.width)x\(page.height)")
                }
            }
        }
        guard let first = results.first, let firstTiles = streamed.first.map(TileCounts.init) else { return }
        let pages = results.reduce(0) { $0 + $1.pages.count }
        let ignoredFiles = first.ignored ?? []
        let folders = first.foldersNotRead ?? []
        let subFolders = folders.notRecursive
        if reporting.verbose {
            for path in ignoredFiles {
                let hidden = FilePaths.name(of: path).hasPrefix(".")
                Console.error("ignored (\(hidden ? "hidden" : "not an image")): \(path)")
            }
            for folder in subFolders { Console.error("not read (\(folder.reason.rawValue)): \(folder.path)") }
        }
        var omitted = ""
        let companions = firstTiles.companions
        if companions > 0 {
            omitted +=
                ", " + Self.counted(companions, "paired file") + " drawn with " + (companions == 1 ? "its" : "their")
                + " picture" + (companions == 1 ? "" : "s")
        }
        let stacks = firstTiles.stacks
        if !stacks.isEmpty {
            let pictures = stacks.reduce(0) { $0 + $1.members.count }
            omitted +=
                ", " + Self.counted(pictures, "picture") + " in " + Self.counted(stacks.count, "stack")
                + " (--stack \(stacks[0].by.rawValue): one tile each, badged with how many more)"
        }
        let placeholders = firstTiles.placeholders
        if placeholders > 0 { omitted += ", \(placeholders) drawn as placeholder\(placeholders == 1 ? "" : "s")" }
        let damaged = firstTiles.damaged
        if damaged > 0 {
            omitted += ", \(damaged) drawn from " + (damaged == 1 ? "a damaged file" : "damaged files") + " (marked)"
        }
        if !first.skipped.isEmpty { omitted += ", \(first.skipped.count) skipped" }
        if !ignoredFiles.isEmpty { omitted += ", " + Self.counted(ignoredFiles.count, "other file") + " ignored" }
        if let filtered = first.filteredOut {
            omitted += ", " + Self.counted(filtered, "file") + " left out by --include/--exclude"
        }
        if let rated = first.ratedOut {
            let counts = Dictionary(grouping: rated, by: \.reason).mapValues(\.count)
            if let below = counts[.belowMinimum] {
                omitted += ", " + Self.counted(below, "picture") + " rated under --min-rating left out"
            }
            if let rejects = counts[.rejected] {
                omitted += ", " + Self.counted(rejects, "reject") + " left out"
            }
            if let others = counts[.notRejected] {
                omitted += ", " + Self.counted(others, "picture") + " not rejected left out (--rejected only)"
            }
        }
        if let repeats = first.repeats {
            omitted += ", " + Self.counted(repeats.count, "repeated input") + " drawn once"
        }
        if let own = first.ownOutputs {
            omitted += ", " + Self.counted(own.count, "earlier sheet") + " left out"
        }
        if !subFolders.isEmpty { omitted += ", " + Self.counted(subFolders.count, "sub-folder") + " not read (use -r)" }
        let sheets = results.count > 1 ? "\(results.count) variants, " : ""
        let where_ =
            first.pages.count == 1 && results.count == 1
            ? "\(first.pages[0].file ?? "") \(first.width)x\(first.height), " : ""
        Console.error(
            "\(Self.counted(firstTiles.tiles, "image"))\(omitted): \(where_)\(sheets)"
                + "\(Self.counted(pages, "page")), "
                + String(format: "%.1f MB in %.1f s", Double(bytes) / 1_048_576, seconds))
    }

    /// With `--strict`, a run that skipped an input or drew one as a placeholder fails (after
    /// writing its files, which show what went wrong): exit status 1.
    func refuseUnderStrict(_ results: [StreamedManifest]) throws {
        guard decoding.strict, let first = results.first else { return }
        let placeholders = TileCounts(first).placeholders
        guard placeholders > 0 || !first.outline.skipped.isEmpty else { return }
        Console.error(
            "error: --strict: \(first.outline.skipped.count) skipped, \(placeholders) drawn as placeholder"
                + "\(placeholders == 1 ? "" : "s")")
        throw ExitStatus.failure
    }

    /// "1 image", "2 images".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
