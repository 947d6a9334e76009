import Foundation
import WallCore
import WallLayout

// Times the layout engine on 1,000,000 seeded random sizes per layout (release build), and
// the peak memory per tile. Output lines are stable for `make bench`.
//   usage: imagewall-layout-bench [COUNT]
#if canImport(Glibc)
    import Glibc
#endif

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func peakMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
var random = SplitMix(state: 42)
// Camera-like shapes: mostly 4:3 and 3:2 both ways, some squares and panoramas.
let shapes = [(4000, 3000), (3000, 4000), (6000, 4000), (4000, 6000), (3000, 3000), (8000, 2000), (1080, 1920)]
let sizes = (0..<count).map { _ -> Size in
    let (w, h) = shapes[Int(random.next() % UInt64(shapes.count))]
    return Size(width: w + Int(random.next() % 97), height: h + Int(random.next() % 89))
}
let baseline = peakMB()
print("layout: \(count) sizes, 2000 px wide, 4 columns / row height 300 (best of 3)")
for kind in LayoutKind.allCases {
    var config = LayoutConfiguration(kind: kind)
    config.width = 2000
    var best = Double.infinity
    var tiles = 0
    for _ in 0..<3 {
        let start = now()
        let arrangement = try config.arrange(sizes)
        best = min(best, now() - start)
        tiles = arrangement.placements.count
    }
    let milliseconds: Double = best * 1000
    let growth: Double = peakMB() - baseline
    let perTile: Double = growth * 1_048_576 / Double(max(1, tiles))
    let name = kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
    print(
        "layout \(name) "
            + String(format: "%8.0f ms   peak %6.0f MB (%.0f B/tile over the input)", milliseconds, peakMB(), perTile))
}
