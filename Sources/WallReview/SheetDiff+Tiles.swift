import ImageWall
import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How tiles differ between two manifests.
extension SheetDiff {
    /// How tiles differ between two manifests, each named by its identity (its path under its
    /// input, see ``Manifest/identity(of:)``), so that the same sheet rendered from a folder
    /// moved elsewhere matches.
    public struct TileChanges: Sendable, Equatable, Codable {
        /// Tiles whose rectangle or page changed.
        public var moved: [String] = []
        /// Tiles whose pixels differ: in the same place, or moved as well (see
        /// ``SheetComparison``: compared pixel by pixel at the same size, on average resized).
        public var changed: [String] = []
        /// Tiles only in the second manifest.
        public var appeared: [String] = []
        /// Tiles only in the first manifest.
        public var disappeared: [String] = []
        /// Of the ``changed`` tiles in place, those no pixel of which differed past the threshold
        /// or tolerance, but whose colour shifted as a whole or in a block (a photo made 2 %
        /// darker): see ``SheetComparison``.
        public var shifted: [String] = []

        /// Tiles that differ, by kind.
        public init(changed: [String] = [], moved: [String] = [], appeared: [String] = [], disappeared: [String] = []) {
            (self.changed, self.moved, self.appeared, self.disappeared) = (changed, moved, appeared, disappeared)
        }

        /// No tile differs.
        public var isEmpty: Bool { moved.isEmpty && changed.isEmpty && appeared.isEmpty && disappeared.isEmpty }

        /// Every kind ("changed", "moved", "appeared", "disappeared", in that order) with its
        /// tiles, the kinds without tiles included.
        public var byKind: [(kind: String, names: [String])] {
            [("changed", changed), ("moved", moved), ("appeared", appeared), ("disappeared", disappeared)]
        }
    }

    /// Compares the tiles of two manifests, matched by identity (and among tiles of the same
    /// identity, by order); `mask` (from comparing their first pages) tells which tiles in
    /// the same place changed.
    public static func compare(_ a: Manifest, _ b: Manifest, mask: ChangeMask?) -> TileChanges {
        var changes = TileChanges()
        let first = keyed(a), second = keyed(b)
        for (key, tile) in second.list {
            guard let old = first.byKey[key] else {
                changes.appeared.append(b.identity(of: tile))
                continue
            }
            if (old.x, old.y, old.width, old.height, old.page) != (tile.x, tile.y, tile.width, tile.height, tile.page) {
                changes.moved.append(b.identity(of: tile))
            } else if let mask, tile.page == 0, mask.changed(in: tile.cell.rect) {
                // The cell: the picture, and its caption (a name or a date changed).
                changes.changed.append(b.identity(of: tile))
            }
        }
        changes.disappeared = first.list.filter { second.byKey[$0.key] == nil }.map { a.identity(of: $0.tile) }
        return changes
    }

    /// A manifest's tiles by identity, the second of a name "name#2" and so on.
    private static func keyed(_ manifest: Manifest) -> (
        list: [(key: String, tile: Manifest.Tile)], byKey: [String: Manifest.Tile]
    ) {
        var seen: [String: Int] = [:]
        var list: [(key: String, tile: Manifest.Tile)] = []
        for tile in manifest.tiles {
            let identity = manifest.identity(of: tile)
            seen[identity, default: 0] += 1
            let count = seen[identity]!
            list.append((count == 1 ? identity : "\(identity)#\(count)", tile))
        }
        return (list, Dictionary(list.map { ($0.key, $0.tile) }, uniquingKeysWith: { x, _ in x }))
    }

    /// The rectangles, on either sheet, of the tiles whose identity or file name matches one of
    /// `globs` (`clock.png`, `dates/*`).
    public static func areas(matching globs: [String], in manifests: [Manifest]) -> [Rect] {
        guard !globs.isEmpty else { return [] }
        return manifests.flatMap { manifest in
            manifest.tiles.filter { tile in
                let identity = manifest.identity(of: tile)
                let name = FilePaths.name(of: identity)
                return tile.page == 0
                    && globs.contains { fnmatch($0, identity, 0) == 0 || fnmatch($0, name, 0) == 0 }
            }.map { $0.cell.rect }
        }
    }
}
