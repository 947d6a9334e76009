import WallCodecs
import WallCore
import WallLayout

/// Probed images and their layout: everything known before any pixel is decoded.
public struct Plan: Sendable {
    /// Readable images, in layout order.
    public var images: [ProbedImage]
    /// Inputs that could not be read.
    public var skipped: [CodecError]
    /// Where each image goes.
    public var arrangement: Arrangement
    /// Section titles (folders) when grouped, by section number.
    public var sectionTitles: [String]
    /// Tiles made otherwise than decoded for themselves alone (batch variants), by index.
    public var recipes: [Int: TileRecipe] = [:]
    /// Files in the folders given that are not images, left out.
    public var ignored: [String] = []
    /// The inputs the images came from (see ``ProbedImage/origin``).
    public var roots: [String] = []
    /// Folders whose images were not taken, and why.
    public var foldersNotRead: [FolderNotRead] = []
    /// How many files the `--include` and `--exclude` globs left out.
    public var filteredOut = 0
    /// Sheets and pyramids ImageWall wrote, found in the folders given and left out.
    public var ownOutputs: [String] = []
    /// Warnings known before any pixel is drawn (a replayed source whose size changed), by
    /// tile: recorded with the decoders' in the manifest.
    public var warnings: [Int: [String]] = [:]

    /// How tile `index` is made: as recorded, or decoded for its own placement.
    func recipe(for index: Int) -> TileRecipe {
        recipes[index] ?? TileRecipe(ownFor: images[index], placement: arrangement.placements[index])
    }

    /// Lays out images already probed and ordered, grouped into sections as `options` say.
    static func laidOut(_ probed: ProbeResult, options: WallOptions, hooks: RunHooks) throws -> Plan {
        let images = probed.images
        hooks.progress?.begin(.layout, total: 1)
        let (sections, titles) = Plan.sections(of: images, grouping: options.grouping)
        let arrangement = try hooks.profile.measure(.layout, wall: true) {
            try options.effectiveLayout.arrange(images.map(\.info.displayedSize), sections: sections)
        }
        hooks.progress?.advance(.layout)
        return Plan(
            images: images, skipped: probed.failures, arrangement: arrangement, sectionTitles: titles,
            ignored: probed.ignored, roots: probed.roots, foldersNotRead: probed.foldersNotRead,
            filteredOut: probed.filteredOut, ownOutputs: probed.ownOutputs)
    }

    /// Section numbers by folder (the path up to its last slash), with the folders as titles.
    static func sections(of images: [ProbedImage], grouping: Grouping) -> ([Int]?, [String]) {
        guard grouping == .folder else { return (nil, []) }
        var numbers: [String: Int] = [:]
        var titles: [String] = []
        let sections = images.map { image -> Int in
            let folder = image.path.lastIndex(of: "/").map { String(image.path[..<$0]) } ?? "."
            if let number = numbers[folder] { return number }
            numbers[folder] = titles.count
            titles.append(folder)
            return titles.count - 1
        }
        return (sections, titles)
    }
}
