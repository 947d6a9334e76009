import WallCore
import WallLayout

/// A small deterministic generator (SplitMix64) for seeded property tests.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose numbers follow from `seed` alone.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Checks shared by every layout: the problems found, empty when none.
public enum LayoutInvariants {
    /// Frames lie inside the canvas and its padding, have area, and never overlap.
    public static func violations(of arrangement: Arrangement, padding: Insets) -> [String] {
        var problems: [String] = []
        let content = Rect(
            x: padding.left, y: padding.top,
            width: arrangement.canvas.width - padding.left - padding.right,
            height: arrangement.canvas.height - padding.top - padding.bottom)
        for (i, frame) in arrangement.frames.enumerated() {
            if frame.width < 1 || frame.height < 1 { problems.append("tile \(i) has no area: \(frame)") }
            if !content.contains(frame) { problems.append("tile \(i) \(frame) is outside \(content)") }
        }
        // Sweep by top edge so the check stays fast for big walls.
        let order = arrangement.frames.indices.sorted { arrangement.frames[$0].y < arrangement.frames[$1].y }
        var active: [Int] = []
        for index in order {
            let frame = arrangement.frames[index]
            active.removeAll { arrangement.frames[$0].maxY <= frame.y }
            for other in active where arrangement.frames[other].intersects(frame) {
                problems.append("tiles \(other) and \(index) overlap")
            }
            active.append(index)
        }
        return problems
    }
}
