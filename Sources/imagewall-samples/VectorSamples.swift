// The samples drawn as vectors: the picture's gradient, corner squares, disc and arrow (no label:
// text would depend on the fonts installed) as SVG and as PDF, from the geometry the tests expect.
import Foundation
import WallCore
import WallSamples

/// A number as the files write it: at most three decimals, no exponent.
func decimal(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let sign = thousandths < 0 ? "-" : ""
    let magnitude = abs(thousandths)
    let fraction = magnitude % 1000
    guard fraction > 0 else { return "\(sign)\(magnitude / 1000)" }
    var digits = String(String(fraction + 1000).dropFirst())
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(sign)\(magnitude / 1000).\(digits)"
}

/// The arrow's outline, clockwise from its tip, in the picture's pixels.
func arrowOutline(_ g: SamplePicture.Geometry) -> [(Double, Double)] {
    let x = g.discCenter.x
    return [
        (x, g.arrowTip), (x + g.arrowHeadHalfWidth, g.arrowHeadBase), (x + g.arrowShaftHalfWidth, g.arrowHeadBase),
        (x + g.arrowShaftHalfWidth, g.arrowBottom), (x - g.arrowShaftHalfWidth, g.arrowBottom),
        (x - g.arrowShaftHalfWidth, g.arrowHeadBase), (x - g.arrowHeadHalfWidth, g.arrowHeadBase),
    ]
}

/// "#cc3333".
func hex(_ color: RGBAColor) -> String {
    "#"
        + [color.red, color.green, color.blue].map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
}

/// The SVG: the sky as a gradient with the hole cut out (even-odd), the right strip half
/// transparent, then the squares, the disc and the arrow.
func writeSVG(_ spec: SampleSpec, _ path: String) throws {
    let g = SamplePicture.Geometry(size: spec.displayedSize)
    let w = Double(g.size.width), h = Double(g.size.height), c = Double(g.corner)
    let (hx, hy, hr) = (g.holeCenter.x, g.holeCenter.y, g.holeRadius)
    var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(g.size.width)" height="\(g.size.height)" \
        viewBox="0 0 \(g.size.width) \(g.size.height)">
          <defs>
            <linearGradient id="sky" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="\(decimal(h - 1))">
              <stop offset="0" stop-color="\(hex(SamplePicture.skyTop))"/>
              <stop offset="1" stop-color="\(hex(SamplePicture.skyBottom))"/>
            </linearGradient>
          </defs>
          <path fill="url(#sky)" fill-rule="evenodd" d="M0 0H\(decimal(w - c))V\(decimal(h))H0Z \
        M\(decimal(hx - hr)) \(decimal(hy))a\(decimal(hr)) \(decimal(hr)) 0 1 0 \(decimal(2 * hr)) 0\
        a\(decimal(hr)) \(decimal(hr)) 0 1 0 \(decimal(-2 * hr)) 0Z"/>
          <rect x="\(decimal(w - c))" y="0" width="\(decimal(c))" height="\(decimal(h))" fill="url(#sky)" \
        fill-opacity="0.502"/>

        """
    let squares = [
        (0.0, 0.0, SamplePicture.topLeft), (w - c, 0, SamplePicture.topRight), (0, h - c, SamplePicture.bottomLeft),
        (w - c, h - c, SamplePicture.bottomRight),
    ]
    for (x, y, color) in squares {
        svg +=
            "  <rect x=\"\(decimal(x))\" y=\"\(decimal(y))\" width=\"\(decimal(c))\" height=\"\(decimal(c))\" "
            + "fill=\"\(hex(color))\"/>\n"
    }
    svg +=
        "  <circle cx=\"\(decimal(g.discCenter.x))\" cy=\"\(decimal(g.discCenter.y))\" "
        + "r=\"\(decimal(g.discRadius))\" fill=\"\(hex(SamplePicture.disc))\"/>\n"
    let points = arrowOutline(g).map { "\(decimal($0.0)),\(decimal($0.1))" }.joined(separator: " ")
    svg += "  <polygon points=\"\(points)\" fill=\"\(hex(SamplePicture.arrow))\"/>\n</svg>\n"
    try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
}

/// The PDF: one page of the picture's size at 96 px an inch (0.75 pt a pixel), drawn in the
/// picture's pixels (the y axis turned down): an axial shading for the sky, then the squares, the
/// disc (four Bézier arcs) and the arrow.
func writeVectorPDF(_ spec: SampleSpec, _ path: String) throws {
    let g = SamplePicture.Geometry(size: spec.displayedSize)
    let w = Double(g.size.width), h = Double(g.size.height), c = Double(g.corner)
    func rgb(_ color: RGBAColor) -> String {
        [color.red, color.green, color.blue].map { decimal(Double($0) / 255) }.joined(separator: " ")
    }
    var content = "0.75 0 0 -0.75 0 \(decimal(h * 0.75)) cm\n"
    content += "q 0 0 \(decimal(w)) \(decimal(h)) re W n /Sky sh Q\n"
    let squares = [
        (0.0, 0.0, SamplePicture.topLeft), (w - c, 0, SamplePicture.topRight), (0, h - c, SamplePicture.bottomLeft),
        (w - c, h - c, SamplePicture.bottomRight),
    ]
    for (x, y, color) in squares {
        content += "\(rgb(color)) rg \(decimal(x)) \(decimal(y)) \(decimal(c)) \(decimal(c)) re f\n"
    }
    // A circle as four cubic arcs (control points at 0.5523 of the radius).
    let (cx, cy, r) = (g.discCenter.x, g.discCenter.y, g.discRadius)
    let k = 0.5523 * r
    content += "\(rgb(SamplePicture.disc)) rg \(decimal(cx + r)) \(decimal(cy)) m\n"
    content +=
        "\(decimal(cx + r)) \(decimal(cy + k)) \(decimal(cx + k)) \(decimal(cy + r)) \(decimal(cx)) \(decimal(cy + r)) c\n"
    content +=
        "\(decimal(cx - k)) \(decimal(cy + r)) \(decimal(cx - r)) \(decimal(cy + k)) \(decimal(cx - r)) \(decimal(cy)) c\n"
    content +=
        "\(decimal(cx - r)) \(decimal(cy - k)) \(decimal(cx - k)) \(decimal(cy - r)) \(decimal(cx)) \(decimal(cy - r)) c\n"
    content +=
        "\(decimal(cx + k)) \(decimal(cy - r)) \(decimal(cx + r)) \(decimal(cy - k)) \(decimal(cx + r)) \(decimal(cy)) c f\n"
    let outline = arrowOutline(g)
    content += "\(rgb(SamplePicture.arrow)) rg \(decimal(outline[0].0)) \(decimal(outline[0].1)) m\n"
    for point in outline.dropFirst() { content += "\(decimal(point.0)) \(decimal(point.1)) l\n" }
    content += "h f\n"
    let shading =
        "<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 0 \(decimal(h - 1))] /Extend [true true] "
        + "/Function << /FunctionType 2 /Domain [0 1] /C0 [\(rgb(SamplePicture.skyTop))] "
        + "/C1 [\(rgb(SamplePicture.skyBottom))] /N 1 >> >>"
    let pdf = MinimalPDF.document(
        [(mediaBox: "0 0 \(decimal(w * 0.75)) \(decimal(h * 0.75))", content: String(content.dropLast()))],
        resources: "/Shading << /Sky 5 0 R >>", objects: [shading])
    try Data(pdf).write(to: URL(fileURLWithPath: path))
}
