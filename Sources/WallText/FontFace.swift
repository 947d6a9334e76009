import CTextShim
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

/// A font rendering anti-aliased lines of text: a primary face, and for the characters it
/// lacks the faces fontconfig ranks after it (a CJK, an emoji, a Devanagari font), each run of
/// one face and one script shaped by HarfBuzz (Arabic joins, Devanagari reorders) and the
/// runs set in visual order (right-to-left runs reversed in a left-to-right line). Safe to
/// share between threads (calls are serialised), with a cache of rendered glyphs.
public final class FontFace: Sendable {
    /// The file the primary face was loaded from.
    public let path: String
    private let state: Locked<FaceState>

    fileprivate struct Glyph {
        var left: Int, top: Int, width: Int, rows: Int
        /// Coverage, one byte a pixel.
        var pixels: [UInt8]
        /// A colour glyph's premultiplied RGBA, whose alpha is its coverage.
        var color: [UInt8]?
    }

    private struct GlyphKey: Hashable {
        var face: Int32, size: Int, index: UInt32
    }

    private final class FaceState {
        let text: OpaquePointer
        var glyphs: [GlyphKey: Glyph] = [:]
        init(text: OpaquePointer) { self.text = text }
        deinit { iw_text_close(text) }
    }

    /// One glyph of a shaped line: the font file it comes from, its index in that font (0 is
    /// the font's missing-glyph box), and its origin in pixels from the line's start.
    public struct ShapedGlyph: Sendable, Equatable {
        /// The font file.
        public var font: String
        /// The glyph's index in the font.
        public var index: UInt32
        /// Where its origin is along the line, in pixels.
        public var x: Double
    }

    /// Where Debian's fonts-dejavu-core puts its faces.
    public static let dejaVuFolder = "/usr/share/fonts/truetype/dejavu"
    /// DejaVu Sans, the default text face.
    public static let defaultPath = "\(dejaVuFolder)/DejaVuSans.ttf"
    /// DejaVu Sans Bold.
    public static let boldPath = "\(dejaVuFolder)/DejaVuSans-Bold.ttf"
    /// Folders searched for fonts given by a file name.
    public static let fontFolders = ["/usr/share/fonts", "/usr/local/share/fonts"]

    /// Opens face `index` of the font file at `path`.
    public init(path: String, index: Int = 0) throws(TextError) {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard let text = iw_text_open(path.systemPath, Int32(index), &message, message.count) else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw TextError(path: path, reason: reason)
        }
        state = Locked(FaceState(text: text))
    }

    /// Opens a font by path; by family name as fontconfig knows it ("Liberation Sans",
    /// "DejaVu Serif:bold"); or by file name under the system font folders ("DejaVuSans-Bold",
    /// "DejaVu Sans Bold"), ignoring case, spaces and dashes.
    public convenience init(named nameOrPath: String) throws(TextError) {
        if nameOrPath.contains("/") {
            try self.init(path: nameOrPath)
            return
        }
        var found = [CChar](repeating: 0, count: 4096)
        var index: Int32 = 0
        if iw_text_find_family(nameOrPath, &found, found.count, &index) == 1 {
            let path = String(decoding: found.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            try self.init(path: path, index: Int(index))
            return
        }
        guard let path = FontFace.find(nameOrPath) else {
            throw TextError(
                path: nameOrPath,
                reason: "no font family of that name (fc-list : family lists them) and no font file of that name under "
                    + FontFace.fontFolders.joined(separator: ", "))
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

    /// Renders `text` on one line with its em box `pixelSize` pixels tall. Characters no
    /// installed font has are drawn with the primary face's missing-glyph box.
    public func render(_ text: String, pixelSize: Int) throws(TextError) -> TextMask {
        try withLine(text, pixelSize: pixelSize) { glyphs, advance, ascender, descender in
            let height = max(1, ascender - descender)
            let placed = glyphs.map {
                (x: Int($0.x >> 6) + $0.glyph.left, y: ascender - $0.glyph.top - Int($0.y >> 6), glyph: $0.glyph)
            }
            let minX = min(0, placed.map(\.x).min() ?? 0)
            let width = max(1, max(Int((advance + 63) >> 6), placed.map { $0.x + $0.glyph.width }.max() ?? 0) - minX)
            var coverage = [UInt8](repeating: 0, count: width * height)
            var paint: [UInt8]? =
                placed.contains { $0.glyph.color != nil } ? [UInt8](repeating: 0, count: width * height * 4) : nil
            for (x0, y0, glyph) in placed {
                for row in 0..<glyph.rows {
                    let y = y0 + row
                    guard y >= 0, y < height else { continue }
                    for column in 0..<glyph.width {
                        let value = glyph.pixels[row * glyph.width + column]
                        let at = y * width + x0 + column - minX
                        if value > coverage[at] { coverage[at] = value }
                        if let color = glyph.color, value > 0 {
                            // Laid over what is there (a glyph before it that overlaps).
                            let from = (row * glyph.width + column) * 4, keep = 255 - Int(value)
                            for c in 0..<4 {
                                let under = Int(paint![at * 4 + c])
                                paint![at * 4 + c] = UInt8(min(255, Int(color[from + c]) + (under * keep + 127) / 255))
                            }
                        }
                    }
                }
            }
            var mask = CoverageMask(size: Size(width: width, height: height), coverage: coverage)
            mask.paint = paint
            return TextMask(mask: mask, baseline: ascender)
        }
    }

    /// The advance width of `text` in pixels, without rasterising a line.
    public func measure(_ text: String, pixelSize: Int) throws(TextError) -> Int {
        let (_, advance) = try shapeLocked(text, pixelSize: pixelSize)
        return Int((advance + 63) >> 6)
    }

    /// The glyphs `text` is drawn with at `pixelSize`, in visual order.
    public func shape(_ text: String, pixelSize: Int) throws(TextError) -> [ShapedGlyph] {
        let (glyphs, _) = try shapeLocked(text, pixelSize: pixelSize)
        return state.withLock { state in
            glyphs.map {
                ShapedGlyph(
                    font: String(cString: iw_text_face_path(state.text, $0.face)), index: $0.index,
                    x: Double($0.x) / 64)
            }
        }
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

    private func shapeLocked(_ text: String, pixelSize: Int) throws(TextError) -> ([iw_glyph], Int) {
        let path = self.path
        return try state.withLock { state throws(TextError) in
            try FontFace.shape(text, pixelSize: max(1, pixelSize), in: state.text, path: path)
        }
    }

    /// Shapes `text` (the caller holds the lock): its glyphs and its advance in 26.6 pixels.
    private static func shape(_ text: String, pixelSize: Int, in handle: OpaquePointer, path: String)
        throws(TextError) -> ([iw_glyph], Int)
    {
        let points = text.displayed.unicodeScalars.map(\.value)  // a byte of a name as U+FFFD
        var glyphs = [iw_glyph](repeating: iw_glyph(), count: max(1, points.count + 8))
        var advance = 0
        while true {
            let count = iw_text_shape(
                handle, points, Int32(points.count), Int32(pixelSize), &glyphs, Int32(glyphs.count), &advance)
            guard count >= 0 else { throw TextError(path: path, reason: "cannot set size \(pixelSize)") }
            if Int(count) <= glyphs.count { return (Array(glyphs.prefix(Int(count))), advance) }
            glyphs = [iw_glyph](repeating: iw_glyph(), count: Int(count))
        }
    }

    private func withLine<T>(
        _ text: String, pixelSize: Int,
        _ body: ([(glyph: Glyph, x: Int, y: Int)], _ advance: Int, _ ascender: Int, _ descender: Int) -> T
    ) throws(TextError) -> T {
        let path = self.path
        return try state.withLock { state throws(TextError) -> T in
            let size = max(1, pixelSize)
            let (shaped, advance) = try FontFace.shape(text, pixelSize: size, in: state.text, path: path)
            // The line is as tall as the tallest face it uses; the primary face at least.
            var ascender: Int32 = 0, descender: Int32 = 0
            guard iw_text_metrics(state.text, 0, Int32(size), &ascender, &descender) == 0 else {
                throw TextError(path: path, reason: "cannot set size \(pixelSize)")
            }
            for face in Set(shaped.map(\.face)) where face != 0 {
                var a: Int32 = 0, d: Int32 = 0
                if iw_text_metrics(state.text, face, Int32(size), &a, &d) == 0 {
                    ascender = max(ascender, a)
                    descender = min(descender, d)
                }
            }
            var glyphs: [(glyph: Glyph, x: Int, y: Int)] = []
            for item in shaped {
                let key = GlyphKey(face: item.face, size: size, index: item.index)
                if let cached = state.glyphs[key] {
                    glyphs.append((cached, item.x, item.y))
                    continue
                }
                if iw_text_is_color(state.text, item.face) != 0 {
                    let glyph = try FontFace.colorGlyph(item, size: size, in: state.text, path: path, text: text)
                    state.glyphs[key] = glyph
                    glyphs.append((glyph, item.x, item.y))
                    continue
                }
                var rows: UnsafePointer<UInt8>?
                var pitch: Int32 = 0, width: Int32 = 0, height: Int32 = 0, left: Int32 = 0, top: Int32 = 0
                var mono: Int32 = 0
                guard
                    iw_text_render(
                        state.text, item.face, item.index, Int32(size), &rows, &pitch, &width, &height, &left, &top,
                        &mono) == 0
                else {
                    throw TextError(path: path, reason: "cannot render glyph \(item.index) of \(text.debugDescription)")
                }
                let w = Int(width), h = Int(height)
                var pixels = [UInt8](repeating: 0, count: w * h)
                if w > 0, h > 0, let rows {
                    for row in 0..<h {
                        let line = rows + row * Int(pitch)
                        for column in 0..<w {
                            pixels[row * w + column] =
                                mono != 0 ? ((line[column >> 3] >> (7 - UInt8(column & 7))) & 1) * 255 : line[column]
                        }
                    }
                }
                let glyph = Glyph(left: Int(left), top: Int(top), width: w, rows: h, pixels: pixels)
                state.glyphs[key] = glyph
                glyphs.append((glyph, item.x, item.y))
            }
            return body(glyphs, advance, Int(ascender), Int(descender))
        }
    }
}

extension FontFace {
    /// Glyph `item` of a colour face at `size`: its pixels (premultiplied RGBA) and their
    /// alpha as its coverage.
    fileprivate static func colorGlyph(
        _ item: iw_glyph, size: Int, in handle: OpaquePointer, path: String, text: String
    ) throws(TextError) -> Glyph {
        var rgba: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, left: Int32 = 0, top: Int32 = 0
        guard
            iw_text_render_color(handle, item.face, item.index, Int32(size), &rgba, &width, &height, &left, &top)
                == 0
        else {
            throw TextError(path: path, reason: "cannot render glyph \(item.index) of \(text.debugDescription)")
        }
        defer { free(rgba) }
        let count = Int(width) * Int(height)
        let color = rgba.map { Array(UnsafeBufferPointer(start: $0, count: count * 4)) } ?? []
        let alpha = (0..<(color.isEmpty ? 0 : count)).map { color[$0 * 4 + 3] }
        return Glyph(
            left: Int(left), top: Int(top), width: color.isEmpty ? 0 : Int(width),
            rows: color.isEmpty ? 0 : Int(height), pixels: alpha, color: color.isEmpty ? nil : color)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
