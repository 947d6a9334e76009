import ArgumentParser
import ImageWall
import WallCore
import WallLayout

extension RGBAColor: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension AspectRatio: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension ErrorPolicy: ExpressibleByArgument {}
extension LayoutKind: ExpressibleByArgument {}
extension Fit: ExpressibleByArgument {}
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
