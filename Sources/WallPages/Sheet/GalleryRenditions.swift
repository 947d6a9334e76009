import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// JPEG renditions, beside a gallery page, of the originals a browser cannot show (HEIF, TIFF,
/// JPEG XL, RAW files, videos — a video by its poster frame): each decoded as a render decodes
/// it (oriented, in sRGB, a RAW file from its preview), at most ``longSide`` px on its long
/// side, flattened on white (see ``RenditionWriter``). The page shows the rendition and links the
/// original one click further.
public enum GalleryRenditions {
    /// The long side of a rendition, in pixels.
    public static let longSide = 2048

    /// Formats every browser shows as they are.
    static let shownAsIs: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif]

    /// The folder of the files `page` shows beside it: `index.html` → `index_files`.
    static func filesFolder(of page: String) -> String {
        (page.hasSuffix(".html") ? String(page.dropLast(5)) : page) + "_files"
    }

    /// The folder of `page`'s renditions: `index.html` → `index_files/renditions`.
    public static func folder(of page: String) -> String { filesFolder(of: page) + "/renditions" }

    /// Writes the renditions `manifests`' tiles (and the other pictures of their stacks) need
    /// beside `page`, on `threads` threads (into
    /// `staging`, the page's files folder being written, when given); returns each
    /// rendition's path in its place by its source. A source that cannot be read gets none (its
    /// link stays the original), said in `warnings`; a rendition that cannot be written (a full
    /// disk) is an error.
    public static func write(for manifests: [Manifest], page: String, threads: Int, into staging: String? = nil)
        throws -> (renditions: [String: String], warnings: [String])
    {
        var seen: Set<String> = []
        var sources: [(prefix: String, path: String)] = []
        for manifest in manifests {
            for tile in manifest.tiles where tile.placeholder == nil {
                if seen.insert(tile.source).inserted { sources.append(("\(tile.index)", tile.source)) }
                for (m, member) in (tile.stack?.members ?? []).enumerated() where seen.insert(member).inserted {
                    // "3.2-name": never a tile's own "3-name", whatever the names.
                    sources.append(("\(tile.index).\(m + 1)", member))
                }
            }
        }
        let folder = folder(of: page)
        let target = staging.map { $0 + "/renditions" } ?? folder
        let wanted = sources
        let writer = RenditionWriter(quality: 85, optimizedTables: true)
        let made = try parallelMap(wanted.count, threads: threads) { k -> Result<String?, CodecError> in
            let (prefix, source) = wanted[k]
            return Result { () throws(CodecError) -> String? in
                let info = try ImageProbe().probe(path: source)
                guard !shownAsIs.contains(info.format) else { return nil }
                let shown = info.displayedSize
                let scale = min(1, Double(longSide) / Double(max(shown.width, shown.height)))
                let size = Size(
                    width: max(1, Int((Double(shown.width) * scale).rounded())),
                    height: max(1, Int((Double(shown.height) * scale).rounded())))
                let decoded = try ImageDecoder().decode(path: source, info: info, target: size)
                guard decoded.bitmap.size.width > 0, decoded.bitmap.size.height > 0 else {
                    throw CodecError(.decode, path: source, reason: "no pixels decoded")
                }
                let pixels = decoded.bitmap.alpha == .straight ? Alpha.premultiplied(decoded.bitmap) : decoded.bitmap
                let name = "\(prefix)-\(FilePaths.stem(of: source)).jpg"
                try writer.write(Resampler.resize(pixels, to: size), to: "\(target)/\(name)")
                return "\(folder)/\(name)"
            }
        }
        var renditions: [String: String] = [:]
        var warnings: [String] = []
        for (k, result) in made.enumerated() {
            switch result {
            case .success(let path?): renditions[sources[k].path] = path
            case .success(nil): break
            case .failure(let error) where error.stage == .write: throw error  // the page cannot be whole
            case .failure(let error): warnings.append("\(sources[k].path): no rendition for the page: \(error.reason)")
            }
        }
        return (renditions, warnings)
    }

    /// The folder of `page`'s copies of its sheets: `index.html` → `index_files/sheets`.
    public static func sheetsFolder(of page: String) -> String { filesFolder(of: page) + "/sheets" }

    /// A JPEG copy, for `page`, of each PNG sheet page of `manifests` (quality 85, transparent
    /// pixels over the page's dark background), streamed row by row from the PNG: the page
    /// sends a tenth of the bytes while the PNG stays the fixture. A sheet not yet in place is
    /// read from where `written` says it is; the copies go into `staging` (the page's files
    /// folder being written) when given. Returns each copy's path in its place by its sheet; a
    /// sheet taller than JPEG allows (65,535 px) is shown as it is.
    public static func jpegCopies(
        of manifests: [Manifest], page: String, written: [String: String] = [:], into staging: String? = nil
    ) throws -> [String: String] {
        var copies: [String: String] = [:]
        let shown = sheetsFolder(of: page)
        let folder = staging.map { $0 + "/sheets" } ?? shown
        for manifest in manifests {
            for sheet in manifest.pages {
                guard let file = sheet.file, file.lowercased().hasSuffix(".png"), copies[file] == nil,
                    sheet.width <= 65535, sheet.height <= 65535
                else { continue }
                try Folders.make(folder)
                // Numbered: two sheets of one name in different folders get copies of their own.
                let name = "\(copies.count + 1)-\(FilePaths.stem(of: file)).jpg"
                try jpegCopy(
                    of: written[file] ?? file, size: Size(width: sheet.width, height: sheet.height),
                    to: "\(folder)/\(name)")
                copies[file] = "\(shown)/\(name)"
            }
        }
        return copies
    }

    /// The page's background, under a transparent sheet's copy.
    static let pageBackground = (r: 0x18, g: 0x19, b: 0x1C)

    private static func jpegCopy(of png: String, size: Size, to path: String) throws {
        guard let input = fopen(png.systemPath, "rb") else {
            throw CodecError(.decode, path: png, reason: systemErrorText())
        }
        defer { fclose(input) }
        let file = try AtomicFile(destination: path, durable: false)
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 85
        options.optimizedTables = false
        // A copy of a sheet is ImageWall's own output: marked as the sheets are, left out of a render.
        options.app1 = ExifWriter.app1(software: ImageWallRelease.software)
        let writer = try JPEGStreamWriter(file: file, size: size, options: options)
        var rgb = [UInt8](repeating: 0, count: size.width * 3)
        let rows = try PNGRowStream(name: png) { row in
            if row.count == rgb.count {
                try rgb.withUnsafeBufferPointer { try writer.write(rows: $0, count: 1) }
                return
            }
            // RGBA over the page's background.
            let background = [pageBackground.r, pageBackground.g, pageBackground.b]
            for x in 0..<size.width {
                let alpha = Int(row[x * 4 + 3])
                for c in 0..<3 {
                    rgb[x * 3 + c] = UInt8((Int(row[x * 4 + c]) * alpha + background[c] * (255 - alpha) + 127) / 255)
                }
            }
            try rgb.withUnsafeBufferPointer { try writer.write(rows: $0, count: 1) }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, input) }
            if got == 0 { break }
            try rows.feed(Array(chunk[0..<got]))
        }
        try writer.finish()
        try file.commit()
    }
}
