import WallCore

/// Where a crop of a fixed size keeps the part of a picture worth keeping: the crop slides along
/// the axis it cuts to the window a measure of the picture finds most interesting, the way
/// libvips' `smartcrop` chooses. The picture is first averaged into a grid of at most
/// ``gridSide`` cells a side, so a decode at any size gives the same choice to a cell, and every
/// step is integer arithmetic: the same crop on every CPU, in every run, part and replay.
public enum SmartCrop {
    /// What makes a part of a picture interesting.
    public enum Measure: String, Sendable, Hashable, Codable {
        /// Edges, skin tones and saturated colour, blurred: where a viewer's eye goes (libvips'
        /// attention).
        case attention
        /// The variety of tones: the window whose brightness histogram has the most entropy.
        case entropy
    }

    /// The analysis grid's longest side, in cells.
    public static let gridSide = 96

    /// `crop` (in `shown` coordinates, the picture's displayed size) moved along the axes it
    /// cuts to the most interesting window of `picture` (the decoded picture at any scale, RGB,
    /// or RGBA premultiplied or straight); its size kept. Among windows as interesting, the one
    /// nearest the middle.
    ///
    /// `subjects` (in `shown` coordinates: faces or other marked regions) come first: the window
    /// holding most of their area wins, then the one that centres them best, the measure deciding
    /// among windows as good.
    public static func place(
        _ crop: Region, shown: Size, in picture: Bitmap, by measure: Measure, subjects: [Region] = []
    ) -> Region {
        guard shown.width > 0, shown.height > 0, picture.size.width > 0, picture.size.height > 0 else { return crop }
        let cutsX = crop.width < Double(shown.width) - 0.5
        let cutsY = crop.height < Double(shown.height) - 0.5
        guard cutsX || cutsY else { return crop }
        let grid = Grid(picture)
        let scores = measure == .attention ? grid.attention() : []
        var placed = crop
        if cutsX {
            let window = max(1, Int((crop.width / Double(shown.width) * Double(grid.width)).rounded()))
            let scale = Double(grid.width) / Double(shown.width)
            let spans = subjects.map { (start: $0.x * scale, length: $0.width * scale, weight: $0.height) }
            let start = best(
                window: window, along: grid.width, grid: grid, scores: scores, measure: measure, columns: true,
                subjects: spans)
            placed.x = min(Double(shown.width) - crop.width, Double(start) / Double(grid.width) * Double(shown.width))
        }
        if cutsY {
            let window = max(1, Int((crop.height / Double(shown.height) * Double(grid.height)).rounded()))
            let scale = Double(grid.height) / Double(shown.height)
            let spans = subjects.map { (start: $0.y * scale, length: $0.height * scale, weight: $0.width) }
            let start = best(
                window: window, along: grid.height, grid: grid, scores: scores, measure: measure, columns: false,
                subjects: spans)
            placed.y = min(
                Double(shown.height) - crop.height, Double(start) / Double(grid.height) * Double(shown.height))
        }
        return placed
    }

    /// The first cell of the best `window` cells along one axis (across the columns when `columns`).
    /// `subjects` are spans along the axis in cells, each weighted by its extent across it.
    static func best(
        window: Int, along length: Int, grid: Grid, scores: [Int], measure: Measure, columns: Bool,
        subjects: [(start: Double, length: Double, weight: Double)] = []
    ) -> Int {
        guard window < length else { return 0 }
        let positions = length - window + 1
        var values = [Int](repeating: 0, count: positions)
        switch measure {
        case .attention:
            // Sum of scores in each band of cells across the other axis, then sliding sums.
            var line = [Int](repeating: 0, count: length)
            for y in 0..<grid.height {
                for x in 0..<grid.width { line[columns ? x : y] += scores[y * grid.width + x] }
            }
            var sum = line[0..<window].reduce(0, +)
            values[0] = sum
            for start in 1..<positions {
                sum += line[start + window - 1] - line[start - 1]
                values[start] = sum
            }
        case .entropy:
            // Higher entropy is a smaller Σ n·log2 n over the histogram (the window's size fixed).
            let other = columns ? grid.height : grid.width
            var histogram = [Int](repeating: 0, count: Grid.bins)
            func band(_ index: Int, _ step: Int) {
                for j in 0..<other {
                    let cell = columns ? j * grid.width + index : index * grid.width + j
                    histogram[grid.bin[cell]] += step
                }
            }
            for index in 0..<window { band(index, 1) }
            func score() -> Int { -histogram.reduce(0) { $0 + FixedLog.nLog2n($1) } }
            values[0] = score()
            for start in 1..<positions {
                band(start - 1, -1)
                band(start + window - 1, 1)
                values[start] = score()
            }
        }
        // The subjects' area inside each window, in 1/1024 of a cell.
        let covered = (0..<positions).map { start in
            subjects.reduce(0) { sum, subject in
                let inside =
                    min(Double(start + window), subject.start + subject.length) - max(Double(start), subject.start)
                return sum + Int((max(0, inside) * subject.weight * 1024).rounded())
            }
        }
        // Among windows holding as much of them, the subjects as near the middle as they can be
        // (a face centred, not at the edge of a window that holds it): each window's middle's
        // distance from their centre, weighted by area, in 1/1024 of a cell (0 without subjects).
        let area = subjects.reduce(0) { $0 + $1.length * $1.weight }
        let centre =
            area > 0 ? subjects.reduce(0) { $0 + ($1.start + $1.length / 2) * $1.length * $1.weight } / area : 0
        let offCentre = (0..<positions).map { start in
            area > 0 ? -Int((abs(Double(start) + Double(window) / 2 - centre) * 1024).rounded()) : 0
        }
        let middle = positions - 1  // twice the middle start, to compare distances in whole numbers
        var chosen = 0
        for start in 1..<positions {
            let better =
                (covered[start], offCentre[start], values[start]) > (covered[chosen], offCentre[chosen], values[chosen])
            let asGoodNearer =
                covered[start] == covered[chosen] && offCentre[start] == offCentre[chosen]
                && values[start] == values[chosen] && abs(2 * start - middle) < abs(2 * chosen - middle)
            if better || asGoodNearer { chosen = start }
        }
        return chosen
    }

    /// The picture averaged into cells (from about 16 samples each): each cell's red, green,
    /// blue (as seen, 0–255) and opacity, its luma, and its luma's histogram bin.
    struct Grid {
        static let bins = 32
        let width: Int, height: Int
        let red: [Int], green: [Int], blue: [Int], opacity: [Int], luma: [Int], bin: [Int]

        init(_ picture: Bitmap) {
            let w = picture.size.width, h = picture.size.height
            let fitted = picture.size.fitted(withinLongSide: SmartCrop.gridSide)
            let gridWidth = fitted.width, gridHeight = fitted.height
            let count = gridWidth * gridHeight
            var sums = [Int](repeating: 0, count: count * 5)  // red, green, blue, opacity, samples
            let channels = picture.channels
            // About four samples a cell each way: a cell's mean, without reading every pixel of a
            // large decode.
            let stepX = max(1, w / (gridWidth * 4)), stepY = max(1, h / (gridHeight * 4))
            let columns = stride(from: 0, to: w, by: stepX).map { ($0, $0 * gridWidth / w) }
            picture.pixels.withUnsafeBufferPointer { p in
                sums.withUnsafeMutableBufferPointer { s in
                    for y in stride(from: 0, to: h, by: stepY) {
                        let row = y * gridHeight / h * gridWidth
                        for (x, column) in columns {
                            let cell = (row + column) * 5
                            let at = (y * w + x) * channels
                            s[cell] += Int(p[at])
                            s[cell + 1] += Int(p[at + 1])
                            s[cell + 2] += Int(p[at + 2])
                            s[cell + 3] += channels == 4 ? Int(p[at + 3]) : 255
                            s[cell + 4] += 1
                        }
                    }
                }
            }
            var red = [Int](repeating: 0, count: count), green = red, blue = red, opacity = red, luma = red, bin = red
            let premultiplied = picture.alpha == .premultiplied
            for cell in 0..<count where sums[cell * 5 + 4] > 0 {
                let n = sums[cell * 5 + 4]
                let a = (sums[cell * 5 + 3] + n / 2) / n
                // Colour as seen: over black where transparent (it counts as nothing).
                func seen(_ sum: Int) -> Int {
                    let mean = (sum + n / 2) / n
                    return premultiplied ? mean : (mean * a + 127) / 255
                }
                (red[cell], green[cell], blue[cell], opacity[cell]) = (
                    seen(sums[cell * 5]), seen(sums[cell * 5 + 1]), seen(sums[cell * 5 + 2]), a
                )
                luma[cell] = (77 * red[cell] + 150 * green[cell] + 29 * blue[cell]) >> 8
                bin[cell] = luma[cell] * Grid.bins / 256
            }
            (width, height) = (gridWidth, gridHeight)
            (self.red, self.green, self.blue, self.opacity, self.luma, self.bin) = (
                red, green, blue, opacity, luma, bin
            )
        }

        /// Each cell's interest: the luma's Laplacian (edges) against the picture's strongest,
        /// skin tones with features up to three times as much, saturated colour half as much.
        func attention() -> [Int] {
            var edges = [Int](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let cell = y * width + x
                    let l = luma[cell]
                    let left = x > 0 ? luma[cell - 1] : l, right = x + 1 < width ? luma[cell + 1] : l
                    let up = y > 0 ? luma[cell - width] : l, down = y + 1 < height ? luma[cell + width] : l
                    edges[cell] = abs(4 * l - left - right - up - down)
                }
            }
            let strongest = max(1, edges.max() ?? 1)
            var raw = [Int](repeating: 0, count: width * height)
            for cell in raw.indices {
                let (r, g, b) = (red[cell], green[cell], blue[cell])
                let saturation = max(r, g, b) - min(r, g, b)
                let edge = edges[cell] * 256 / strongest
                // Skin counts twice the strongest edge, and up to three times where it has
                // features (a face's eyes and mouth) rather than being plain.
                let skin = Grid.isSkin(r, g, b) ? 512 + min(256, 8 * edge) : 0
                raw[cell] = edge + skin + (saturation > 96 ? saturation / 2 : 0)
            }
            // A 3×3 box blur, so that a window is drawn to clusters rather than single cells.
            var blurred = [Int](repeating: 0, count: raw.count)
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let (cx, cy) = (min(width - 1, max(0, x + dx)), min(height - 1, max(0, y + dy)))
                            sum += raw[cy * width + cx]
                        }
                    }
                    blurred[y * width + x] = sum
                }
            }
            return blurred
        }

        /// Skin tones by the rule of Peer, Kovač and Solina for daylight (red above 95, green
        /// above 40, blue above 20, a spread over 15, red over green by more than 15), with green
        /// above blue, as skin's red, green, blue fall, which leaves out pinks and mauves.
        static func isSkin(_ r: Int, _ g: Int, _ b: Int) -> Bool {
            r > 95 && g > 40 && b > 20 && max(r, g, b) - min(r, g, b) > 15 && r - g > 15 && g > b
        }
    }
}

/// n·log2 n in fixed point (16 fractional bits), by integer arithmetic alone: the same on every
/// CPU, where a library's `log2` may round its last bit otherwise.
enum FixedLog {
    /// log2(n) × 65536 for n ≥ 1: the integer part from the highest bit, the fraction by
    /// repeated squaring of the normalised value.
    static func log2(_ n: Int) -> Int {
        precondition(n >= 1)
        let whole = Int.bitWidth - 1 - n.leadingZeroBitCount
        // The mantissa in [1, 2) with 30 fractional bits.
        var m = whole >= 30 ? n >> (whole - 30) : n << (30 - whole)
        var fraction = 0
        for bit in stride(from: 15, through: 0, by: -1) {
            m = (m * m) >> 30
            if m >= 1 << 31 {
                m >>= 1
                fraction |= 1 << bit
            }
        }
        return whole << 16 | fraction
    }

    /// n × log2(n) × 65536; 0 for 0.
    static func nLog2n(_ n: Int) -> Int { n <= 1 ? 0 : n * log2(n) }
}
