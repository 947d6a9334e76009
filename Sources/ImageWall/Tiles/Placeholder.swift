import WallCompositor
import WallCore
import WallText

/// What is drawn for an image that could not be decoded: a pale hatched box with a broken-
/// picture mark and the reason in words, so that nobody takes it for a grey photo.
enum Placeholder {
    static let paper: [UInt8] = [238, 238, 238]
    static let hatch: [UInt8] = [214, 214, 214]
    static let ink = RGBAColor(red: 150, green: 30, blue: 30)
    static let text = RGBAColor(red: 60, green: 60, blue: 60)

    /// The placeholder of `size` for an image not decoded because of `reason`: the same pixels
    /// for the same size and reason.
    static func tile(size: Size, reason: String) -> Bitmap {
        var paper = Bitmap(size: size, alpha: .none, fill: Self.paper)
        let w = size.width, h = size.height
        let stripe = max(8, min(w, h) / 12)
        for y in 0..<h {
            for x in 0..<w where (x + y) % stripe < max(1, stripe / 5) {
                let at = (y * w + x) * 3
                paper.pixels[at] = hatch[0]
                paper.pixels[at + 1] = hatch[1]
                paper.pixels[at + 2] = hatch[2]
            }
        }
        let side = max(6, min(w, h) / 4)
        let mark = Rect(x: (w - side) / 2, y: max(2, h / 2 - side), width: side, height: side)
        drawMark(mark, into: &paper)
        let texts = (try? lines(reason, size: size, below: mark.maxY)) ?? []
        return CellPainter.paint(size: size, image: paper, texts: texts)
    }

    /// A framed box crossed corner to corner: a picture that is not there.
    private static func drawMark(_ box: Rect, into bitmap: inout Bitmap) {
        let thickness = max(1, box.width / 12)
        let w = bitmap.size.width, h = bitmap.size.height
        func plot(_ x: Int, _ y: Int) {
            guard x >= 0, y >= 0, x < w, y < h else { return }
            let at = (y * w + x) * 3
            bitmap.pixels[at] = ink.red
            bitmap.pixels[at + 1] = ink.green
            bitmap.pixels[at + 2] = ink.blue
        }
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX {
                let inFrame =
                    x - box.x < thickness || box.maxX - 1 - x < thickness || y - box.y < thickness
                    || box.maxY - 1 - y < thickness
                let u = x - box.x, v = y - box.y
                let onCross = abs(u - v) < thickness || abs(u + v - (box.width - 1)) < thickness
                if inFrame || onCross { plot(x, y) }
            }
        }
    }

    /// "not decoded" and the reason, wrapped to the tile's width in as many lines as fit below
    /// the mark, the last one cut with "…".
    private static func lines(_ reason: String, size: Size, below top: Int) throws -> [TextStamp] {
        let face = try FontFace(path: FontFace.defaultPath)
        let pixelSize = min(18, max(9, min(size.width, size.height) / 14))
        let inset = max(2, size.width / 20)
        let width = size.width - 2 * inset
        guard width > pixelSize else { return [] }
        let lineHeight = pixelSize * 5 / 4
        let room = (size.height - top - pixelSize / 2) / lineHeight
        guard room >= 1 else { return [] }
        var lines = ["not decoded"]
        var current = ""
        for word in reason.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if try face.measure(candidate, pixelSize: pixelSize) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count > room {
            lines = Array(lines.prefix(room))
            lines[room - 1] += " …"
        }
        var stamps: [TextStamp] = []
        for (n, line) in lines.enumerated() {
            let fitted = try face.fitting(line, width: width, pixelSize: pixelSize)
            guard !fitted.isEmpty else { continue }
            let mask = try face.render(fitted, pixelSize: pixelSize)
            let y = top + pixelSize / 2 + n * lineHeight
            let x = (size.width - mask.size.width) / 2
            stamps.append(
                TextStamp(
                    mask: mask.mask, origin: Point(x: x, y: y), color: n == 0 ? ink : text,
                    clip: Rect(x: 0, y: 0, width: size.width, height: size.height)))
        }
        return stamps
    }
}
