import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallFiles

/// The JPEG renditions of a picture its pages show: a cover's (500 px on the long side), the
/// picture page's (1000 px) and its double for high-density screens (2000 px), none larger than
/// the picture, upright, in sRGB (a RAW file from its preview, a video from its frame),
/// flattened on white; each one half the next is that one halved (a 2 × 2 mean), the others
/// resampled as sheets are. They are made from the one decode of the picture that its sheets are
/// drawn from (the render's ``ImageWall/TileSettings/decodeFloor``), or, when the sheets came
/// from the cache, from a decode with the same plan: the same bytes either way. They are named
/// by the picture's content and the settings that shape them, so a picture moved, renamed or
/// copied elsewhere in the tree keeps its renditions.
struct PictureRenditions: Sendable {
    /// The decoder sheets are drawn with.
    var decoder: ImageDecoder
    var quality: Int
    var site: String

    /// The long sides of the renditions, in pixels: a cover's, a picture page's (1x) and its
    /// double (2x).
    static let sides = [500, 1000, 2000]

    /// ``sides`` as the renditions' key writes them, made once (an array's description casts
    /// each element at run time).
    static let sidesText = sides.description

    /// The long side of the rendition a picture's page shows at 1x.
    static let pageSide = 1000

    /// The decode floor that gives renditions up to the largest side: that side, less the
    /// decoder's margin (it decodes to `margin` times the size it is asked for).
    var floor: Int { PictureRenditions.sides.max()! / decoder.margin }

    /// The sides made for a picture whose long side is `long` px: those of ``sides`` below it,
    /// and the picture's own size in place of the ones above.
    static func sides(long: Int) -> [Int] {
        let below = sides.filter { $0 < long }
        return below.count < sides.count ? below + [max(1, long)] : below
    }

    /// The name the renditions of the picture whose content is `content` share.
    func key(content: String) -> String {
        SitePaths.digest(["renditions 2", content, String(quality), PictureRenditions.sidesText])
    }

    /// The size a picture shown `shown` is decoded for: brought to ``floor`` on its long side,
    /// never above its own size (as the render decodes under the floor).
    func floorTarget(_ shown: Size) -> Size {
        let long = max(shown.width, shown.height, 1)
        return floor < long ? PictureRenditions.fitted(shown, side: floor) : shown
    }

    /// Whether a decode the render made for `decodedFor` is the one renditions are made from.
    func isFloorDecode(_ info: ImageInfo, decodedFor: Size) -> Bool {
        decoder.decodePlan(info: info, target: decodedFor)
            == decoder.decodePlan(info: info, target: floorTarget(info.displayedSize))
    }

    /// The files of the renditions at `sides` named after `key`, relative to the site.
    static func files(_ key: String, sides: [Int]) -> [String] {
        sides.map { SitePaths.rendition(key, side: $0) }
    }

    /// Whether every rendition is in the site.
    func exist(_ key: String, sides: [Int]) -> Bool {
        PictureRenditions.files(key, sides: sides).allSatisfy { Folders.exists(site + "/" + $0) }
    }

    /// Writes the renditions at `sides` of `decoded`, the picture shown `shown`, named after
    /// `key`; a `.write` error when one cannot be written. Returns the decode halved
    /// (premultiplied) when a rendition is that, for the tiles to start from.
    @discardableResult
    func write(_ decoded: DecodedImage, shown: Size, sides: [Int], key: String) throws(CodecError) -> Bitmap? {
        let pixels = decoded.bitmap.alpha == .straight ? Alpha.premultiplied(decoded.bitmap) : decoded.bitmap
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = quality
        options.optimizedTables = false
        // Largest first. A rendition half the size of the one above is halved from it, its rows
        // made as the rows above are written (while they are still in the processor's cache);
        // any other is resampled from the whole one above (from the decode for the largest).
        let levels = sides.sorted(by: >).map { (side: $0, size: PictureRenditions.fitted(shown, side: $0)) }
        var above = pixels
        var first = 0
        var halvedDecode: Bitmap?
        while first < levels.count {
            let size = levels[first].size
            var top = above
            if top.size != size {
                top =
                    PictureRenditions.half(of: top.size) == size
                    ? Resampler.halved(top) : Resampler.resize(top, to: size)
            }
            var last = first + 1
            while last < levels.count && levels[last].size == PictureRenditions.half(of: levels[last - 1].size) {
                last += 1
            }
            let run = try writeHalving(from: top, sides: levels[first..<last].map(\.side), key: key, options: options)
            if top.size == pixels.size && run.count > 1 { halvedDecode = run[1] }
            above = run.last!
            first = last
        }
        return halvedDecode
    }

    /// Writes `top` as the rendition at the first of `sides` and each next one as the one above
    /// it halved, a band of rows at a time; returns them, `top` first.
    private func writeHalving(from top: Bitmap, sides: [Int], key: String, options: JPEGEncodeOptions)
        throws(CodecError) -> [Bitmap]
    {
        var images = [top]
        for _ in sides.dropFirst() {
            images.append(Bitmap(size: PictureRenditions.half(of: images.last!.size), alpha: top.alpha))
        }
        var files: [AtomicFile] = []
        var writers: [JPEGStreamWriter] = []
        for (side, image) in zip(sides, images) {
            let path = site + "/" + SitePaths.rendition(key, side: side)
            let file: AtomicFile
            do {
                try PictureRenditions.makeFolder(of: path)
                file = try AtomicFile(destination: path, durable: false)
            } catch {
                throw CodecError(error)
            }
            files.append(file)
            writers.append(try JPEGStreamWriter(file: file, size: image.size, options: options))
        }
        // Rows written of each; the first's come 16 at a time, each next one's as soon as the
        // two rows above them are written (the last odd row alone, once it is).
        var written = [Int](repeating: 0, count: images.count)
        while written[0] < top.size.height {
            let count = min(16, top.size.height - written[0])
            try PictureRenditions.write(rows: written[0]..<written[0] + count, of: top, to: writers[0])
            written[0] += count
            for level in images.indices.dropFirst() {
                let above = images[level - 1]
                let done = written[level - 1] == above.size.height
                var end = written[level]
                while end < images[level].size.height && (2 * end + 1 < written[level - 1] || done) { end += 1 }
                guard end > written[level] else { break }
                let rows = written[level]..<end
                let rowBytes = images[level].rowBytes
                images[level].pixels.withUnsafeMutableBufferPointer { out in
                    Resampler.halve(above, rows: rows, into: out.baseAddress! + rows.lowerBound * rowBytes)
                }
                try PictureRenditions.write(rows: rows, of: images[level], to: writers[level])
                written[level] = end
            }
        }
        for writer in writers { try writer.finish() }
        for file in files {
            do { try file.commit() } catch { throw CodecError(error) }
        }
        return images
    }

    /// Rows `rows` of `image` to `writer`, flattened on white.
    private static func write(rows: Range<Int>, of image: Bitmap, to writer: JPEGStreamWriter) throws(CodecError) {
        let rowBytes = image.rowBytes
        if image.alpha == .none {
            try image.pixels.withUnsafeBufferPointer { pixels throws(CodecError) in
                try writer.write(
                    rows: UnsafeBufferPointer(
                        rebasing: pixels[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes]),
                    count: rows.count)
            }
        } else {
            let band = Bitmap(
                size: Size(width: image.size.width, height: rows.count), alpha: image.alpha,
                pixels: Array(image.pixels[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes]))
            try Alpha.flattened(band, over: .white).pixels.withUnsafeBufferPointer { pixels throws(CodecError) in
                try writer.write(rows: pixels, count: rows.count)
            }
        }
    }

    /// `size` halved, an odd side rounded up (as ``Resampler/halved(_:)`` makes it).
    static func half(of size: Size) -> Size { BoxShrinkStream.shrunk(size, by: (2, 2)) }

    /// Decodes `source` as the render decodes it under the floor and writes its renditions: for
    /// a picture whose sheets' tiles came from the cache. A file that cannot be decoded is a
    /// `.decode` error (its page then shows no picture and says why).
    func make(source: String, key: String) throws(CodecError) {
        let (shown, decoded) = try ImageDecoder.keepingProbedFiles { () throws(CodecError) in
            let info = try ImageProbe().probe(path: source)
            let shown = info.displayedSize
            guard shown.width > 0, shown.height > 0 else {
                throw CodecError(.decode, path: source, reason: "no pixels")
            }
            return (shown, try decoder.decode(path: source, info: info, target: floorTarget(shown)))
        }
        guard decoded.bitmap.size.width > 0, decoded.bitmap.size.height > 0 else {
            throw CodecError(.decode, path: source, reason: "no pixels decoded")
        }
        try write(decoded, shown: shown, sides: PictureRenditions.sides(long: max(shown.width, shown.height)), key: key)
    }

    /// `size` scaled so its long side is `side`.
    static func fitted(_ size: Size, side: Int) -> Size {
        let scale = Double(side) / Double(max(size.width, size.height, 1))
        return Size(
            width: max(1, Int((Double(size.width) * scale).rounded())),
            height: max(1, Int((Double(size.height) * scale).rounded())))
    }

    /// Makes the folder `path` goes in, and those above it, as a new folder there would be.
    static func makeFolder(of path: String) throws(FileError) {
        let folder = FilePaths.folder(of: path)
        try Folders.make(folder)
    }
}
