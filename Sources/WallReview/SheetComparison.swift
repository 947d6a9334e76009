import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallFiles
import WallPages

/// Two sheets compared as a visual-regression check: pixels (see ``SheetDiff``), and with
/// their manifests the tiles, matched by identity so that sheets rendered from folders in
/// different places compare by content alone.
public struct SheetComparison: Sendable {
    /// The expected sheet's path and the checked one's.
    public var expected: String, actual: String
    /// The pixel comparison: of the whole sheets, or when they differ in size, of the tiles
    /// that stayed in place.
    public var result: SheetDiff.Result
    /// The sizes of the two sheets, when they differ (then tiles are compared one by one).
    public var sizes: (expected: Size, actual: Size)?
    /// The tiles that differ, when manifests were given.
    public var tiles: SheetDiff.TileChanges?
    /// Changed pixels allowed.
    public var allowance: Int
    /// The tiles drawn by decoders that round otherwise on other CPUs, by identity, with the
    /// decoder: their pixels one level apart are taken for that rounding (see
    /// ``SheetDiff/Options/rounding``), unless the comparison is exact.
    public private(set) var rounding: [String: String] = [:]
    /// The picture of the changes (for sheets of different sizes, the actual sheet; empty
    /// unless drawn).
    public var picture: Bitmap
    /// How many bands of the two sheets were decoded, when they were read band by band (see
    /// ``SheetDiff/compareBands(_:_:options:threads:)``); `nil` when decoded whole.
    public private(set) var bandsDecoded: Int?
    /// The sheets' pixels, decoded whole; `nil` when compared band by band (then they matched,
    /// or no picture was asked for).
    let sheets: (first: Bitmap, second: Bitmap)?
    let manifests: (Manifest, Manifest)?

    /// When the picture of the changes is drawn.
    public enum Drawing: Sendable {
        /// Never: only the counts and the tiles.
        case never
        /// Always (`-o`).
        case always
        /// When the sheets do not match (a report, written only then).
        case whenDiffering
    }

    /// Whether the sheets match: no more changed pixels than allowed, and no tile moved,
    /// appeared, disappeared or shifted in colour.
    public var matches: Bool { Self.matches(sizes: sizes, result: result, tiles: tiles, allowance: allowance) }

    private static func matches(
        sizes: (Size, Size)?, result: SheetDiff.Result, tiles: SheetDiff.TileChanges?, allowance: Int
    ) -> Bool {
        sizes == nil && result.changedPixels <= allowance
            && (tiles.map { $0.moved.isEmpty && $0.appeared.isEmpty && $0.disappeared.isEmpty && $0.shifted.isEmpty }
                ?? true)
    }

    /// Compares the sheets at `expected` and `actual` (with their manifests when given: tiles
    /// named by `ignore` globs are left out), allowing `allowance(pixels)` changed pixels;
    /// draws the ``picture`` of the changes as `drawing` says. Two sheets ImageWall wrote at one
    /// size are read band by band, only where their compressed bytes differ, unless the picture
    /// or a moved tile needs them whole.
    public init(
        expected: String, actual: String, manifests paths: (String, String)? = nil, options base: SheetDiff.Options,
        ignore: [String] = [], allowance: (Int) -> Int = { _ in 0 }, drawing: Drawing = .always
    ) throws {
        self.expected = expected
        self.actual = actual
        let manifests = try paths.map { (try Wall.readManifest($0.0), try Wall.readManifest($0.1)) }
        self.manifests = manifests
        var options = base
        if let manifests {
            options.ignored += SheetDiff.areas(matching: ignore, in: [manifests.0, manifests.1])
            if !options.exact {
                let inexact = [manifests.0, manifests.1].flatMap { manifest in
                    manifest.tiles.filter { $0.page == 0 && $0.inexactDecoder != nil }
                }
                options.rounding += inexact.map(\.rect)
                rounding = Dictionary(
                    inexact.map { (manifests.1.identity(of: $0), $0.inexactDecoder ?? "") },
                    uniquingKeysWith: { a, _ in a })
            }
        }
        if drawing != .always, let banded = try SheetDiff.compareBands(expected, actual, options: options) {
            let result = banded.result
            let allowed = allowance(result.size.width * result.size.height)
            var tiles = manifests.map { SheetDiff.compare($0.0, $0.1, mask: banded.mask) }
            if let manifests, tiles != nil {
                tiles!.shifted = Self.shiftedInPlace(
                    manifests: manifests, except: tiles!, options: options, channels: banded.differing.channels
                ) { y, bytes in banded.differing.row(y, bytes: bytes) }
                tiles!.changed += tiles!.shifted
            }
            if tiles?.moved.isEmpty ?? true,
                drawing == .never || Self.matches(sizes: nil, result: result, tiles: tiles, allowance: allowed)
            {
                (self.result, self.tiles, self.allowance, bandsDecoded) = (result, tiles, allowed, banded.bandsDecoded)
                picture = Bitmap(size: Size(width: 0, height: 0), alpha: .none)
                sheets = nil
                return
            }
        }
        // The two sheets decoded at once, one on each core.
        let loaded = try parallelMap(2, threads: 2) { try SheetDiff.load($0 == 0 ? expected : actual) }
        let (first, second) = (loaded[0], loaded[1])
        sheets = (first, second)
        self.allowance = allowance(second.size.width * second.size.height)
        guard first.size != second.size, let manifests else {
            let (result, mask, picture) = try SheetDiff.compare(
                first, second, options: options, drawing: drawing != .never)
            self.result = result
            self.picture = picture
            tiles = try manifests.map { manifests in
                var changes = SheetDiff.compare(
                    manifests.0, manifests.1, mask: SheetDiff.ChangeMask(width: result.size.width, flags: mask))
                changes.changed += try Self.changedAmongMoved(
                    changes.moved, manifests: manifests, first: first, second: second, options: options)
                changes.shifted = Self.shiftedInPlace(
                    manifests: manifests, except: changes, options: options,
                    channels: first.channels, rows: Self.rows(of: first, second))
                changes.changed += changes.shifted
                return changes
            }
            return
        }
        // Sheets of different sizes (a tile added or removed): the tiles that stayed in place
        // are compared one by one, the rest named as moved, appeared or disappeared.
        sizes = (first.size, second.size)
        var changes = SheetDiff.compare(manifests.0, manifests.1, mask: nil)
        var total = SheetDiff.Result(size: second.size, changedPixels: 0, maxDelta: 0)
        let kept = manifests.0.tilesByIdentity
        for tile in manifests.1.tiles where tile.page == 0 {
            let name = manifests.1.identity(of: tile)
            guard let old = kept[name], old.rect == tile.rect, old.page == 0 else { continue }
            // The cell, with its caption, when it stayed too.
            let area = old.cell == tile.cell ? tile.cell.rect : tile.rect
            guard let before = first.cropped(to: area), let after = second.cropped(to: area), before.size == after.size
            else { continue }
            var local = options
            local.ignored = options.ignored.map {
                Rect(x: $0.x - area.x, y: $0.y - area.y, width: $0.width, height: $0.height)
            }
            local.rounding = options.rounding.map {
                Rect(x: $0.x - area.x, y: $0.y - area.y, width: $0.width, height: $0.height)
            }
            let (result, _, _) = try SheetDiff.compare(before, after, options: local, drawing: false)
            total.changedPixels += result.changedPixels
            total.antialiasedPixels += result.antialiasedPixels
            total.ignoredPixels += result.ignoredPixels
            total.roundedPixels += result.roundedPixels
            total.maxDelta = max(total.maxDelta, result.maxDelta)
            if result.changedPixels > 0 { changes.changed.append(name) }
        }
        changes.changed += try Self.changedAmongMoved(
            changes.moved, manifests: manifests, first: first, second: second, options: options)
        changes.shifted = Self.shiftedInPlace(
            manifests: manifests, except: changes, options: options,
            channels: first.channels, rows: Self.rows(of: first, second))
        changes.changed += changes.shifted
        result = total
        picture = second
        tiles = changes
    }

    /// The report as lines: a one-line summary, then the tiles that differ by kind, each list
    /// cut after `limit` names ("… and 93 more").
    public func lines(limit: Int = 10) -> [String] {
        let pixels = result.size.width * result.size.height
        let share = String(format: "%.4f%%", result.changedFraction * 100)
        var summary = "\(matches ? "match" : "differ"): "
        let options = optionChanges
        if !options.isEmpty { summary += "options changed: " + options.joined(separator: ", ") + "; " }
        if let sizes {
            summary += "the sheets are \(sizes.expected) and \(sizes.actual) px; in the tiles that stayed, "
        }
        summary += "\(result.changedPixels) of \(pixels) pixels changed (\(share))"
        if result.antialiasedPixels > 0 { summary += ", \(result.antialiasedPixels) anti-aliased" }
        if result.ignoredPixels > 0 { summary += ", \(result.ignoredPixels) ignored" }
        if result.roundedPixels > 0 {
            let decoders = Set(rounding.values).sorted().joined(separator: ", ")
            let names = rounding.keys.sorted().map(FilePaths.name(of:)).joined(separator: ", ")
            summary += ", \(result.roundedPixels) one level apart within \(decoders)'s per-CPU rounding (\(names))"
        }
        summary += ", largest channel difference \(result.maxDelta)"
        let versions = versionChanges
        guard let tiles else {
            return [summary] + (versions.isEmpty ? [] : ["versions: " + versions.joined(separator: "; ")])
        }
        summary += "; tiles: " + tiles.byKind.map { "\($0.names.count) \($0.kind)" }.joined(separator: ", ")
        if !tiles.shifted.isEmpty {
            summary += " (\(tiles.shifted.count) of them shifted in colour as a whole, each pixel within the threshold)"
        }
        var lines = [summary]
        if !versions.isEmpty { lines.append("versions: " + versions.joined(separator: "; ")) }
        for (kind, names) in tiles.byKind {
            lines += names.prefix(limit).map { "\(kind): \($0)" }
            if names.count > limit { lines.append("\(kind): … and \(names.count - limit) more") }
        }
        return lines
    }

    /// Writes one self-contained HTML page (the images inside it, no network): the summary, the
    /// expected and actual sheets and the picture of the changes, one at a time or side by side
    /// and zoomable to the pixel, and every tile that differs with crops of it before and after
    /// (and of its changes, where it stayed in place).
    public func writeReport(to path: String) throws {
        let images = try ReportImages()
        let summary = lines(limit: 0).first ?? ""
        let body =
            "<h1>\(matches ? "The sheets match" : "The sheets differ")</h1>\n"
            + (try reportSection(number: 0, title: nil, images: images))
        let html = ReportPage.html(title: "ImageWall diff: " + summary, body: body)
        try AtomicFile.write(Array(html.utf8), to: path)
    }
}

extension SheetComparison {
    /// Of the tiles named in `moved`, those whose picture changed as well, so that a tile that
    /// moved hides no change: compared pixel by pixel when it kept its size; resized (a gap or
    /// a width changed), the golden's tile resampled to the new size and compared by
    /// ``resizedDifference(_:_:)``, which two resamplings of one picture keep within its
    /// allowance.
    static func changedAmongMoved(
        _ moved: [String], manifests: (Manifest, Manifest), first: Bitmap, second: Bitmap, options: SheetDiff.Options
    ) throws -> [String] {
        guard !moved.isEmpty else { return [] }
        let before = manifests.0.tilesByIdentity, after = manifests.1.tilesByIdentity
        var local = options
        local.ignored = []
        var changed: [String] = []
        for name in moved {
            guard let old = before[name], let new = after[name], old.page == 0, new.page == 0,
                let a = first.cropped(to: old.rect), let b = second.cropped(to: new.rect)
            else { continue }
            let inexact = !options.exact && (old.inexactDecoder != nil || new.inexactDecoder != nil)
            local.rounding = inexact ? [Rect(x: 0, y: 0, width: b.size.width, height: b.size.height)] : []
            if a.size == b.size {
                if try SheetDiff.compare(a, b, options: local, drawing: false).0.changedPixels > 0 {
                    changed.append(name)
                }
            } else if Self.resizedDifference(Resampler.resize(a, to: b.size), b).changed {
                changed.append(name)
            }
        }
        return changed
    }

    /// Of the tiles in the same place on both sheets that no comparison above named, those whose
    /// colour shifted (``resizedDifference(_:_:)``): a threshold or a tolerance lets every pixel
    /// of a photo made 2 % darker pass, while its mean moves by several levels. Only where the
    /// options let some differences pass; tiles in ignored areas are left out.
    /// `rows(y, bytes)` gives those bytes of row `y` of each sheet, `nil` where the row is the
    /// same in both.
    static func shiftedInPlace(
        manifests: (Manifest, Manifest), except changes: SheetDiff.TileChanges, options: SheetDiff.Options,
        channels: Int, rows: (Int, Range<Int>) -> (first: ArraySlice<UInt8>, second: ArraySlice<UInt8>)?
    ) -> [String] {
        guard options.passesSomeDifferences else { return [] }
        let named = Set(changes.changed + changes.moved)
        let before = manifests.0.tilesByIdentity
        var shifted: [String] = []
        for tile in manifests.1.tiles where tile.page == 0 {
            let name = manifests.1.identity(of: tile)
            guard !named.contains(name), let old = before[name], old.page == 0, old.rect == tile.rect,
                tile.x >= 0, tile.y >= 0, tile.width > 0, tile.height > 0, tile.x + tile.width <= manifests.1.width,
                !options.ignored.contains(where: { $0.intersects(tile.rect) }),
                !options.rounding.contains(where: { $0.intersects(tile.rect) })
            else { continue }
            let bytes = tile.x * channels..<(tile.x + tile.width) * channels
            // A drift within the tolerance, even over the whole tile, is one the user allowed.
            let least = max(Self.resizedShift, Double(options.tolerance))
            let shift = Self.colourShift(
                width: tile.width, height: tile.height, channels: (channels, channels), least: least
            ) { y in
                rows(tile.y + y, bytes)
            }
            if shift.changed { shifted.append(name) }
        }
        return shifted
    }

    /// Rows of two whole sheets for ``shiftedInPlace``, each row compared as it is read.
    static func rows(of first: Bitmap, _ second: Bitmap) -> (Int, Range<Int>) -> (
        first: ArraySlice<UInt8>, second: ArraySlice<UInt8>
    )? {
        { y, bytes in
            let a = first.size.width * first.channels, b = second.size.width * second.channels
            guard y < first.size.height, y < second.size.height, first.channels == second.channels,
                bytes.upperBound <= min(a, b)
            else { return nil }
            return (
                first.pixels[y * a + bytes.lowerBound..<y * a + bytes.upperBound],
                second.pixels[y * b + bytes.lowerBound..<y * b + bytes.upperBound]
            )
        }
    }

    /// How two pictures of one size, which should be one picture resampled twice, differ: the
    /// largest shift of a colour channel's mean over the whole picture (made brighter, darker
    /// or tinted), and the largest shift of a channel's mean over blocks of about a sixteenth
    /// of the shorter side (a part changed; resampling differs only along edges, which the
    /// blocks average out). Changed when a shift reaches ``resizedShift`` or a block's
    /// ``resizedBlock``. Measured on SampleImages, the EXIF orientation set and Pillow's test
    /// images, each rendered with 10 and 16 px gaps at 600, 1200 and 2000 px: resampling
    /// shifts a mean by at most 0.2 levels on photos and 0.9 on fax images (black and white
    /// clip), a block by at most 12.4; every picture 3 % brighter whose mean that moves by a
    /// level or more is changed.
    static func resizedDifference(_ a: Bitmap, _ b: Bitmap) -> (shift: Double, block: Double, changed: Bool) {
        guard a.size == b.size else { return (0, 0, false) }
        let w = a.size.width
        return colourShift(width: w, height: a.size.height, channels: (a.channels, b.channels)) { y in
            (
                a.pixels[y * w * a.channels..<(y + 1) * w * a.channels],
                b.pixels[y * w * b.channels..<(y + 1) * w * b.channels]
            )
        }
    }

    /// ``resizedDifference(_:_:)`` of two pictures of `width` x `height` read a row at a time:
    /// `row(y)` gives row `y` of each (with `channels` bytes a pixel), or `nil` when the row is
    /// the same in both.
    static func colourShift(
        width w: Int, height h: Int, channels: (Int, Int), least: Double = resizedShift,
        row: (Int) -> (first: ArraySlice<UInt8>, second: ArraySlice<UInt8>)?
    ) -> (shift: Double, block: Double, changed: Bool) {
        guard w > 0, h > 0 else { return (0, 0, false) }
        let side = max(4, min(w, h) / 16)
        let columns = (w + side - 1) / side, rows = (h + side - 1) / side
        var sums = [Int](repeating: 0, count: columns * rows * 3)
        var counts = [Int](repeating: 0, count: columns * rows)
        for y in 0..<h {
            let pair = row(y)
            for x in 0..<w {
                let block = (y / side) * columns + x / side
                counts[block] += 1
                guard let (a, b) = pair else { continue }
                for c in 0..<3 {
                    sums[block * 3 + c] +=
                        Int(b[b.startIndex + x * channels.1 + c]) - Int(a[a.startIndex + x * channels.0 + c])
                }
            }
        }
        var shift = 0.0, block = 0.0
        for c in 0..<3 {
            let total = stride(from: c, to: sums.count, by: 3).reduce(0) { $0 + sums[$1] }
            shift = max(shift, abs(Double(total)) / Double(w * h))
        }
        for i in counts.indices where counts[i] > 0 {
            for c in 0..<3 { block = max(block, abs(Double(sums[i * 3 + c])) / Double(counts[i])) }
        }
        return (shift, block, shift >= least || block >= resizedBlock)
    }

    /// The shift of a channel's mean, in levels, that makes a resized tile changed.
    static let resizedShift = 1.0
    /// The shift of a block's mean, in levels, that makes a resized tile changed.
    static let resizedBlock = 25.0
}

extension Manifest {
    /// The tiles by their identity (see ``Manifest/identity(of:)``), the first of a name kept.
    var tilesByIdentity: [String: Tile] {
        Dictionary(tiles.map { (identity(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Manifest.Tile {
    /// The image's rectangle on its page.
    var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
}

extension Bitmap {
    /// The part of the bitmap inside `rect`, or `nil` when they do not meet.
    func cropped(to rect: Rect) -> Bitmap? {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(size.width, rect.maxX), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return nil }
        var out = Bitmap(size: Size(width: x1 - x0, height: y1 - y0), alpha: alpha)
        let n = channels
        for y in y0..<y1 {
            let from = (y * size.width + x0) * n
            out.pixels.replaceSubrange(
                (y - y0) * (x1 - x0) * n..<(y - y0 + 1) * (x1 - x0) * n, with: pixels[from..<from + (x1 - x0) * n])
        }
        return out
    }
}
