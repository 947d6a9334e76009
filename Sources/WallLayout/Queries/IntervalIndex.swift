/// A static index of half-open intervals `[start, end)` answering "which intervals overlap
/// `[low, high)`" by walking an implicit balanced tree over the intervals sorted by start, each
/// node knowing the largest end below it.
struct IntervalIndex: Sendable {
    private let order: [Int32]  // interval numbers sorted by start
    private let starts: [Int]
    private let ends: [Int]
    private let maxEnd: [Int]  // largest end in the subtree rooted at each position

    init(_ intervals: [(start: Int, end: Int)]) {
        let sorted = intervals.indices.sorted { (intervals[$0].start, $0) < (intervals[$1].start, $1) }
        order = sorted.map { Int32($0) }
        starts = sorted.map { intervals[$0].start }
        ends = sorted.map { intervals[$0].end }
        var subtreeMax = ends
        _ = Self.fillMaxEnds(&subtreeMax, ends: ends, lo: 0, hi: ends.count)
        maxEnd = subtreeMax
    }

    /// The subtree of `[lo, hi)` is rooted at its middle; fills each root's largest end.
    private static func fillMaxEnds(_ subtreeMax: inout [Int], ends: [Int], lo: Int, hi: Int) -> Int {
        guard lo < hi else { return Int.min }
        let mid = (lo + hi) / 2
        let below = max(fillMaxEnds(&subtreeMax, ends: ends, lo: lo, hi: mid), fillMaxEnds(&subtreeMax, ends: ends, lo: mid + 1, hi: hi))
        subtreeMax[mid] = max(ends[mid], below)
        return subtreeMax[mid]
    }

    /// Interval numbers overlapping `[low, high)`, in no particular order.
    func overlapping(_ low: Int, _ high: Int) -> [Int] {
        var result: [Int] = []
        var stack: [(Int, Int)] = [(0, starts.count)]
        while let (lo, hi) = stack.popLast() {
            guard lo < hi else { continue }
            let mid = (lo + hi) / 2
            if maxEnd[mid] <= low { continue }  // everything below ends before the range
            stack.append((lo, mid))
            if starts[mid] < high {
                if ends[mid] > low { result.append(Int(order[mid])) }
                stack.append((mid + 1, hi))  // larger starts may still begin before `high`
            }
        }
        return result
    }
}
