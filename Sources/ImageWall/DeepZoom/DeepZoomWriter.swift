import Dispatch
import Foundation
import WallCodecs
import WallCore
import WallFiles

/// How a Deep Zoom pyramid's tiles are stored.
public enum DeepZoomTileFormat: String, Sendable, CaseIterable, Codable {
    /// Lossless, with alpha on a transparent sheet: the top level holds exactly the sheet's pixels.
    case png
    /// Smaller, lossy (quality 90), for opaque sheets.
    case jpeg

    /// The tiles' file extension.
    public var fileExtension: String { self == .png ? "png" : "jpg" }
}

/// Writes a Deep Zoom pyramid as `NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.png` (or `.jpg`),
/// the way libvips' `dzsave` lays it out, from the image's rows top to bottom. Tiles are
/// encoded on `threads` threads into a hidden folder beside the output; only a complete
/// pyramid replaces what was there, and a failed one leaves nothing behind.
package final class DeepZoomWriter: CompletedPage, @unchecked Sendable {
    /// The `.dzi` file.
    let destination: String
    let geometry: DeepZoomGeometry
    let format: DeepZoomTileFormat
    /// The tiles folder, written beside its place.
    private let tiles: StagedFolder
    private var staging: String { tiles.path }
    private var builder: PyramidBuilder!
    private let room: DispatchSemaphore
    private let group = DispatchGroup()
    private let failure = Locked<CodecError?>(nil)
    private var finished = false

    /// Starts a pyramid of `size` (`channels` 3 or 4) to be written to `destination`.
    package init(
        destination: String, size: Size, channels: Int, format: DeepZoomTileFormat, threads: Int
    ) throws {
        if format == .jpeg && channels == 4 {
            throw CodecError(
                .write, path: destination, reason: "JPEG tiles cannot hold a transparent background: use PNG tiles")
        }
        self.destination = destination
        geometry = DeepZoomGeometry(size: size)
        self.format = format
        room = DispatchSemaphore(value: 2 * max(1, threads))
        do {
            tiles = try StagedFolder(destination: DeepZoomGeometry.tilesFolder(of: destination))
        } catch {
            throw FileError(.write, path: destination, reason: error.reason)
        }
        for level in 0...geometry.topLevel where mkdir("\(tiles.path)/\(level)".systemPath, 0o777) != 0 {
            let text = systemErrorText()
            tiles.discard()
            throw FileError(.write, path: destination, reason: text)
        }
        builder = PyramidBuilder(geometry: geometry, channels: channels) { [unowned self] level, column, row, tile in
            try self.write(tile, level: level, column: column, row: row)
        }
    }

    deinit { discard() }

    /// Takes the next `count` rows of the image.
    package func add(rows: UnsafeBufferPointer<UInt8>, count: Int) throws {
        try builder.add(rows: rows, count: count)
    }

    /// Writes `tile` to `path` as a tile file in `format`; every tile of every pyramid, made in
    /// one process or in parts, is written here, so the same pixels give the same file.
    package static func encode(_ tile: Bitmap, format: DeepZoomTileFormat, to path: String) throws(CodecError) {
        switch format {
        case .png:
            try PNGEncoder.write(tile, to: path, compression: tileCompression, filter: .paeth, durable: false)
        case .jpeg:
            try JPEGEncoder.write(
                samples: tile.pixels, size: tile.size, options: JPEGEncodeOptions(storage: .ycbcr), to: path,
                durable: false)
        }
    }

    /// Top-level tiles already made (by the parts of the sheet), by column and row.
    private var provided = Set<[Int]>()

    /// Puts top-level tile (`column`, `row`), made elsewhere from the same pixels, in the
    /// pyramid as `bytes`; the builder then does not make it again.
    package func provide(column: Int, row: Int, bytes: [UInt8]) throws(FileError) {
        let path = "\(staging)/\(geometry.topLevel)/\(column)_\(row).\(format.fileExtension)"
        let file = try AtomicFile(destination: path, durable: false)
        try file.write(bytes)
        try file.commit()
        provided.insert([column, row])
    }

    private func write(_ tile: Bitmap, level: Int, column: Int, row: Int) throws(CodecError) {
        if let failure = failure.withLock({ $0 }) { throw failure }
        if level == geometry.topLevel && provided.contains([column, row]) { return }
        let path = "\(staging)/\(level)/\(column)_\(row).\(format.fileExtension)"
        let format = self.format
        room.wait()
        group.enter()
        DispatchQueue.global().async { [self] in
            defer {
                room.signal()
                group.leave()
            }
            do throws(CodecError) {
                try DeepZoomWriter.encode(tile, format: format, to: path)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
    }

    /// PNG tiles are deflated at zlib's level 3 after the Paeth filter: on a 20,000-image wall
    /// nearly as small as libpng's default (level 6, adaptive filters) at two thirds of its
    /// time; run-length deflate, the sheet's default, made tiles four times bigger.
    static let tileCompression = PNGCompression.deflate(level: 3)

    private var dzi: AtomicFile?

    /// Ends the pyramid: the last tiles written, the `.dzi` file written beside them; ``commit()``
    /// then puts both in place.
    package func finishWriting() throws {
        try builder.finish()
        group.wait()
        if let failure = failure.withLock({ $0 }) { throw failure }
        let dzi = try AtomicFile(destination: destination)
        self.dzi = dzi
        try dzi.write(Array(geometry.xml(format: format.rawValue).utf8))
        try dzi.finishWriting()
    }

    /// Renames the tiles folder over any old one, then the `.dzi` file into place.
    package func commit() throws {
        guard let dzi, !finished else { preconditionFailure("commit before finishWriting") }
        try tiles.commit()
        finished = true
        try dzi.commit()
    }

    /// Removes the unfinished pyramid (after the tiles being encoded are done).
    package func discard() {
        group.wait()
        guard !finished else { return }
        finished = true
        dzi?.discard()
        tiles.discard()
    }
}
