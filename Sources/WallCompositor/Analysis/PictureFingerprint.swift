import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What tells near-identical pictures apart cheaply: a 64-bit perceptual hash (the low
/// frequencies of the picture's brightness, each above or below their median — the DCT hash of
/// pHash) and the mean colours of a 4 × 4 grid (which tell apart two scenes whose light falls
/// alike); and, apart, a measure of sharpness that picks the best of near-identical pictures.
/// A re-encoded, resized or lightly edited copy hashes within a few bits of its original and
/// keeps its colours; another scene differs in about half of the bits. Every step is integer
/// arithmetic on the decoded pixels, so a picture has the same fingerprint on every CPU, and
/// almost the same from a thumbnail as from the whole picture.
public struct PictureFingerprint: Sendable, Hashable, Codable {
    /// The perceptual hash.
    public var hash: UInt64
    /// The mean red, green and blue of each cell of a 4 × 4 grid, row by row.
    public var colors: [UInt8]

    /// The side of the grid the hash is taken from.
    static let hashGrid = 32
    /// The side of the grid of mean colours.
    static let colorGrid = 4
    /// The longest side ``sharpness(of:)`` measures at (a decode larger than it is averaged down
    /// to it, so copies of different sizes compare).
    public static let sharpnessSide = 512
    /// The largest mean difference of the grid's colours, in levels, between pictures that look
    /// alike: copies and frames of one moment differ by under 7, other scenes by 30 and more.
    public static let colorTolerance = 16

    /// A fingerprint made of its parts.
    public init(hash: UInt64, colors: [UInt8]) {
        self.hash = hash
        self.colors = colors
    }

    /// The fingerprint of `picture` (RGB, or RGBA straight or premultiplied, at any size).
    public init(of picture: Bitmap) {
        let side = Self.hashGrid
        let means = Self.means(of: picture, width: side, height: side)
        hash = Self.hash(of: Self.brightness(means), side: side)
        colors = Self.colorLayout(means, side: side)
    }

    /// How sharp `picture` is: the mean squared Laplacian of its brightness, averaged down to
    /// ``sharpnessSide`` px on its long side when larger. Higher is sharper; compare pictures of
    /// one scene (a burst), as a busier scene scores higher whatever its focus.
    public static func sharpness(of picture: Bitmap) -> Int {
        let size = picture.size.fitted(withinLongSide: sharpnessSide)
        return laplacianEnergy(
            brightness(means(of: picture, width: size.width, height: size.height)), width: size.width,
            height: size.height)
    }

    /// How many of the hashes' 64 bits differ: 0 for the same picture, about 32 for unrelated ones.
    public func distance(to other: PictureFingerprint) -> Int {
        (hash ^ other.hash).nonzeroBitCount
    }

    /// The mean difference of the grids' colours, in levels (0 to 255).
    public func colorDistance(to other: PictureFingerprint) -> Int {
        guard colors.count == other.colors.count, !colors.isEmpty else { return 255 }
        return zip(colors, other.colors).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / colors.count
    }

    /// Whether `other` looks like this picture: hashes at most `bits` apart and colours within
    /// ``colorTolerance``.
    public func isAlike(_ other: PictureFingerprint, within bits: Int) -> Bool {
        distance(to: other) <= bits && colorDistance(to: other) <= Self.colorTolerance
    }

    /// The mean red, green and blue of `picture` in `width` × `height` cells (each the mean of
    /// the pixels it covers, at least one); transparent parts count as black.
    static func means(of picture: Bitmap, width: Int, height: Int) -> [Int] {
        let w = picture.size.width, h = picture.size.height
        var cells = [Int](repeating: 0, count: width * height * 3)
        guard w > 0, h > 0 else { return cells }
        let channels = picture.channels
        let straight = picture.alpha == .straight
        // Each cell's span of source columns and rows: a partition when the picture is larger,
        // overlapping single pixels when it is smaller.
        func spans(_ cells: Int, _ pixels: Int) -> [Range<Int>] {
            (0..<cells).map { c in
                let start = c * pixels / cells
                return start..<max(start + 1, (c + 1) * pixels / cells)
            }
        }
        let columns = spans(width, w), rows = spans(height, h)
        var row = [Int](repeating: 0, count: w * 3)
        picture.pixels.withUnsafeBufferPointer { p in
            for (cy, span) in rows.enumerated() {
                for i in row.indices { row[i] = 0 }
                for y in span {
                    var at = y * w * channels
                    for x in 0..<w {
                        let opacity = straight ? Int(p[at + 3]) : 255
                        for c in 0..<3 { row[x * 3 + c] += Int(p[at + c]) * opacity }
                        at += channels
                    }
                }
                for (cx, columnSpan) in columns.enumerated() {
                    let count = columnSpan.count * span.count * 255
                    for c in 0..<3 {
                        var sum = 0
                        for x in columnSpan { sum += row[x * 3 + c] }
                        cells[(cy * width + cx) * 3 + c] = sum / count
                    }
                }
            }
        }
        return cells
    }

    /// The brightness of each cell of `means`, in 1/256 levels (Rec. 601 weights).
    static func brightness(_ means: [Int]) -> [Int] {
        stride(from: 0, to: means.count, by: 3).map { 77 * means[$0] + 150 * means[$0 + 1] + 29 * means[$0 + 2] }
    }

    /// The `means` of a `side` × `side` grid averaged into ``colorGrid`` × ``colorGrid`` cells.
    static func colorLayout(_ means: [Int], side: Int) -> [UInt8] {
        let grid = colorGrid, block = side / grid
        var colors = [UInt8](repeating: 0, count: grid * grid * 3)
        for gy in 0..<grid {
            for gx in 0..<grid {
                for c in 0..<3 {
                    var sum = 0
                    for y in gy * block..<(gy + 1) * block {
                        for x in gx * block..<(gx + 1) * block { sum += means[(y * side + x) * 3 + c] }
                    }
                    colors[(gy * grid + gx) * 3 + c] = UInt8(sum / (block * block))
                }
            }
        }
        return colors
    }

    /// The 8 × 8 lowest frequencies of the 2-D DCT of `cells` (`side` × `side`), each bit set
    /// when its coefficient is above the median of the 64.
    static func hash(of cells: [Int], side: Int) -> UInt64 {
        let table = Self.cosines
        // Rows first: 8 frequencies of each row, then 8 of each of those columns.
        var rows = [Int](repeating: 0, count: side * 8)
        for y in 0..<side {
            for u in 0..<8 {
                var sum = 0
                for x in 0..<side { sum += cells[y * side + x] * table[u * side + x] }
                rows[y * 8 + u] = sum >> 14
            }
        }
        var coefficients = [Int](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0
                for y in 0..<side { sum += rows[y * 8 + u] * table[v * side + y] }
                coefficients[v * 8 + u] = sum >> 14
            }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for (i, c) in coefficients.enumerated() where c > median { bits |= 1 << UInt64(i) }
        return bits
    }

    /// cos((2x + 1) u π / 64) × 2¹⁴ for the 8 lowest frequencies `u` of 32 samples `x`, rounded:
    /// far from a half in every case, so a last-bit difference in a libm's cosine cannot move one.
    static let cosines: [Int] = (0..<8).flatMap { u in
        (0..<hashGrid).map { x in
            Int((cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * hashGrid)) * 16384).rounded())
        }
    }

    /// The mean squared response of the 4-neighbour Laplacian over the inner cells, in 1/256
    /// of a level squared (the cells are in 1/256 levels: a square is at most 2³⁶, a sum of
    /// 512 × 512 of them far from overflowing).
    static func laplacianEnergy(_ cells: [Int], width: Int, height: Int) -> Int {
        guard width >= 3, height >= 3 else { return 0 }
        var sum = 0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let at = y * width + x
                let l = 4 * cells[at] - cells[at - 1] - cells[at + 1] - cells[at - width] - cells[at + width]
                sum += l * l
            }
        }
        return (sum / ((width - 2) * (height - 2))) >> 8
    }
}
