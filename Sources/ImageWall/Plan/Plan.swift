import WallCodecs
import WallCore
import WallFiles
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
    /// Files given more than once, drawn once.
    public var repeats: [RepeatedInput] = []
    /// Pictures left out by their rating.
    public var ratedOut: [RatedOut] = []
    /// Warnings known before any pixel is drawn (a replayed source whose size changed), by
    /// tile: recorded with the decoders' in the manifest.
    public var warnings: [Int: [String]] = [:]

    /// For a plan of some of a wall's tiles (a part's), each one's index in the whole wall;
    /// nil when the plan holds them all.
    public var wallIndices: [Int]? = nil

    /// Where tile `index` of the plan is in the whole wall.
    func wallIndex(of index: Int) -> Int { wallIndices?[index] ?? index }

    /// Every source decoded for no less than this long side (``TileSettings/decodeFloor``).
    public var decodeFloor: Int?

    /// How tile `index` is made: as recorded, or decoded for its own placement.
    func recipe(for index: Int) -> TileRecipe {
        recipes[index]
            ?? TileRecipe(ownFor: images[index], placement: arrangement.placements[index], floor: decodeFloor)
    }

    /// Lays out images already probed and ordered, grouped into sections as `options` say.
    static func laidOut(_ probed: ProbeResult, options: WallOptions, hooks: RunHooks) throws -> Plan {
        hooks.progress?.begin(.layout, total: 1)
        let (images, sections, titles) = Plan.sections(
            of: probed.images, grouping: options.grouping, newestFirst: options.input.reverse,
            byDateWithin: options.input.sort == .none)
        let arrangement = try hooks.profile.measure(.layout, wall: true) {
            try options.effectiveLayout.arrange(images.map(\.info.displayedSize), sections: sections)
        }
        hooks.progress?.advance(.layout)
        var plan = Plan(
            images: images, skipped: probed.failures, arrangement: arrangement, sectionTitles: titles,
            ignored: probed.ignored, roots: probed.roots, foldersNotRead: probed.foldersNotRead,
            filteredOut: probed.filteredOut, ownOutputs: probed.ownOutputs, repeats: probed.repeats)
        plan.decodeFloor = options.rendering.tile.decodeFloor
        plan.ratedOut = probed.ratedOut
        return plan
    }

    /// The images in wall order with their section numbers and the sections' titles: by
    /// folder (the path up to its last slash) in order of first appearance, or by date, the
    /// sections in date order (`newestFirst` reverses it) and each one's images in the order
    /// given, or by date too when `byDateWithin`; no sections without grouping.
    static func sections(
        of images: [ProbedImage], grouping: Grouping, newestFirst: Bool = false, byDateWithin: Bool = false
    ) -> ([ProbedImage], [Int]?, [String]) {
        if grouping.isByDate {
            return sectionsByDate(of: images, grouping: grouping, newestFirst: newestFirst, byDateWithin: byDateWithin)
        }
        guard grouping == .folder else { return (images, nil, []) }
        var numbers: [String: Int] = [:]
        var titles: [String] = []
        let sections = images.map { image -> Int in
            let folder = FilePaths.directory(of: image.path)
            if let number = numbers[folder] { return number }
            numbers[folder] = titles.count
            titles.append(folder)
            return titles.count - 1
        }
        return (images, sections, titles)
    }

    private static func sectionsByDate(
        of images: [ProbedImage], grouping: Grouping, newestFirst: Bool, byDateWithin: Bool
    ) -> ([ProbedImage], [Int]?, [String]) {
        let dates = images.map(CaptureDate.init(of:))
        let keys = dates.map { date -> DateSection in
            switch grouping {
            case .year: return DateSection(year: date.year, month: 0, day: 0)
            case .month: return DateSection(year: date.year, month: date.month, day: 0)
            default: return DateSection(year: date.year, month: date.month, day: date.day)
            }
        }
        var distinct = Array(Set(keys)).sorted()
        if newestFirst { distinct.reverse() }
        let number = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        let order = images.indices.sorted { a, b in
            let x = number[keys[a]]!, y = number[keys[b]]!
            if x != y { return x < y }
            if byDateWithin && (dates[a] < dates[b] || dates[b] < dates[a]) {
                return (dates[a] < dates[b]) != newestFirst
            }
            return a < b
        }
        return (order.map { images[$0] }, order.map { number[keys[$0]]! }, distinct.map(\.title))
    }
}

/// A day, month (day 0) or year (month 0) that heads a section.
struct DateSection: Hashable, Comparable {
    var year: Int, month: Int, day: Int

    static func < (a: DateSection, b: DateSection) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// "14 March 2024", "March 2024" or "2024".
    var title: String {
        guard month > 0 else { return String(year) }
        let name = CaptureDate.monthNames[month - 1]
        return day > 0 ? "\(day) \(name) \(year)" : "\(name) \(year)"
    }
}
