import WallCore
import WallText

/// What a tile is marked as besides its picture, so that a sheet tells a video or a picture kept
/// in two files from a photo at a glance.
public enum TileMark: String, Sendable, Hashable, Codable {
    /// A video's poster frame: a play button in the middle.
    case video
    /// The still of a Live Photo (its movie not drawn again): "LIVE" in the top-left corner.
    case live
    /// The JPEG of a RAW+JPEG pair (the RAW file not drawn again): "RAW+JPEG" in the corner.
    case rawAndJPEG = "raw+jpeg"
    /// The HEIF of a RAW+HEIF pair: "RAW+HEIF" in the corner.
    case rawAndHEIF = "raw+heif"

    /// The label of a corner mark; none for the play button.
    var label: String? {
        switch self {
        case .video: return nil
        case .live: return "LIVE"
        case .rawAndJPEG: return "RAW+JPEG"
        case .rawAndHEIF: return "RAW+HEIF"
        }
    }

    /// Draws the mark onto `tile` (RGB, or premultiplied RGBA), scaled to the tile: the same
    /// pixels for the same tile and mark.
    func draw(on tile: inout Bitmap) {
        if let label {
            TileMark.drawLabel(label, on: &tile)
        } else {
            TileMark.drawPlayButton(on: &tile)
        }
    }

    /// Marks a tile drawn from a damaged file (its decoder warned that pixels are missing or
    /// may be wrong), so that nobody takes a black or grey area for the photo: a red frame just
    /// inside its edge and "DAMAGED" in white on red in the bottom-left corner. The same pixels
    /// for the same tile.
    static func drawDamaged(on tile: inout Bitmap) {
        let w = tile.size.width, h = tile.size.height
        let frame = max(2, min(w, h) / 80)
        guard w > 2 * frame, h > 2 * frame else { return }
        for y in 0..<h {
            for x in 0..<w where x < frame || y < frame || x >= w - frame || y >= h - frame {
                blend(&tile, x: x, y: y, color: damageRed, opacity: 0.9)
            }
        }
        drawLabel("DAMAGED", on: &tile, bottom: true, chip: damageRed, opacity: 0.85)
    }

    /// Marks a tile that stands for a stack of `hidden` more pictures (`--stack`): "+4" in
    /// white on a dark chip in the top-right corner, clear of the corner marks on the left.
    static func drawStack(hidden: Int, on tile: inout Bitmap) {
        drawLabel("+\(hidden)", on: &tile, right: true, opacity: 0.65)
    }

    /// The red of the damaged mark (the placeholder's ink, brighter).
    private static let damageRed = RGBAColor(red: 200, green: 30, blue: 30)

    /// A dark translucent disc holding a white triangle pointing right, in the middle of the
    /// tile, a sixth of its shorter side across (14 to 72 px), anti-aliased.
    private static func drawPlayButton(on tile: inout Bitmap) {
        let w = tile.size.width, h = tile.size.height
        let diameter = min(72, max(14, min(w, h) / 6))
        guard diameter + 2 <= min(w, h) else { return }
        let radius = Double(diameter) / 2
        let cx = Double(w) / 2, cy = Double(h) / 2
        // The triangle, its centroid a little right of the centre so that it looks centred.
        let side = radius * 0.95
        let left = cx - side * 0.38, right = cx + side * 0.62, half = side * 0.56
        let top = Int(cy - radius) - 1, bottom = Int(cy + radius) + 1
        let first = Int(cx - radius) - 1, last = Int(cx + radius) + 1
        for y in max(0, top)...min(h - 1, bottom) {
            for x in max(0, first)...min(w - 1, last) {
                var disc = 0, triangle = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4, py = Double(y) + (Double(sy) + 0.5) / 4
                        let dx = px - cx, dy = py - cy
                        if dx * dx + dy * dy <= radius * radius { disc += 1 }
                        if px >= left && px <= right {
                            let reach = half * (right - px) / (right - left)
                            if abs(py - cy) <= reach { triangle += 1 }
                        }
                    }
                }
                if disc > 0 { blend(&tile, x: x, y: y, gray: 0, opacity: 0.5 * Double(disc) / 16) }
                if triangle > 0 { blend(&tile, x: x, y: y, gray: 255, opacity: 0.95 * Double(triangle) / 16) }
            }
        }
    }

    /// `label` in white on a translucent chip (dark unless `chip` says) in the top-left corner,
    /// or the bottom-left or top-right one, sized to the tile (9 to 16 px text); left out when
    /// the tile is too small to hold it.
    private static func drawLabel(
        _ label: String, on tile: inout Bitmap, bottom: Bool = false, right: Bool = false,
        chip color: RGBAColor = .black, opacity: Double = 0.55
    ) {
        let w = tile.size.width, h = tile.size.height
        let pixelSize = min(16, max(9, min(w, h) / 14))
        guard let text = Self.rendered(label, pixelSize: pixelSize) else { return }
        let padding = max(2, pixelSize / 3)
        let margin = max(2, min(w, h) / 40)
        let height = text.size.height + padding
        let width = text.size.width + 2 * padding
        let chip = Rect(
            x: right ? w - margin - width : margin, y: bottom ? h - margin - height : margin, width: width,
            height: height)
        guard chip.x >= 0, chip.y >= 0, chip.maxX + margin <= w, chip.maxY + margin <= h else { return }
        for y in chip.y..<chip.maxY {
            for x in chip.x..<chip.maxX { blend(&tile, x: x, y: y, color: color, opacity: opacity) }
        }
        let originX = chip.x + padding, originY = chip.y + padding / 2
        for y in 0..<text.size.height {
            for x in 0..<text.size.width {
                let coverage = text.mask.coverage(x: x, y: y)
                if coverage > 0 {
                    blend(&tile, x: originX + x, y: originY + y, gray: 255, opacity: Double(coverage) / 255)
                }
            }
        }
    }

    /// Labels already rendered, by text and size: every marked tile of a run shares one of a
    /// few, so the font is opened and the text drawn once for each.
    private static let labels = Locked<[String: TextMask]>([:])

    /// `label` in DejaVu Sans Bold at `pixelSize`, rendered once a run; `nil` when the font
    /// cannot be read (the label is then left out).
    private static func rendered(_ label: String, pixelSize: Int) -> TextMask? {
        let key = "\(pixelSize) \(label)"
        if let known = labels.withLock({ $0[key] }) { return known }
        guard let face = try? FontFace(path: FontFace.boldPath),
            let text = try? face.render(label, pixelSize: pixelSize)
        else { return nil }
        labels.withLock { $0[key] = text }
        return text
    }

    /// Lays `gray` at `opacity` over the pixel at (`x`, `y`) of an RGB or premultiplied tile.
    private static func blend(_ tile: inout Bitmap, x: Int, y: Int, gray: Int, opacity: Double) {
        let level = UInt8(gray)
        blend(&tile, x: x, y: y, color: RGBAColor(red: level, green: level, blue: level), opacity: opacity)
    }

    /// Lays `color` at `opacity` over the pixel at (`x`, `y`) of an RGB or premultiplied tile.
    private static func blend(_ tile: inout Bitmap, x: Int, y: Int, color: RGBAColor, opacity: Double) {
        let channels = tile.channels
        let at = (y * tile.size.width + x) * channels
        let keep = 1 - opacity
        for (c, level) in [color.red, color.green, color.blue].enumerated() where c < channels {
            let ink = Double(level) * opacity
            tile.pixels[at + c] = UInt8(min(255, (Double(tile.pixels[at + c]) * keep + ink).rounded()))
        }
        if channels == 4 {
            tile.pixels[at + 3] = UInt8(min(255, (Double(tile.pixels[at + 3]) * keep + 255 * opacity).rounded()))
        }
    }
}
