/// A manifest as it is written: everything but its tiles, and each tile made from the layout
/// when the writer comes to it, so that the manifest of a million-tile wall is written without
/// a million tiles in memory (about 500 bytes each, and the source record each is made from).
/// ``ManifestWriter`` writes the same bytes for it as for its ``manifest`` held whole.
public struct StreamedManifest: Sendable {
    /// Everything but the tiles: its `tiles` are empty.
    public var outline: Manifest
    /// How many tiles the manifest holds.
    public let tileCount: Int
    private let makeTile: @Sendable (Int) -> Manifest.Tile

    /// The manifest `outline` with tiles `tile(0)` to `tile(tileCount - 1)`, each made when
    /// asked for.
    init(outline: Manifest, tileCount: Int, tile: @escaping @Sendable (Int) -> Manifest.Tile) {
        self.outline = outline
        self.tileCount = tileCount
        makeTile = tile
    }

    /// A manifest already held whole, its tiles taken from it.
    public init(_ manifest: Manifest) {
        var outline = manifest
        outline.tiles = []
        self.init(outline: outline, tileCount: manifest.tiles.count) { manifest.tiles[$0] }
    }

    /// Tile `index`, from 0: made anew at each call.
    public func tile(_ index: Int) -> Manifest.Tile { makeTile(index) }

    /// The tiles in order, each made as it is reached.
    public var tiles: LazyMapCollection<Range<Int>, Manifest.Tile> { (0..<tileCount).lazy.map(makeTile) }

    /// The whole manifest, every tile made and held.
    public var manifest: Manifest {
        var whole = outline
        whole.tiles = Array(tiles)
        return whole
    }
}
