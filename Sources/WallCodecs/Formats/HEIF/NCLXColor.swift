import CHEIFShim

/// A HEIF file's colour given as nclx code points (ITU-T H.273): primaries, transfer
/// characteristics, matrix. libheif applies the matrix while decoding to RGB; the primaries
/// and the tone curve become a profile LittleCMS converts from.
struct NCLXColor {
    var primaries: Int
    var transfer: Int

    init(primaries: Int32, transfer: Int32) {
        self.primaries = Int(primaries)
        self.transfer = Int(transfer)
    }

    /// White point and primaries (CIE xy) of the code points ImageWall converts.
    private var chromaticities:
        (white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double), name: String)?
    {
        let d65 = (0.3127, 0.3290)
        switch primaries {
        case 1, 2: return (d65, (0.64, 0.33), (0.30, 0.60), (0.15, 0.06), "BT.709")
        case 5: return (d65, (0.64, 0.33), (0.29, 0.60), (0.15, 0.06), "BT.470 B/G")
        case 6, 7: return (d65, (0.630, 0.340), (0.310, 0.595), (0.155, 0.070), "BT.601")
        case 9: return (d65, (0.708, 0.292), (0.170, 0.797), (0.131, 0.046), "BT.2020")
        case 11: return ((0.314, 0.351), (0.680, 0.320), (0.265, 0.690), (0.150, 0.060), "DCI-P3")
        case 12: return (d65, (0.680, 0.320), (0.265, 0.690), (0.150, 0.060), "Display P3")
        default: return nil
        }
    }

    /// The tone curve as a LittleCMS parametric curve. The BT.709 family is read as sRGB's
    /// curve, as photo software treats images so labelled.
    private var curve: (type: Int, parameters: [Double], name: String)? {
        switch transfer {
        case 1, 2, 6, 13, 14, 15: return (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045], "sRGB")
        case 4: return (1, [2.2], "gamma 2.2")
        case 5: return (1, [2.8], "gamma 2.8")
        case 8: return (1, [1.0], "linear")
        default: return nil
        }
    }

    /// `true` when the colour is sRGB's (nothing to convert).
    var isSRGB: Bool { [1, 2].contains(primaries) && [1, 2, 6, 13, 14, 15].contains(transfer) }

    /// A profile for this colour, or `nil` when it is sRGB or not one ImageWall converts.
    var profile: ColorProfile? {
        guard !isSRGB, let c = chromaticities, let curve else { return nil }
        return ColorProfile.rgb(
            white: c.white, red: c.red, green: c.green, blue: c.blue, curveType: curve.type,
            parameters: curve.parameters,
            description: "nclx \(c.name), \(curve.name)")
    }

    /// Why the colour is drawn unconverted, when it is.
    var unsupportedReason: String? {
        guard !isSRGB, profile == nil else { return nil }
        if transfer == 16 || transfer == 18 {
            return "HDR colour (\(transfer == 16 ? "PQ" : "HLG")) shown without tone mapping"
        }
        return "nclx colour (primaries \(primaries), transfer \(transfer)) not converted"
    }
}
