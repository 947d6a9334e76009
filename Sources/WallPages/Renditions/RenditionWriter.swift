import WallCodecs
import WallCompositor
import WallCore
import WallFiles

/// Writes renditions, what a page shows in place of an original or at a smaller size: a picture
/// decoded upright and in sRGB, flattened on white, as a baseline JPEG file, written row by row.
/// A rendition half the size of the one above it is that one halved (a 2 × 2 mean), its rows
/// made as the rows above are written; any other is resampled as sheets are.
package struct RenditionWriter: Sendable {
    /// The files' options: YCbCr at `quality`, with Huffman tables made for each picture
    /// (smaller; libjpeg then holds the picture whole) or the standard ones.
    let options: JPEGEncodeOptions

    /// A writer of JPEG files at `quality`, with tables made for each picture when
    /// `optimizedTables`.
    package init(quality: Int, optimizedTables: Bool) {
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = quality
        options.optimizedTables = optimizedTables
        self.options = options
    }

    /// Writes `picture` (premultiplied or opaque, at its size) to `path`.
    package func write(_ picture: Bitmap, to path: String) throws(CodecError) {
        _ = try writeHalving(from: picture, to: [path])
    }

    /// Writes the renditions of `decoded`, the picture shown `shown`, at the long sides `sides`,
    /// each to `path(side)`; a `.write` error when one cannot be written. Returns the decode
    /// halved (premultiplied) when a rendition is that, for the caller to start from.
    package func write(_ decoded: Bitmap, shown: Size, sides: [Int], to path: (Int) -> String) throws(CodecError)
        -> Bitmap?
    {
        let pixels = decoded.alpha == .straight ? Alpha.premultiplied(decoded) : decoded
        // Largest first. A rendition half the size of the one above is halved from it, its rows
        // made as the rows above are written (while they are still in the processor's cache);
        // any other is resampled from the whole one above (from the decode for the largest).
        let levels = sides.sorted(by: >).map { (side: $0, size: RenditionWriter.fitted(shown, side: $0)) }
        var above = pixels
        var first = 0
        var halvedDecode: Bitmap?
        while first < levels.count {
            let size = levels[first].size
            var top = above
            if top.size != size {
                top =
                    RenditionWriter.half(of: top.size) == size ? Resampler.halved(top) : Resampler.resize(top, to: size)
            }
            var last = first + 1
            while last < levels.count && levels[last].size == RenditionWriter.half(of: levels[last - 1].size) {
                last += 1
            }
            let run = try writeHalving(from: top, to: levels[first..<last].map { path($0.side) })
            if top.size == pixels.size && run.count > 1 { halvedDecode = run[1] }
            above = run.last!
            first = last
        }
        return halvedDecode
    }

    /// Writes `top` to the first of `paths` and each next one as the one above it halved, a
    /// band of rows at a time; returns them, `top` first.
    private func writeHalving(from top: Bitmap, to paths: [String]) throws(CodecError) -> [Bitmap] {
        var images = [top]
        for _ in paths.dropFirst() {
            images.append(Bitmap(size: RenditionWriter.half(of: images.last!.size), alpha: top.alpha))
        }
        var files: [AtomicFile] = []
        var writers: [JPEGStreamWriter] = []
        for (path, image) in zip(paths, images) {
            let file: AtomicFile
            do {
                try Folders.make(FilePaths.folder(of: path))
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
            try RenditionWriter.write(rows: written[0]..<written[0] + count, of: top, to: writers[0])
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
                try RenditionWriter.write(rows: rows, of: images[level], to: writers[level])
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

    /// `size` halved, an odd side rounded up (as ``WallCompositor/Resampler/halved(_:)`` makes it).
    package static func half(of size: Size) -> Size { BoxShrinkStream.shrunk(size, by: (2, 2)) }

    /// `size` scaled so its long side is `side`.
    package static func fitted(_ size: Size, side: Int) -> Size {
        let scale = Double(side) / Double(max(size.width, size.height, 1))
        return Size(
            width: max(1, Int((Double(size.width) * scale).rounded())),
            height: max(1, Int((Double(size.height) * scale).rounded())))
    }
}
