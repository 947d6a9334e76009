import WallCore

/// How each tile's image is decorated.
public struct TileStyle: Hashable, Sendable, Codable {
    /// Radius of the image's rounded corners, anti-aliased (0: square).
    public var cornerRadius: Int = 0
    /// Width of a border drawn just inside the image's edge, following its corners.
    public var border: Int = 0
    /// Colour of the border.
    public var borderColor: RGBAColor = .white

    /// A style with no decoration.
    public init(cornerRadius: Int = 0, border: Int = 0, borderColor: RGBAColor = .white) {
        self.cornerRadius = cornerRadius
        self.border = border
        self.borderColor = borderColor
    }

    /// `true` when the image is drawn as it is.
    public var isPlain: Bool { cornerRadius <= 0 && border <= 0 }

    enum CodingKeys: String, CodingKey { case cornerRadius, border, borderColor }

    /// Reads the style; absent keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cornerRadius = try c.decodeIfPresent(Int.self, forKey: .cornerRadius) ?? 0
        border = try c.decodeIfPresent(Int.self, forKey: .border) ?? 0
        borderColor = try c.decodeIfPresent(RGBAColor.self, forKey: .borderColor) ?? .white
    }
}

/// A line of text to blend into a cell: coverage, where its top-left goes, its colour, and the
/// box it must not leave.
public struct TextStamp: Sendable {
    /// The text's coverage, one byte a pixel.
    public var mask: CoverageMask
    /// Where the mask's top-left corner goes, in the cell.
    public var origin: Point
    /// The text's colour (its alpha scales the coverage).
    public var color: RGBAColor
    /// The box no pixel of the text may leave.
    public var clip: Rect

    /// A stamp of `mask` at `origin` in `color`, kept inside `clip`.
    public init(mask: CoverageMask, origin: Point, color: RGBAColor, clip: Rect) {
        self.mask = mask
        self.origin = origin
        self.color = color
        self.clip = clip
    }
}

/// Builds the bitmap of a whole cell: the image at its place, decorated, and text, over a
/// transparent ground (the sheet's background shows through when the band is painted).
public enum CellPainter {
    /// A premultiplied RGBA bitmap `size` big, with `image` (RGB or premultiplied RGBA) at
    /// `origin`, decorated by `style`, and `texts` blended on top.
    public static func paint(
        size: Size, image: Bitmap?, at origin: Point = Point(x: 0, y: 0), style: TileStyle = TileStyle(),
        texts: [TextStamp] = []
    ) -> Bitmap {
        var cell = Bitmap(size: size, alpha: .premultiplied)
        if let image { place(image, at: origin, style: style, into: &cell) }
        for text in texts { blend(text, into: &cell) }
        return cell
    }

    /// Coverage of pixel (`x`, `y`) by a `width`×`height` rectangle with corners of `radius`,
    /// from the distance of the pixel centre to the corner circle (anti-aliased over a pixel).
    @inline(__always)
    static func roundedCoverage(x: Int, y: Int, width: Int, height: Int, radius: Double) -> Double {
        guard width > 0, height > 0, x >= 0, y >= 0, x < width, y < height else { return 0 }
        guard radius > 0 else { return 1 }
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let cx = min(max(px, radius), Double(width) - radius)
        let cy = min(max(py, radius), Double(height) - radius)
        let dx = px - cx, dy = py - cy
        if dx == 0 || dy == 0 { return 1 }
        let distance = (dx * dx + dy * dy).squareRoot()
        return min(1, max(0, radius - distance + 0.5))
    }

    private static func place(_ image: Bitmap, at origin: Point, style: TileStyle, into cell: inout Bitmap) {
        let w = image.size.width, h = image.size.height
        let channels = image.channels
        let radius = Double(min(max(0, style.cornerRadius), min(w, h) / 2))
        let border = min(max(0, style.border), min(w, h) / 2)
        let innerRadius = max(0, radius - Double(border))
        let bc = style.borderColor
        let ba = Double(bc.alpha) / 255
        let borderPremultiplied = [Double(bc.red) * ba, Double(bc.green) * ba, Double(bc.blue) * ba, Double(bc.alpha)]
        let cellWidth = cell.size.width
        image.pixels.withUnsafeBufferPointer { src in
            cell.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let cy = origin.y + y
                    guard cy >= 0, cy < cell.size.height else { continue }
                    for x in 0..<w {
                        let cx = origin.x + x
                        guard cx >= 0, cx < cellWidth else { continue }
                        let s = (y * w + x) * channels
                        let d = (cy * cellWidth + cx) * 4
                        let a = channels == 4 ? Double(src[s + 3]) : 255
                        if style.isPlain {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = UInt8(a)
                            continue
                        }
                        let outer = roundedCoverage(x: x, y: y, width: w, height: h, radius: radius)
                        let inner =
                            border == 0
                            ? outer
                            : roundedCoverage(
                                x: x - border, y: y - border, width: w - 2 * border, height: h - 2 * border,
                                radius: innerRadius)
                        let ring = max(0, outer - inner)
                        for c in 0..<3 {
                            dst[d + c] = UInt8(
                                min(255, (Double(src[s + c]) * inner + borderPremultiplied[c] * ring).rounded()))
                        }
                        dst[d + 3] = UInt8(min(255, (a * inner + borderPremultiplied[3] * ring).rounded()))
                    }
                }
            }
        }
    }

    /// Blends `text` in its colour over the cell, inside its clip box only.
    static func blend(_ text: TextStamp, into cell: inout Bitmap) {
        let clip = Rect(x: max(0, text.clip.x), y: max(0, text.clip.y), width: 0, height: 0)
        let x1 = min(cell.size.width, text.clip.maxX), y1 = min(cell.size.height, text.clip.maxY)
        let color = [UInt32(text.color.red), UInt32(text.color.green), UInt32(text.color.blue)]
        let alpha = UInt32(text.color.alpha)
        let width = cell.size.width
        guard clip.x < x1, clip.y < y1 else { return }
        cell.pixels.withUnsafeMutableBufferPointer { dst in
            for my in 0..<text.mask.size.height {
                let y = text.origin.y + my
                guard y >= clip.y, y < y1 else { continue }
                for mx in 0..<text.mask.size.width {
                    let x = text.origin.x + mx
                    guard x >= clip.x, x < x1 else { continue }
                    let at = my * text.mask.size.width + mx
                    let coverage = UInt32(text.mask.coverage[at])
                    guard coverage > 0 else { continue }
                    let d = (y * width + x) * 4
                    if let paint = text.mask.paint, paint[at * 4 + 3] > 0 {
                        // A colour glyph's pixel, premultiplied, over the cell (the text's alpha kept).
                        let sa = (UInt32(paint[at * 4 + 3]) * alpha + 127) / 255
                        for c in 0..<3 {
                            let source = (UInt32(paint[at * 4 + c]) * alpha + 127) / 255
                            dst[d + c] = UInt8(min(255, source + (UInt32(dst[d + c]) * (255 - sa) + 127) / 255))
                        }
                        dst[d + 3] = UInt8(min(255, sa + (UInt32(dst[d + 3]) * (255 - sa) + 127) / 255))
                        continue
                    }
                    let sa = (coverage * alpha + 127) / 255  // source alpha
                    for c in 0..<3 {
                        let source = (color[c] * sa + 127) / 255
                        dst[d + c] = UInt8(min(255, source + (UInt32(dst[d + c]) * (255 - sa) + 127) / 255))
                    }
                    dst[d + 3] = UInt8(min(255, sa + (UInt32(dst[d + 3]) * (255 - sa) + 127) / 255))
                }
            }
        }
    }
}
