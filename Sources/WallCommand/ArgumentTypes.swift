import ArgumentParser
import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallLayout
import WallParts
import WallReview

extension RGBAColor: ExpressibleByArgument {
    /// A colour as the colour options take it: `#rgb`, `#rrggbb`, `#rrggbbaa` or a name.
    public init?(argument: String) { self.init(parsing: argument) }
}

extension AspectRatio: ExpressibleByArgument {
    /// A cell shape as `--cell-aspect` takes it: `W:H`.
    public init?(argument: String) { self.init(parsing: argument) }
}

extension ErrorPolicy: ExpressibleByArgument {}
extension DeepZoomTileFormat: ExpressibleByArgument {}

extension PageFormat: ExpressibleByArgument {}
extension Paper: ExpressibleByArgument {}

/// `--quality`: 1–100, or `lossless` (0: a PDF's pictures kept whole).
struct SheetQuality: ExpressibleByArgument {
    var value: Int
    init?(argument: String) {
        if argument == "lossless" {
            value = 0
        } else if let number = Int(argument), (1...100).contains(number) {
            value = number
        } else {
            return nil
        }
    }
}

extension SheetPart: ExpressibleByArgument {
    /// A part as `--part` takes it: `K/N`.
    public init?(argument: String) { self.init(argument) }
}
extension LayoutKind: ExpressibleByArgument {
    /// "a, b or c" of the layouts' names.
    static func names(_ kinds: [LayoutKind], last: String = " or ") -> String {
        let names = kinds.map(\.rawValue)
        return names.count < 2
            ? names.joined() : names.dropLast().joined(separator: ", ") + last + names[names.count - 1]
    }

    /// Every layout with what it does: "masonry (each image to …), columns (…) and strip (…)".
    static var described: String {
        let parts = allCases.map { "\($0.rawValue) (\($0.summary))" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
extension Fit: ExpressibleByArgument {}
extension TileOrder: ExpressibleByArgument {}
extension Gravity: ExpressibleByArgument {}
extension Direction: ExpressibleByArgument {}
extension LastRow: ExpressibleByArgument {}
extension Grouping: ExpressibleByArgument {}

/// `ROW:PX` for `--row-gap-after`.
struct RowGapAfter: ExpressibleByArgument {
    var row: Int
    var pixels: Int

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let row = Int(parts[0]), let pixels = Int(parts[1]) else { return nil }
        self.row = row
        self.pixels = pixels
    }
}

/// A comma-separated list of positive whole numbers, e.g. `--columns 2,3,4,6`.
struct IntList: ExpressibleByArgument, Equatable {
    var values: [Int]

    init(_ values: [Int]) { self.values = values }

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.count == parts.count else { return nil }
        self.values = values
    }

    var defaultValueDescription: String { values.map(String.init).joined(separator: ",") }
}

extension PNGFilter: ExpressibleByArgument {}

extension PNGCompression: ExpressibleByArgument {
    /// A compression as `--compression` takes it: `rle` or a level 0 to 9.
    public init?(argument: String) { self.init(argument) }
    /// The default as help shows it.
    public var defaultValueDescription: String { description }
}
