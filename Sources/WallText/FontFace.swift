import CFreeType
import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// A font that cannot be opened or a glyph FreeType cannot render.
public struct TextError: WallError, Equatable {
    /// The font path or name.
    public var path: String
    /// What went wrong.
    public var reason: String

    /// `PATH: font: REASON`, as the command prints it.
    public var message: String { "\(path): font: \(reason)" }
}

/// A line of rasterised text and where its baseline is.
public struct TextMask: Sendable, Equatable {
    /// Anti-aliased coverage of the line.
    public var mask: CoverageMask
    /// Rows from the top of the mask to the baseline.
    public var baseline: Int

    /// Size of the mask.
    public var size: Size { mask.size }
}

/// A FreeType face rendering anti-aliased text; safe to share between threads (calls are
/// serialised), with a cache of rendered glyphs.
public final class FontFace: Sendable {
    /// The file the face was loaded from.
    public let path: String
    private let state: Locked<FaceState>

    private struct Glyph {
        var left: Int, top: Int, width: Int, rows: Int, advance: Int  // advance in 26.6
        var pixels: [UInt8]
    }

    private final class FaceState {
        let library: FT_Library
        let face: FT_Face
        var glyphs: [Int: [UInt32: Glyph]] = [:]  // pixel size → glyph index → glyph
        init(library: FT_Library, face: FT_Face) {
            self.library = library
            self.face = face
        }
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
    /// Folders searched for fonts given by name.
    public static let fontFolders = ["/usr/share/fonts", "/usr/local/share/fonts"]

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
        state = Locked(FaceState(library: library, face: face))
    }

    /// Opens a font by path, or by name ("DejaVu Sans Bold", "DejaVuSerif"): the font file
    /// under the system font folders whose name matches, ignoring case, spaces and dashes.
    public convenience init(named nameOrPath: String) throws(TextError) {
        if nameOrPath.contains("/") {
            try self.init(path: nameOrPath)
            return
        }
        guard let path = FontFace.find(nameOrPath) else {
            throw TextError(
                path: nameOrPath, reason: "no font of that name under \(FontFace.fontFolders.joined(separator: ", "))")
        }
        try self.init(path: path)
    }

    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The font file under `fontFolders` whose name matches `name`.
    static func find(_ name: String) -> String? {
        let wanted = normalized(name)
        var matches: [String] = []
        func walk(_ folder: String, depth: Int) {
            guard depth < 6, let entries = directoryEntries(at: folder) else { return }
            for entry in entries where !entry.name.hasPrefix(".") {
                let entryName = entry.name
                let path = folder + "/" + entryName
                if entry.isDirectory {
                    walk(path, depth: depth + 1)
                } else if let dot = entryName.lastIndex(of: "."),
                    ["ttf", "otf", "ttc"].contains(entryName[entryName.index(after: dot)...].lowercased()),
                    normalized(String(entryName[..<dot])) == wanted
                {
                    matches.append(path)
                }
            }
        }
        for folder in fontFolders { walk(folder, depth: 0) }
        return matches.sorted().first
    }

    /// Renders `text` on one line with its em box `pixelSize` pixels tall. Characters the face
    /// lacks are drawn with its fallback glyph (a box).
    public func render(_ text: String, pixelSize: Int) throws(TextError) -> TextMask {
        try withGlyphs(text, pixelSize: pixelSize) { glyphs, ascender, descender in
            let height = max(1, ascender - descender)
            var pen = 0
            var placed: [(x: Int, glyph: Glyph)] = []
            for glyph in glyphs {
                placed.append(((pen >> 6) + glyph.left, glyph))
                pen += glyph.advance
            }
            let minX = min(0, placed.map(\.x).min() ?? 0)
            let width = max(1, max((pen + 63) >> 6, placed.map { $0.x + $0.glyph.width }.max() ?? 0) - minX)
            var coverage = [UInt8](repeating: 0, count: width * height)
            for (x0, glyph) in placed {
                for row in 0..<glyph.rows {
                    let y = ascender - glyph.top + row
                    guard y >= 0, y < height else { continue }
                    for column in 0..<glyph.width {
                        let value = glyph.pixels[row * glyph.width + column]
                        let at = y * width + x0 + column - minX
                        if value > coverage[at] { coverage[at] = value }
                    }
                }
            }
            return TextMask(
                mask: CoverageMask(size: Size(width: width, height: height), coverage: coverage), baseline: ascender)
        }
    }

    /// The advance width of `text` in pixels, without rasterising a line.
    public func measure(_ text: String, pixelSize: Int) throws(TextError) -> Int {
        try withGlyphs(text, pixelSize: pixelSize) { glyphs, _, _ in (glyphs.reduce(0) { $0 + $1.advance } + 63) >> 6 }
    }

    /// `text`, or its longest prefix followed by "…", that is at most `width` pixels wide.
    public func fitting(_ text: String, width: Int, pixelSize: Int) throws(TextError) -> String {
        if try measure(text, pixelSize: pixelSize) <= width { return text }
        let characters = Array(text)
        var low = 0, high = characters.count  // longest prefix that fits, by bisection
        while low < high {
            let mid = (low + high + 1) / 2
            if try measure(String(characters[..<mid]) + "…", pixelSize: pixelSize) <= width {
                low = mid
            } else {
                high = mid - 1
            }
        }
        if low == 0 { return try measure("…", pixelSize: pixelSize) <= width ? "…" : "" }
        return String(characters[..<low]).trimmingTrailingSpaces() + "…"
    }

    private func withGlyphs<T>(
        _ text: String, pixelSize: Int, _ body: ([Glyph], _ ascender: Int, _ descender: Int) -> T
    ) throws(TextError) -> T {
        let path = self.path
        return try state.withLock { state throws(TextError) -> T in
            let face = state.face
            let size = max(1, pixelSize)
            guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(size)) == 0 else {
                throw TextError(path: path, reason: "cannot set size \(pixelSize)")
            }
            let metrics = face.pointee.size.pointee.metrics
            let ascender = Int((metrics.ascender + 63) >> 6)
            let descender = Int(metrics.descender >> 6)
            let hasKerning = (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
            var glyphs: [Glyph] = []
            var previous: FT_UInt = 0
            for scalar in text.unicodeScalars {
                let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
                var glyph: Glyph
                if let cached = state.glyphs[size]?[index] {
                    glyph = cached
                } else {
                    guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER)) == 0 else {
                        throw TextError(path: path, reason: "cannot render U+\(String(scalar.value, radix: 16))")
                    }
                    let slot = face.pointee.glyph.pointee
                    let bitmap = slot.bitmap
                    let width = Int(bitmap.width), rows = Int(bitmap.rows)
                    var pixels = [UInt8](repeating: 0, count: width * rows)
                    if width > 0, rows > 0, let buffer = bitmap.buffer {
                        let pitch = Int(bitmap.pitch)
                        for row in 0..<rows {
                            for column in 0..<width { pixels[row * width + column] = buffer[row * pitch + column] }
                        }
                    }
                    glyph = Glyph(
                        left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), width: width, rows: rows,
                        advance: Int(slot.advance.x), pixels: pixels)
                    state.glyphs[size, default: [:]][index] = glyph
                }
                if hasKerning, previous != 0, index != 0 {
                    var delta = FT_Vector()
                    if FT_Get_Kerning(face, previous, index, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0,
                        let last = glyphs.indices.last
                    {
                        glyphs[last].advance += Int(delta.x)
                    }
                }
                glyphs.append(glyph)
                previous = index
            }
            return body(glyphs, ascender, descender)
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
