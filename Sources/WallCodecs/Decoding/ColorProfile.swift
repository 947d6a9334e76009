import CColorShim
import WallCore

/// An embedded ICC profile, converted to sRGB with LittleCMS.
public struct ColorProfile: Sendable, Equatable {
    /// The profile's bytes.
    public var data: [UInt8]

    /// Wraps profile bytes.
    public init(data: [UInt8]) { self.data = data }

    /// The profile's description, e.g. "Adobe RGB (1998)", or "" when it has none.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 256)
        data.withUnsafeBufferPointer { iw_icc_description($0.baseAddress, $0.count, &buffer, 256) }
        return buffer.text
    }

    /// The outcome of a conversion.
    enum Outcome: Equatable {
        case converted(Bitmap)
        case unchanged  // already sRGB
        case ignored(String)
    }

    /// Converts RGB or RGBA pixels (straight alpha) from this profile to sRGB.
    func convertRGB(_ bitmap: Bitmap) -> Outcome {
        var result = bitmap
        let count = bitmap.size.width * bitmap.size.height
        let kind = bitmap.channels == 4 ? Int32(IW_ICC_RGBA) : Int32(IW_ICC_RGB)
        let status = data.withUnsafeBufferPointer { profile in
            bitmap.pixels.withUnsafeBufferPointer { source in
                result.pixels.withUnsafeMutableBufferPointer { target in
                    iw_icc_to_srgb(
                        profile.baseAddress, profile.count, kind, source.baseAddress, target.baseAddress, count)
                }
            }
        }
        return outcome(status, result)
    }

    /// Converts CMYK pixels (4 channels; `inverted` as Adobe stores them) to sRGB.
    func convertCMYK(_ cmyk: Bitmap, inverted: Bool) -> Outcome {
        var result = Bitmap(size: cmyk.size, alpha: .none)
        let count = cmyk.size.width * cmyk.size.height
        let kind = inverted ? Int32(IW_ICC_CMYK_INVERTED) : Int32(IW_ICC_CMYK)
        let status = data.withUnsafeBufferPointer { profile in
            cmyk.pixels.withUnsafeBufferPointer { source in
                result.pixels.withUnsafeMutableBufferPointer { target in
                    iw_icc_to_srgb(
                        profile.baseAddress, profile.count, kind, source.baseAddress, target.baseAddress, count)
                }
            }
        }
        return outcome(status, result)
    }

    private func outcome(_ status: Int32, _ result: Bitmap) -> Outcome {
        switch Int(status) {
        case Int(IW_ICC_DONE): return .converted(result)
        case Int(IW_ICC_ALREADY_SRGB): return .unchanged
        case Int(IW_ICC_MISMATCH): return .ignored("ICC profile ignored: its colour space does not match the image")
        case Int(IW_ICC_UNREADABLE): return .ignored("ICC profile ignored: it cannot be read")
        default: return .ignored("ICC profile ignored: LittleCMS could not build a transform")
        }
    }

    /// An RGB matrix/TRC profile with the given white point, primaries (CIE xy) and gamma,
    /// e.g. to tag test images. `nil` if LittleCMS cannot build it.
    public static func rgb(
        white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double),
        blue: (x: Double, y: Double), gamma: Double, description: String
    ) -> ColorProfile? {
        var bytes = [UInt8](repeating: 0, count: 8192)
        let size = bytes.withUnsafeMutableBufferPointer {
            iw_icc_make_rgb(
                white.x, white.y, red.x, red.y, green.x, green.y, blue.x, blue.y, gamma, description, $0.baseAddress,
                $0.count)
        }
        return size > 0 ? ColorProfile(data: Array(bytes[0..<size])) : nil
    }

    /// An RGB matrix profile with a parametric tone curve of LittleCMS `curveType` (1: a pure
    /// gamma; 4: the sRGB curve's shape) and its `parameters`.
    public static func rgb(
        white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double),
        blue: (x: Double, y: Double), curveType: Int, parameters: [Double], description: String
    ) -> ColorProfile? {
        var bytes = [UInt8](repeating: 0, count: 8192)
        let size = bytes.withUnsafeMutableBufferPointer { out in
            parameters.withUnsafeBufferPointer { p in
                iw_icc_make_rgb_parametric(
                    white.x, white.y, red.x, red.y, green.x, green.y, blue.x, blue.y, Int32(curveType), p.baseAddress,
                    description, out.baseAddress, out.count)
            }
        }
        return size > 0 ? ColorProfile(data: Array(bytes[0..<size])) : nil
    }

    /// CIE L*a*b* pixels (four bytes each: L scaled to 0–255, a, b, and one unused; a and b two's
    /// complement when `signedAB`, else offset by 128) as sRGB, through LittleCMS.
    static func labToSRGB(_ lab: Bitmap, signedAB: Bool) -> Bitmap? {
        precondition(lab.channels == 4)
        var rgb = Bitmap(size: lab.size, alpha: .none)
        let count = lab.size.width * lab.size.height
        let status = lab.pixels.withUnsafeBufferPointer { input in
            rgb.pixels.withUnsafeMutableBufferPointer { output in
                iw_lab_to_srgb(input.baseAddress, signedAB ? 1 : 0, output.baseAddress, count)
            }
        }
        return status == 0 ? rgb : nil
    }

    /// Adobe RGB (1998): D65, its primaries, gamma 563/256.
    public static let adobeRGB = rgb(
        white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
        gamma: 563.0 / 256.0, description: "Adobe RGB (1998) compatible")
}
