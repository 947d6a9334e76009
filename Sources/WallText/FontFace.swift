import CFreeType
import Synchronization
import WallCore

/// A font that cannot be opened or a glyph FreeType cannot render.
public struct TextError: WallError, Equatable {
    /// The font path.
    public var path: String
    /// What FreeType reported.
    public var reason: String

    public var message: String { "\(path): font: \(reason)" }
}

/// Coverage of a line of text: one byte a pixel, 255 = fully inside a glyph.
public struct TextMask: Sendable, Equatable {
    /// Size of the mask.
    public var size: Size
    /// Rows from the top of the mask to the baseline.
    public var baseline: Int
    /// Coverage, row after row.
    public var coverage: [UInt8]

    /// Coverage at (`x`, `y`), 0 outside the mask.
    public func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return 0 }
        return coverage[y * size.width + x]
    }
}

/// A FreeType face rendering anti-aliased text; safe to share between threads.
public final class FontFace: Sendable {
    /// The file the face was loaded from.
    public let path: String
    private let state: Mutex<FaceState>

    private struct FaceState: ~Copyable {
        var library: FT_Library
        var face: FT_Face
        deinit {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
        }
    }

    /// Where Debian's fonts-dejavu-core puts its faces.
    public static let dejaVuFolder = "/usr/share/fonts/truetype/dejavu"
    /// DejaVu Sans, the default text face.
    public static let defaultPath = "\(dejaVuFolder)/DejaVuSans.ttf"
    /// DejaVu Sans Bold.
    public static let boldPath = "\(dejaVuFolder)/DejaVuSans-Bold.ttf"

    /// Opens the font file at `path` (first face).
    public init(path: String) throws(TextError) {
        self.path = path
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw TextError(path: path, reason: "FreeType could not start")
        }
        var face: FT_Face?
        let status = FT_New_Face(library, path, 0, &face)
        guard status == 0, let face else {
            FT_Done_FreeType(library)
            throw TextError(path: path, reason: "cannot open font (FreeType error \(status))")
        }
        state = Mutex(FaceState(library: library, face: face))
    }

    /// Renders `text` on one line with its em box `pixelSize` pixels tall. Characters the face
    /// lacks are drawn with its fallback glyph.
    public func render(_ text: String, pixelSize: Int) throws(TextError) -> TextMask {
        let path = self.path
        return try state.withLock { state throws(TextError) -> TextMask in
            let face = state.face
            guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize))) == 0 else {
                throw TextError(path: path, reason: "cannot set size \(pixelSize)")
            }
            let metrics = face.pointee.size.pointee.metrics
            let ascender = Int((metrics.ascender + 63) >> 6)
            let descender = Int(metrics.descender >> 6)  // negative
            let height = max(1, ascender - descender)
            struct Placed {
                var x: Int, y: Int, width: Int, rows: Int, pixels: [UInt8]
            }
            var placed: [Placed] = []
            var pen = 0  // 26.6 fixed point
            var previous: FT_UInt = 0
            let hasKerning = (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
            for scalar in text.unicodeScalars {
                let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
                if hasKerning, previous != 0, index != 0 {
                    var delta = FT_Vector()
                    if FT_Get_Kerning(face, previous, index, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 {
                        pen += Int(delta.x)
                    }
                }
                guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER)) == 0 else {
                    throw TextError(path: path, reason: "cannot render U+\(String(scalar.value, radix: 16))")
                }
                let glyph = face.pointee.glyph.pointee
                let bitmap = glyph.bitmap
                let width = Int(bitmap.width), rows = Int(bitmap.rows)
                var pixels = [UInt8](repeating: 0, count: width * rows)
                if width > 0, rows > 0, let buffer = bitmap.buffer {
                    let pitch = Int(bitmap.pitch)
                    for row in 0..<rows {
                        for column in 0..<width {
                            pixels[row * width + column] = buffer[row * pitch + column]
                        }
                    }
                }
                placed.append(
                    Placed(
                        x: (pen >> 6) + Int(glyph.bitmap_left), y: ascender - Int(glyph.bitmap_top),
                        width: width, rows: rows, pixels: pixels))
                pen += Int(glyph.advance.x)
                previous = index
            }
            let minX = min(0, placed.map(\.x).min() ?? 0)
            let width = max(1, max((pen + 63) >> 6, placed.map { $0.x + $0.width }.max() ?? 0) - minX)
            var coverage = [UInt8](repeating: 0, count: width * height)
            for glyph in placed {
                for row in 0..<glyph.rows {
                    let y = glyph.y + row
                    guard y >= 0, y < height else { continue }
                    for column in 0..<glyph.width {
                        let x = glyph.x + column - minX
                        let value = glyph.pixels[row * glyph.width + column]
                        let at = y * width + x
                        if value > coverage[at] { coverage[at] = value }
                    }
                }
            }
            return TextMask(size: Size(width: width, height: height), baseline: ascender, coverage: coverage)
        }
    }
}
