import WallCore
import WallText

/// The picture every sample shows, defined so tests can predict it: a vertical gradient, four
/// coloured corner squares, a disc, a white arrow pointing up and the sample's name. Samples
/// with alpha also have a transparent hole at the left edge and a half-transparent sky strip at
/// the right edge.
///
/// Corner colours and the disc use levels that are multiples of 51, so a 6×6×6 palette holds
/// them exactly.
public enum SamplePicture {
    /// Top-left corner square.
    public static let topLeft = RGBAColor(red: 204, green: 51, blue: 51)
    /// Top-right corner square.
    public static let topRight = RGBAColor(red: 51, green: 153, blue: 51)
    /// Bottom-left corner square.
    public static let bottomLeft = RGBAColor(red: 51, green: 51, blue: 204)
    /// Bottom-right corner square.
    public static let bottomRight = RGBAColor(red: 255, green: 204, blue: 51)
    /// The disc behind the arrow.
    public static let disc = RGBAColor(red: 153, green: 51, blue: 153)
    /// The arrow.
    public static let arrow = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opacity of the sky in the right-hand strip of samples with alpha.
    public static let halfAlpha: UInt8 = 128
    /// Gradient at the top edge.
    public static let skyTop = RGBAColor(red: 150, green: 200, blue: 235)
    /// Gradient at the bottom edge.
    public static let skyBottom = RGBAColor(red: 40, green: 60, blue: 90)

    /// Rec. 601 luma, rounded, as libjpeg computes it: the grey samples store this.
    public static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let weighted: Int = 299 * Int(r) + 587 * Int(g) + 114 * Int(b)
        return UInt8((weighted + 500) / 1000)
    }

    /// The picture's geometry for a displayed size.
    public struct Geometry: Sendable {
        /// Displayed size.
        public var size: Size
        /// Side of the corner squares.
        public var corner: Int
        /// Disc centre and radius.
        public var discCenter: (x: Double, y: Double), discRadius: Double
        /// Arrow: tip, head base, shaft bottom (y), head half-width and shaft half-width.
        public var arrowTip: Double, arrowHeadBase: Double, arrowBottom: Double
        public var arrowHeadHalfWidth: Double, arrowShaftHalfWidth: Double
        /// The transparent hole of alpha samples: centre and radius.
        public var holeCenter: (x: Double, y: Double), holeRadius: Double

        /// Geometry for `size`.
        public init(size: Size) {
            self.size = size
            let s = Double(min(size.width, size.height))
            corner = max(4, min(size.width, size.height) / 5)
            discCenter = (Double(size.width) / 2, Double(size.height) / 2 - 0.08 * s)
            discRadius = 0.3 * s
            arrowTip = discCenter.y - 0.26 * s
            arrowHeadBase = discCenter.y - 0.04 * s
            arrowBottom = discCenter.y + 0.22 * s
            arrowHeadHalfWidth = 0.16 * s
            arrowShaftHalfWidth = 0.055 * s
            holeCenter = (Double(corner) * 0.5, Double(size.height) / 2)
            holeRadius = Double(corner) * 0.4
        }

        /// A point inside the arrow head, right of where the shaft would be: white when
        /// upright.
        public var insideArrowHead: (x: Int, y: Int) {
            let s = Double(min(size.width, size.height))
            return (Int(discCenter.x + 0.09 * s), Int(arrowTip + 0.8 * (arrowHeadBase - arrowTip)))
        }

        /// `insideArrowHead` mirrored top to bottom across the disc centre: beside the shaft,
        /// so disc-coloured when upright and white when the picture is upside down.
        public var mirroredArrowHead: (x: Int, y: Int) {
            let s = Double(min(size.width, size.height))
            return (Int(discCenter.x + 0.09 * s), Int(2 * discCenter.y - (arrowTip + 0.8 * (arrowHeadBase - arrowTip))))
        }

        /// A point in the disc, left of the arrow head.
        public var discBeside: (x: Int, y: Int) {
            (Int(discCenter.x - 0.75 * discRadius), Int(discCenter.y))
        }
    }

    /// The colour drawn at (`x`, `y`) ignoring text and anti-aliasing: what a test expects
    /// away from edges.
    public static func color(x: Double, y: Double, in g: Geometry, alpha: Bool) -> RGBAColor {
        let w = Double(g.size.width), h = Double(g.size.height), c = Double(g.corner)
        if x < c && y < c { return topLeft }
        if x >= w - c && y < c { return topRight }
        if x < c && y >= h - c { return bottomLeft }
        if x >= w - c && y >= h - c { return bottomRight }
        if alpha {
            let dx = x - g.holeCenter.x, dy = y - g.holeCenter.y
            if dx * dx + dy * dy < g.holeRadius * g.holeRadius { return .transparent }
        }
        if inArrow(x: x, y: y, g) { return arrow }
        let dx = x - g.discCenter.x, dy = y - g.discCenter.y
        if dx * dx + dy * dy < g.discRadius * g.discRadius { return disc }
        let t = min(1, max(0, y / max(1, h - 1)))
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        return RGBAColor(
            red: mix(skyTop.red, skyBottom.red), green: mix(skyTop.green, skyBottom.green),
            blue: mix(skyTop.blue, skyBottom.blue),
            alpha: alpha && x >= w - c ? halfAlpha : 255)
    }

    private static func inArrow(x: Double, y: Double, _ g: Geometry) -> Bool {
        let dx = abs(x - g.discCenter.x)
        if y >= g.arrowHeadBase && y < g.arrowBottom { return dx < g.arrowShaftHalfWidth }
        if y >= g.arrowTip && y < g.arrowHeadBase {
            let t = (y - g.arrowTip) / (g.arrowHeadBase - g.arrowTip)
            return dx < t * g.arrowHeadHalfWidth
        }
        return false
    }

    /// Renders the picture upright at `size` with straight alpha, 4×4 supersampled, with
    /// `label` in white near the bottom.
    public static func render(size: Size, label: String, alpha: Bool, font: FontFace) throws -> Bitmap {
        let g = Geometry(size: size)
        var bitmap = Bitmap(size: size, alpha: .straight)
        let samples = 4
        for y in 0..<size.height {
            for x in 0..<size.width {
                var sums = (0, 0, 0, 0)
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let c = color(
                            x: Double(x) + (Double(sx) + 0.5) / Double(samples),
                            y: Double(y) + (Double(sy) + 0.5) / Double(samples), in: g, alpha: alpha)
                        let a = Int(c.alpha)
                        sums.0 += Int(c.red) * a
                        sums.1 += Int(c.green) * a
                        sums.2 += Int(c.blue) * a
                        sums.3 += a
                    }
                }
                let at = (y * size.width + x) * 4
                let totalAlpha = sums.3
                if totalAlpha > 0 {
                    bitmap.pixels[at] = UInt8((sums.0 + totalAlpha / 2) / totalAlpha)
                    bitmap.pixels[at + 1] = UInt8((sums.1 + totalAlpha / 2) / totalAlpha)
                    bitmap.pixels[at + 2] = UInt8((sums.2 + totalAlpha / 2) / totalAlpha)
                }
                bitmap.pixels[at + 3] = UInt8((totalAlpha + samples * samples / 2) / (samples * samples))
            }
        }
        try drawLabel(label, on: &bitmap, geometry: g, font: font)
        return bitmap
    }

    /// The band the label occupies: between the bottom corner squares, under the disc.
    public static func labelBand(_ g: Geometry) -> Rect {
        let top = Int(g.discCenter.y + g.discRadius) + 2
        return Rect(
            x: g.corner + 2, y: top, width: g.size.width - 2 * g.corner - 4,
            height: max(1, g.size.height - top - 2))
    }

    private static func drawLabel(_ label: String, on bitmap: inout Bitmap, geometry g: Geometry, font: FontFace) throws
    {
        let band = labelBand(g)
        var pixelSize = max(8, min(band.height * 8 / 10, min(g.size.width, g.size.height) / 7))
        var mask = try font.render(label, pixelSize: pixelSize)
        while mask.size.width > band.width && pixelSize > 6 {
            pixelSize -= 1
            mask = try font.render(label, pixelSize: pixelSize)
        }
        let left = band.x + max(0, (band.width - mask.size.width) / 2)
        let top = band.y + max(0, (band.height - mask.size.height) / 2)
        for my in 0..<mask.size.height {
            let y = top + my
            guard y >= 0, y < bitmap.size.height else { continue }
            for mx in 0..<mask.size.width {
                let x = left + mx
                guard x >= 0, x < bitmap.size.width else { continue }
                let a = Int(mask.mask.coverage(x: mx, y: my))
                guard a > 0 else { continue }
                let at = (y * bitmap.size.width + x) * 4
                for c in 0..<3 {
                    bitmap.pixels[at + c] = UInt8((255 * a + Int(bitmap.pixels[at + c]) * (255 - a) + 127) / 255)
                }
                bitmap.pixels[at + 3] = max(bitmap.pixels[at + 3], UInt8(a))
            }
        }
    }
}
