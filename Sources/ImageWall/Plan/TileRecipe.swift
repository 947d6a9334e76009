import WallCore
import WallLayout

/// How a tile's pixels are made: decoded for `decodedFor` (displayed pixels; the decoder keeps
/// its margin over that), then resampled through the whole-image sizes `via`, largest first,
/// and into the tile. Every tile is now decoded for itself (batch variants share a decode only
/// where their own decodes are the same); manifests of earlier batches record other recipes,
/// and `--from-manifest` follows them so that it makes the same pixels.
public struct TileRecipe: Hashable, Sendable {
    /// The size the source is decoded for.
    public var decodedFor: Size
    /// Whole-image sizes resampled through on the way, largest first.
    public var via: [Size]

    /// Creates a recipe.
    public init(decodedFor: Size, via: [Size] = []) {
        self.decodedFor = decodedFor
        self.via = via
    }

    /// The plain way: decoded for what `placement` shows of `image`, then resampled into it;
    /// with a `floor`, decoded for no less than the image at that long side (see
    /// ``TileSettings/decodeFloor``).
    init(ownFor image: ProbedImage, placement: Placement, floor: Int? = nil) {
        let needed = TileRecipe.neededSize(image, placement)
        guard let floor else {
            self.init(decodedFor: needed)
            return
        }
        let least = TileRecipe.floorSize(image, floor: floor)
        self.init(decodedFor: Size(width: max(needed.width, least.width), height: max(needed.height, least.height)))
    }

    /// `image`'s displayed size brought to `floor` on its long side, never above its own size.
    public static func floorSize(_ image: ProbedImage, floor: Int) -> Size {
        let shown = image.info.displayedSize
        let long = max(shown.width, shown.height, 1)
        guard floor < long else { return shown }
        let scale = Double(floor) / Double(long)
        return Size(
            width: max(1, Int((Double(shown.width) * scale).rounded())),
            height: max(1, Int((Double(shown.height) * scale).rounded())))
    }

    /// The displayed size to decode `image` at so that the part `placement` shows keeps at
    /// least the tile's resolution.
    static func neededSize(_ image: ProbedImage, _ placement: Placement) -> Size {
        let displayed = image.info.displayedSize
        let target = placement.image.size
        return placement.crop.map { crop in
            Size(
                width: Int((Double(target.width) * Double(displayed.width) / crop.width).rounded(.up)),
                height: Int((Double(target.height) * Double(displayed.height) / crop.height).rounded(.up)))
        } ?? target
    }
}
