import WallCodecs
import WallCore

/// Pixel-by-pixel comparison of two sheets, for visual-regression fixtures.
public enum SheetDiff {
    /// What differs between two images of the same size.
    public struct Result: Sendable, Equatable {
        /// The size both images have.
        public var size: Size
        /// Pixels where some channel differs by more than the tolerance.
        public var changedPixels: Int
        /// The largest difference of any channel anywhere, 0–255.
        public var maxDelta: Int

        /// Changed pixels as a share of all, 0–1.
        public var changedFraction: Double {
            Double(changedPixels) / Double(max(1, size.width * size.height))
        }
    }

    /// Two images that cannot be compared pixel by pixel.
    public struct SizeMismatch: WallError, Equatable {
        public var a: Size
        public var b: Size
        public var message: String { "the images differ in size: \(a) and \(b)" }
    }

    /// Compares `a` and `b` (RGB or RGBA; a missing alpha counts as opaque). Returns the result,
    /// the per-pixel change mask (1 where changed) and a picture of the changes: changed pixels
    /// in red over a faded copy of `a`.
    public static func compare(_ a: Bitmap, _ b: Bitmap, tolerance: Int) throws(SizeMismatch) -> (
        result: Result, mask: [Bool], picture: Bitmap
    ) {
        guard a.size == b.size else { throw SizeMismatch(a: a.size, b: b.size) }
        let count = a.size.width * a.size.height
        var mask = [Bool](repeating: false, count: count)
        var picture = Bitmap(size: a.size, alpha: .none)
        var changed = 0, maxDelta = 0
        let ca = a.channels, cb = b.channels
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                picture.pixels.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count {
                        var delta = 0
                        for c in 0..<3 { delta = max(delta, abs(Int(pa[i * ca + c]) - Int(pb[i * cb + c]))) }
                        let alphaA = ca == 4 ? Int(pa[i * 4 + 3]) : 255, alphaB = cb == 4 ? Int(pb[i * 4 + 3]) : 255
                        delta = max(delta, abs(alphaA - alphaB))
                        maxDelta = max(maxDelta, delta)
                        if delta > tolerance {
                            changed += 1
                            mask[i] = true
                            out[i * 3] = 255; out[i * 3 + 1] = 0; out[i * 3 + 2] = 0
                        } else {
                            let luma =
                                (299 * Int(pa[i * ca]) + 587 * Int(pa[i * ca + 1]) + 114 * Int(pa[i * ca + 2])) / 1000
                            let faded = UInt8(191 + luma / 4)  // a light grey ghost of `a`
                            out[i * 3] = faded; out[i * 3 + 1] = faded; out[i * 3 + 2] = faded
                        }
                    }
                }
            }
        }
        return (Result(size: a.size, changedPixels: changed, maxDelta: maxDelta), mask, picture)
    }

    /// Decodes an image file for comparison: pixels as stored, no colour conversion.
    public static func load(_ path: String) throws -> Bitmap {
        let info = try ImageProbe(maxImagePixels: Int.max).probe(path: path)
        var decoder = ImageDecoder()
        decoder.convertsToSRGB = false
        return try decoder.decode(path: path, info: info).bitmap
    }

    /// How tiles differ between two manifests of the same sources.
    public struct TileChanges: Sendable, Equatable {
        /// Sources whose rectangle or page changed.
        public var moved: [String] = []
        /// Sources in the same place whose pixels differ.
        public var changed: [String] = []
        /// Sources only in the second manifest.
        public var appeared: [String] = []
        /// Sources only in the first manifest.
        public var disappeared: [String] = []

        public var isEmpty: Bool { moved.isEmpty && changed.isEmpty && appeared.isEmpty && disappeared.isEmpty }
    }

    /// Compares the tiles of two manifests; `mask` (from ``compare(_:_:tolerance:)`` on their
    /// first pages) tells which unmoved tiles changed.
    public static func compare(_ a: Manifest, _ b: Manifest, mask: [Bool]?, width: Int) -> TileChanges {
        var changes = TileChanges()
        let first = Dictionary(a.tiles.map { ($0.source, $0) }, uniquingKeysWith: { x, _ in x })
        let second = Dictionary(b.tiles.map { ($0.source, $0) }, uniquingKeysWith: { x, _ in x })
        for tile in b.tiles {
            guard let old = first[tile.source] else {
                changes.appeared.append(tile.source)
                continue
            }
            if (old.x, old.y, old.width, old.height, old.page) != (tile.x, tile.y, tile.width, tile.height, tile.page) {
                changes.moved.append(tile.source)
            } else if let mask, tile.page == 0 {
                let touched = (tile.y..<(tile.y + tile.height)).contains { y in
                    (tile.x..<(tile.x + tile.width)).contains { x in
                        let i = y * width + x
                        return i >= 0 && i < mask.count && mask[i]
                    }
                }
                if touched { changes.changed.append(tile.source) }
            }
        }
        changes.disappeared = a.tiles.map(\.source).filter { second[$0] == nil }
        return changes
    }
}
