import WallCore
import WallLayout

/// How a tile's pixels are made: decoded for `decodedFor` (displayed pixels; the decoder keeps
/// its margin over that), then resampled through the whole-image sizes `via`, largest first,
/// and into the tile. A plain tile is decoded for itself; batch variants share one decode
/// this way, and the manifest records it, so `--from-manifest` makes the same pixels.
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

    /// The plain way: decoded for what `placement` shows of `image`, then resampled into it.
    init(ownFor image: ProbedImage, placement: Placement) {
        self.init(decodedFor: TileRecipe.neededSize(image, placement))
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

    /// The recipes of one image's tiles in several placements (batch variants): one decode,
    /// for the largest size any of them needs; then, largest first, each tile resampled from
    /// the smallest whole-image tile already made that still has `margin` times the size it
    /// needs (the headroom decoding leaves), or else from the decode. So the big decode is
    /// filtered once per size, not once per variant.
    static func shared(by image: ProbedImage, placements: [Placement], margin: Int) -> [TileRecipe] {
        let needs = placements.map { neededSize(image, $0) }
        let decodedFor = Size(width: needs.map(\.width).max() ?? 1, height: needs.map(\.height).max() ?? 1)
        let displayed = image.info.displayedSize
        let order = placements.indices.sorted { (needs[$0].area ?? .max, $0) > (needs[$1].area ?? .max, $1) }
        var recipes = [TileRecipe](repeating: TileRecipe(decodedFor: decodedFor), count: placements.count)
        var made: [(size: Size, via: [Size])] = []  // whole-image tiles, smaller than the image
        for v in order {
            let need = needs[v]
            // A pixel's rounding in either size does not count against the headroom.
            let sources = made.filter {
                $0.size.width + margin >= margin * need.width && $0.size.height + margin >= margin * need.height
            }
            if let source = sources.min(by: { $0.size.width < $1.size.width }) {
                recipes[v].via = source.via + [source.size]
            }
            let size = placements[v].image.size
            if placements[v].crop == nil && size.width < displayed.width && size.height < displayed.height {
                made.append((size, recipes[v].via))
            }
        }
        return recipes
    }
}
