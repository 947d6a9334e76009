import WallCore
import WallLayout

/// A source whose picture is another size than the one its tile was laid out for (a file
/// replaced after it was probed, or since a manifest recorded it): drawn into its rectangle,
/// never distorted — the crop scaled to the new size when the shape is the same, else the
/// rectangle filled as `cover` fills it, by the layout's gravity.
struct SourceChange {
    /// The displayed size the tile was laid out for, and the size now.
    let then: Size, now: Size
    let gravity: Gravity

    /// `nil` when the size is the same.
    init?(then: Size, now: Size, gravity: Gravity) {
        guard then != now else { return nil }
        (self.then, self.now, self.gravity) = (then, now, gravity)
    }

    private var scale: (x: Double, y: Double) {
        (Double(now.width) / Double(max(1, then.width)), Double(now.height) / Double(max(1, then.height)))
    }

    /// Whether the shape changed too (by over 1 %): a scaled crop would stretch it.
    var reshaped: Bool {
        let (sx, sy) = scale
        return abs(sx - sy) > 0.01 * max(sx, sy)
    }

    /// The part of the new picture a tile of `size` that showed `crop` of the old one shows.
    func crop(_ crop: Region?, drawnAt size: Size) -> Region? {
        reshaped ? Fitting.cover(now, in: size, gravity: gravity) : crop.map { $0.scaled(x: scale.x, y: scale.y) }
    }

    /// "changed since the manifest: 1200x800 then, 800x1200 now" (`since` says since what).
    func description(since: String) -> String {
        "changed since \(since): \(then.width)x\(then.height) then, \(now.width)x\(now.height) now"
    }

    /// How it is drawn, for a warning.
    var drawn: String { reshaped ? "drawn cropped to its cell" : "drawn scaled to its cell" }
}
