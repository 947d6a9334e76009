import WallCore

/// Where a Deep Zoom pyramid's levels and tiles are, as Deep Zoom viewers (OpenSeadragon) and
/// libvips' `dzsave` count them: level 0 is 1 × 1 pixel, the top level the image itself, each
/// level the one above halved (rounding up); tiles are `tileSize` square on a grid, each
/// stretched by `overlap` pixels into its neighbours where it has them.
public struct DeepZoomGeometry: Sendable, Equatable {
    /// The full-resolution image.
    public var size: Size
    /// A tile's side, before overlap.
    public var tileSize: Int
    /// Pixels each tile shares with its neighbours on each side that has one.
    public var overlap: Int

    /// The geometry of `size` in tiles of `tileSize` (254, as libvips writes by default) with
    /// `overlap` (1).
    public init(size: Size, tileSize: Int = 254, overlap: Int = 1) {
        precondition(size.width > 0 && size.height > 0 && tileSize > 0 && overlap >= 0)
        self.size = size
        self.tileSize = tileSize
        self.overlap = overlap
    }

    /// The top level's number: ⌈log₂ of the longer side⌉.
    public var topLevel: Int {
        var level = 0
        while (1 << level) < max(size.width, size.height) { level += 1 }
        return level
    }

    /// Level `level`'s size.
    public func size(ofLevel level: Int) -> Size {
        let shift = topLevel - level
        return Size(
            width: max(1, (size.width + (1 << shift) - 1) >> shift),
            height: max(1, (size.height + (1 << shift) - 1) >> shift))
    }

    /// Columns and rows of tiles on level `level`.
    public func tiles(ofLevel level: Int) -> (columns: Int, rows: Int) {
        let size = size(ofLevel: level)
        return ((size.width + tileSize - 1) / tileSize, (size.height + tileSize - 1) / tileSize)
    }

    /// The pixels tile `index` covers along a side `length` long, with its overlap.
    public func span(_ index: Int, length: Int) -> Range<Int> {
        min(length, max(0, index * tileSize - overlap))..<min(length, (index + 1) * tileSize + overlap)
    }

    /// The extension of a pyramid's descriptor file.
    public static let descriptorExtension = "dzi"

    /// The folder of tiles beside the `.dzi` file `dzi`: its name without `.dzi`, then `_files`.
    public static func tilesFolder(of dzi: String) -> String {
        let suffix = "." + descriptorExtension
        return (dzi.lowercased().hasSuffix(suffix) ? String(dzi.dropLast(suffix.count)) : dzi) + "_files"
    }

    /// The `.dzi` file's XML for tiles in `format` ("png" or "jpeg").
    public func xml(format: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="\(format)" Overlap="\(overlap)" \
        TileSize="\(tileSize)">
          <Size Width="\(size.width)" Height="\(size.height)"/>
        </Image>

        """
    }
}
