import ImageWall
import WallCodecs
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where pixels changed, and two sheets ImageWall wrote compared band by band.
extension SheetDiff {
    /// Where pixels changed: windows of rows, each with one flag a pixel (the whole sheet, or
    /// the rows a band-by-band comparison decoded; no pixel outside them changed).
    public struct ChangeMask: Sendable {
        /// The sheet's width.
        public var width: Int
        /// The windows, top to bottom.
        var windows: [(rows: Range<Int>, flags: [Bool])] = []

        /// No pixel changed.
        public init(width: Int) { self.width = width }

        /// The flags of a whole sheet `width` pixels wide (see ``compare(_:_:options:drawing:rows:)``).
        public init(width: Int, flags: [Bool]) {
            self.width = width
            windows = [(0..<flags.count / max(1, width), flags)]
        }

        /// Whether any pixel in `rect` changed.
        public func changed(in rect: Rect) -> Bool {
            let x0 = min(max(0, rect.x), width)
            let xs = x0..<max(x0, min(width, rect.maxX))
            return windows.contains { window in
                let y0 = max(rect.y, window.rows.lowerBound)
                let ys = y0..<max(y0, min(rect.maxY, window.rows.upperBound))
                return ys.contains { y in
                    let row = (y - window.rows.lowerBound) * width
                    return window.flags[row + xs.lowerBound..<row + xs.upperBound].contains(true)
                }
            }
        }
    }

    /// Compares two sheets that ``PNGSegmentWriter`` wrote at one size band by band: a band
    /// whose compressed bytes are the same in both holds the same rows, so only the bands that
    /// differ are decoded (on `threads` threads) and compared, with the bands beside them (the
    /// same in both: decoded once), since anti-aliasing looks two rows across. The counts are
    /// those of ``compare(_:_:options:drawing:rows:)`` on the whole sheets. `nil` for any other pair
    /// of images, or when a band does not decode: then only a full decode tells what the files
    /// hold. Also returns how many bands were decoded.
    public static func compareBands(_ expected: String, _ actual: String, options: Options, threads: Int = 2) throws
        -> (result: Result, mask: ChangeMask, bandsDecoded: Int, differing: DifferingRows)?
    {
        let sheets = try parallelMap(2, threads: min(2, threads)) { PNGBands(path: $0 == 0 ? expected : actual) }
        guard let a = sheets[0], let b = sheets[1], a.isComparable(with: b) else { return nil }
        let bands = 0..<a.bandCount
        let differing = bands.filter { !a.sameBand($0, as: b) }
        let beside = Set(differing.flatMap { [$0 - 1, $0 + 1] }).subtracting(differing).filter(bands.contains).sorted()
        let jobs = differing.flatMap { [(a, $0), (b, $0)] } + beside.map { (a, $0) }
        let rowBytes = a.size.width * (a.hasAlpha ? 4 : 3)
        guard
            let decoded = try? parallelMap(
                jobs.count, threads: threads,
                { (k: Int) throws(CodecError) -> [UInt8] in
                    let (sheet, band) = jobs[k]
                    var rows = [UInt8](repeating: 0, count: sheet.rows(ofBand: band).count * rowBytes)
                    try rows.withUnsafeMutableBufferPointer { buffer throws(CodecError) in
                        try sheet.decode(band: band, into: buffer)
                    }
                    return rows
                })
        else { return nil }
        var rows: [Int: (first: [UInt8], second: [UInt8])] = [:]
        for (i, band) in differing.enumerated() { rows[band] = (decoded[2 * i], decoded[2 * i + 1]) }
        for (i, band) in beside.enumerated() {
            rows[band] = (decoded[2 * differing.count + i], decoded[2 * differing.count + i])
        }
        // Each run of decoded bands is compared as one window of rows.
        var result = Result(size: a.size, changedPixels: 0, maxDelta: 0)
        var mask = ChangeMask(width: a.size.width)
        var runs: [[Int]] = []
        for band in rows.keys.sorted() {
            if let last = runs.last?.last, last == band - 1 {
                runs[runs.count - 1].append(band)
            } else {
                runs.append([band])
            }
        }
        // Each run of decoded bands is one window of rows; its bands are compared on `threads`
        // threads, each reading the window's other rows as neighbours.
        let alpha: AlphaMode = a.hasAlpha ? .straight : .none
        for run in runs {
            let top = a.rows(ofBand: run[0]).lowerBound, height = a.rows(ofBand: run[run.count - 1]).upperBound - top
            let size = Size(width: a.size.width, height: height)
            let first = Bitmap(size: size, alpha: alpha, pixels: run.flatMap { rows[$0]!.first })
            let second = Bitmap(size: size, alpha: alpha, pixels: run.flatMap { rows[$0]!.second })
            var shifted = options
            shifted.ignored = options.ignored.map { Rect(x: $0.x, y: $0.y - top, width: $0.width, height: $0.height) }
            shifted.rounding = options.rounding.map { Rect(x: $0.x, y: $0.y - top, width: $0.width, height: $0.height) }
            let local = shifted
            let compared = try parallelMap(run.count, threads: threads) { k in
                let band = a.rows(ofBand: run[k])
                let within = band.lowerBound - top..<band.upperBound - top
                return (band, try compare(first, second, options: local, drawing: false, rows: within))
            }
            for (band, (window, flags, _)) in compared {
                result.changedPixels += window.changedPixels
                result.roundedPixels += window.roundedPixels
                result.antialiasedPixels += window.antialiasedPixels
                result.maxDelta = max(result.maxDelta, window.maxDelta)
                mask.windows.append((band, flags))
            }
        }
        result.ignoredPixels = coveredPixels(options.ignored, in: a.size)
        let differingRows = DifferingRows(
            rowBytes: rowBytes, channels: a.hasAlpha ? 4 : 3,
            bands: differing.map { (a.rows(ofBand: $0), rows[$0]!.first, rows[$0]!.second) })
        return (result, mask, jobs.count, differingRows)
    }

    /// The rows of two sheets compared band by band where their bands differ, decoded; every
    /// other row is the same bytes in both.
    public struct DifferingRows: Sendable {
        /// Bytes a row.
        let rowBytes: Int
        /// Bytes a pixel.
        let channels: Int
        /// Each differing band's rows, and its pixels in each sheet.
        let bands: [(rows: Range<Int>, first: [UInt8], second: [UInt8])]

        /// Row `y`'s bytes from `from` to `to` in each sheet, or `nil` when the row is the same in both.
        func row(_ y: Int, bytes: Range<Int>) -> (first: ArraySlice<UInt8>, second: ArraySlice<UInt8>)? {
            guard bytes.upperBound <= rowBytes, let band = bands.first(where: { $0.rows.contains(y) }) else {
                return nil
            }
            let start = (y - band.rows.lowerBound) * rowBytes
            return (
                band.first[start + bytes.lowerBound..<start + bytes.upperBound],
                band.second[start + bytes.lowerBound..<start + bytes.upperBound]
            )
        }
    }

    /// How many pixels of an image of `size` the rectangles cover (each counted once).
    static func coveredPixels(_ rects: [Rect], in size: Size) -> Int {
        guard !rects.isEmpty else { return 0 }
        var covered = 0
        for y in 0..<size.height {
            var spans = rects.filter { $0.y <= y && y < $0.maxY && max(0, $0.x) < min(size.width, $0.maxX) }
                .map { max(0, $0.x)..<min(size.width, $0.maxX) }.sorted { $0.lowerBound < $1.lowerBound }
            var end = 0
            while !spans.isEmpty {
                let span = spans.removeFirst()
                covered += max(0, span.upperBound - max(end, span.lowerBound))
                end = max(end, span.upperBound)
            }
        }
        return covered
    }
}
