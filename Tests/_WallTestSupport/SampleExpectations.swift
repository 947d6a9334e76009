import WallCore
import WallSamples

/// What a decoded sample should show at a few known spots, from the generator's own
/// definition of the picture.
public struct SampleSpot: CustomStringConvertible {
    /// What the spot is, e.g. "top-left" or "arrow head".
    public var name: String
    /// The spot's column in the displayed (upright) picture.
    public var x: Int
    /// The spot's row in the displayed picture.
    public var y: Int
    /// The colour the generator painted there.
    public var expected: RGBAColor

    /// The spot and its colour, for a failed expectation.
    public var description: String { "\(name) at (\(x), \(y)) expecting \(expected)" }
}

extension SampleSpec {
    /// Spots that tell orientation and channel order apart: the four corner squares, the
    /// arrow head and its mirror image, the disc, and for alpha samples the hole and the
    /// half-transparent strip.
    public var spots: [SampleSpot] {
        let g = SamplePicture.Geometry(size: displayedSize)
        let w = displayedSize.width, h = displayedSize.height, half = g.corner / 2
        var spots = [
            ("top-left", half, half), ("top-right", w - 1 - half, half),
            ("bottom-left", half, h - 1 - half), ("bottom-right", w - 1 - half, h - 1 - half),
            ("arrow head", g.insideArrowHead.x, g.insideArrowHead.y),
            ("below the arrow", g.mirroredArrowHead.x, g.mirroredArrowHead.y),
            ("disc", g.discBeside.x, g.discBeside.y),
        ]
        if encoding.hasAlpha {
            spots.append(("hole", Int(g.holeCenter.x), Int(g.holeCenter.y)))
            spots.append(("right strip", w - 1 - half, h / 2))
        }
        return spots.map { name, x, y in
            SampleSpot(name: name, x: x, y: y, expected: expectedColor(x: x, y: y, geometry: g))
        }
    }

    /// The intended colour at a pixel centre, as this sample's storage keeps it.
    public func expectedColor(x: Int, y: Int, geometry g: SamplePicture.Geometry) -> RGBAColor {
        var color = SamplePicture.color(
            x: Double(x) + 0.5, y: Double(y) + 0.5, in: g, alpha: encoding.hasAlpha)
        if encoding.isGray {
            var v = SamplePicture.luma(color.red, color.green, color.blue)
            if encoding == .xbm { v = v < 128 ? 0 : 255 }  // one bit: black under half
            color = RGBAColor(red: v, green: v, blue: v, alpha: color.alpha)
        }
        if encoding.isPaletted {
            // The generator maps colours to a 6x6x6 cube and alpha to 0 or 255.
            func level(_ v: UInt8) -> UInt8 { UInt8((Int(v) + 25) / 51 * 51) }
            color = RGBAColor(
                red: level(color.red), green: level(color.green), blue: level(color.blue),
                alpha: color.alpha < 128 ? 0 : 255)
        }
        return color
    }

    /// How far a decoded channel may stray from the intent.
    public var tolerance: Int {
        switch encoding {
        case .jpeg: return 24
        case .png(.gray, 4, _, _): return 10
        case .png, .gif: return 3
        case .heif(_, _, _): return 32
        case .webp(let lossless, _, _): return lossless ? 3 : 28
        case .tiff(let color, _, let compression, _, _):
            return compression == "jpeg" ? 24 : color == .cmyk ? 6 : 3
        case .jxl(let lossless, _): return lossless ? 3 : 24
        case .video: return 32
        // Lossy JPEG 2000; light made linear as 32-bit floats and encoded back to sRGB: within a level or two.
        case .ffmpegImage(let encoder, _, _, let linear): return encoder == "libopenjpeg" ? 24 : linear ? 4 : 3
        case .psd, .dds, .vector, .xbm: return 3
        }
    }
}
