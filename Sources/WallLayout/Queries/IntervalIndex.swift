/// A static index of half-open intervals `[start, end)` answering "which intervals overlap
/// `[low, high)`" by walking an implicit balanced tree over the intervals sorted by start, each
/// node knowing the largest end below it.
struct IntervalIndex: Sendable {
    private let order: [Int32]  // interval numbers sorted by start
    private let starts: [Int]
    private let ends: [Int]
    private let maxEnd: [Int]  // largest end in the subtree rooted at each position

    /// Indexes `count` intervals given by `interval(i)`; starts must not be negative.
    init(count: Int, _ interval: (Int) -> (start: Int, end: Int)) {
        // Sort packed (start, index) keys: plain integer comparisons, no closure per compare.
        // Sheets are at most 2^40 px tall (LayoutConfiguration.maxHeight), leaving 24 bits for
        // the index; beyond 16M intervals, sort the indices themselves.
        let indexBits = max(1, Int.bitWidth - (count - 1).leadingZeroBitCount)
        if indexBits <= 24 {
            let indexMask = (UInt64(1) << UInt64(indexBits)) - 1
            var keys = (0..<count).map { UInt64(interval($0).start) << UInt64(indexBits) | UInt64($0) }
            keys.sort()
            order = keys.map { Int32(truncatingIfNeeded: $0 & indexMask) }
            starts = keys.map { Int($0 >> UInt64(indexBits)) }
        } else {
            order = (0..<Int32(count)).sorted { (interval(Int($0)).start, $0) < (interval(Int($1)).start, $1) }
            starts = order.map { interval(Int($0)).start }
        }
        ends = order.map { interval(Int($0)).end }
        var subtreeMax = ends
        _ = Self.fillMaxEnds(&subtreeMax, ends: ends, lo: 0, hi: ends.count)
        maxEnd = subtreeMax
    }

    /// The subtree of `[lo, hi)` is rooted at its middle; fills each root's largest end.
    private static func fillMaxEnds(_ subtreeMax: inout [Int], ends: [Int], lo: Int, hi: Int) -> Int {
        guard lo < hi else { return Int.min }
        let mid = (lo + hi) / 2
        let below = max(
            fillMaxEnds(&subtreeMax, ends: ends, lo: lo, hi: mid),
            fillMaxEnds(&subtreeMax, ends: ends, lo: mid + 1, hi: hi))
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
