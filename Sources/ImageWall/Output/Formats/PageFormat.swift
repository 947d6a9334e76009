import WallCodecs
import WallCore

/// How each page of a sheet is written: the output formats, decided once (from the output's
/// name, or a choice given with it) and asked by every layer that writes, names or reads pages.
///
/// What each format can hold and how its pages are written is its `PageSaver`, one file a
/// format beside this one, found through `saver`: adding an output format is a case here
/// (and its saver in `saver`) and that file.
public enum PageFormat: String, Sendable, CaseIterable, Codable {
    /// One PNG a page, streamed band by band (the default, and the format of fixtures).
    case png
    /// One baseline JPEG a page, streamed band by band (to send: a seventh of the PNG or less).
    case jpeg
    /// One lossy WebP a page (libwebp encodes a whole picture: the page is held whole).
    case webp
    /// One PDF of all the pages, for print: each page one sheet of paper (see ``Paper``), its
    /// picture a JPEG (or lossless), a header and a footer.
    case pdf
    /// A Deep Zoom pyramid a page: `NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.png`.
    case deepZoom = "dzi"

    /// The format's usual name, for messages.
    public var name: String { saver.name }

    /// The extension of the file a page is written to (lowercase, without the dot).
    public var fileExtension: String { saver.fileExtensions[0] }

    /// The files of a sheet of `count` pages written to `output`: one a page (see
    /// ``OutputNaming/pages(for:count:)``), or for a document of every page its one file.
    public func pageFiles(for output: String, count: Int) -> [String] {
        saver.holdsAllPages ? Array(repeating: output, count: count) : OutputNaming.pages(for: output, count: count)
    }

    /// Every extension that names this format ("jpg" and "jpeg").
    var fileExtensions: [String] { saver.fileExtensions }

    /// Whether a page in this format must fit ``RunLimits/maxSheetPixels``: a pyramid is
    /// written tile by tile for walls of any size, other pages are one image a viewer opens whole.
    public var isPixelCapped: Bool { saver.isPixelCapped }

    /// Whether a page in this format holds exactly the pixels painted, so that parts assemble
    /// into it byte for byte: PNG and Deep Zoom (its top level is the PNG's pixels).
    public var isLossless: Bool { saver.isLossless }

    /// Refuses pages this format cannot hold: alpha where it has none (JPEG, PDF), sides past
    /// its largest (JPEG 65,535 px, WebP 16,383).
    public func check(pages: [Size], opaque: Bool, output: String) throws(PageFormatError) {
        if !opaque, let refusal = saver.alphaRefusal { throw PageFormatError(path: output, reason: refusal) }
        guard let side = saver.largestSide else { return }
        for page in pages where page.width > side || page.height > side {
            let cure = page.width > side ? "a smaller --width" : "--max-height \(side) (pages)"
            throw PageFormatError(
                path: output,
                reason: "\(name) holds at most \(side) px a side, and a page is \(page.width)x\(page.height): \(cure)")
        }
    }

    /// Every format as `--format` names it and what it is for: "png (one PNG a page, …), …, or
    /// dzi (…)", for help.
    public static var purposes: String {
        let items = allCases.map { "\($0.rawValue) (\($0.saver.purpose))" }
        return items.dropLast().joined(separator: ", ") + ", or " + items[items.count - 1]
    }

    /// "PNG (.png) and Deep Zoom (.dzi)": every format ImageWall writes, for messages.
    public static var names: String { names(joinedBy: "and") }

    /// Every format ImageWall writes and its extension, the last two joined by `word` ("PNG
    /// (.png), …, PDF (.pdf) or Deep Zoom (.dzi)").
    public static func names(joinedBy word: String) -> String {
        let names = allCases.map { "\($0.name) (.\($0.fileExtension))" }
        return names.dropLast().joined(separator: ", ") + " \(word) " + names[names.count - 1]
    }

    /// The format the name of `path` asks for: by its extension, and PNG when the extension is
    /// none ImageWall writes or reads ("sheet", "sheet.v2"). A path whose extension names
    /// an image format ImageWall does not write ("sheet.jpg") is refused.
    public init(path: String) throws(PageFormatError) {
        guard let ext = FileSignature.fileExtension(of: path) else {
            self = .png
            return
        }
        if let format = PageFormat.allCases.first(where: { $0.fileExtensions.contains(ext) }) {
            self = format
        } else if let other = Self.otherImageFormat(ext) {
            throw PageFormatError(path: path, named: other)
        } else {
            self = .png
        }
    }

    /// The output and its format from the path given and, when given, the format asked for:
    /// a pyramid's path gains `.dzi` when it has no such extension ("wall" becomes
    /// "wall.dzi"); a path whose extension names another format is refused.
    public static func resolve(output: String, format: PageFormat?) throws(PageFormatError) -> (
        path: String, format: PageFormat
    ) {
        let named = try PageFormat(path: output)
        guard let format, format != named else { return (output, named) }
        if let ext = FileSignature.fileExtension(of: output), named.fileExtensions.contains(ext) {
            throw PageFormatError(path: output, named: named.name, asked: format)
        }
        return (format == .png ? output : output + "." + format.fileExtension, format)
    }

    /// `path` without this format's extension: "wall.dzi" is "wall".
    public func stem(of path: String) -> String {
        for suffix in fileExtensions.map({ "." + $0 }) where path.lowercased().hasSuffix(suffix) {
            return String(path.dropLast(suffix.count))
        }
        return path
    }

    /// The name of the image format files with extension `ext` hold, when it is one.
    static func otherImageFormat(_ ext: String) -> String? {
        if let format = ImageFormat.allCases.first(where: { $0.extensions.contains(ext) }) { return format.name }
        return UnreadFormat.formatName(forExtension: ext)
    }
}

extension PageFormat {
    /// The writer of pages in this format: the one place a format finds its saver.
    package var saver: any PageSaver.Type {
        switch self {
        case .png: return PNGPageSaver.self
        case .jpeg: return JPEGPageSaver.self
        case .webp: return WebPPageSaver.self
        case .pdf: return PDFPageSaver.self
        case .deepZoom: return DeepZoomPageSaver.self
        }
    }
}

/// An output path whose name asks for a format ImageWall does not write, or another one than
/// the format asked for, or a format that cannot hold the pages (see ``kind``).
public struct PageFormatError: WallError, Equatable {
    /// The output path.
    public var path: String
    /// The format its name asks for.
    public var named: String
    /// The format asked for besides, if any.
    public var asked: PageFormat?
    /// What the format cannot hold, when that is the error.
    public var reason: String?

    /// The error for `path`, named as `named`, against the format `asked`.
    public init(path: String, named: String, asked: PageFormat? = nil) {
        self.path = path
        self.named = named
        self.asked = asked
    }

    /// The error for `path`, whose format cannot hold its pages: `reason` says why.
    public init(path: String, reason: String) {
        self.path = path
        self.named = ""
        self.reason = reason
    }

    /// The kinds of ``PageFormatError``.
    public enum Kind: Sendable, Hashable {
        /// The name asks for a format ImageWall does not write.
        case unknownFormat
        /// The name asks for another format than the one asked for.
        case otherThanAsked
        /// The format cannot hold the pages (alpha, or their size).
        case cannotHold
    }

    /// What kind of refusal this is.
    public var kind: Kind { reason != nil ? .cannotHold : asked != nil ? .otherThanAsked : .unknownFormat }

    /// What is wrong, naming the path and the formats ImageWall writes.
    public var message: String {
        if let reason { return "\(path): \(reason)" }
        if let asked {
            return "\(path): the name asks for \(named), not the \(asked.name) asked for"
        }
        return "\(path): ImageWall writes \(PageFormat.names) pages, not \(named)"
    }
}
