import WallCore

/// Rows of equal height filling the width exactly, breaks chosen over the whole sequence.
struct JustifiedLayout: LayoutStrategy {
    var summary: String { "rows of equal height filling the width, breaks chosen over the whole set" }
    var minimumColumns: Int? { nil }
    var allowsHeroes: Bool { true }

    func place(_ items: [Int], section: Int, in engine: inout LayoutEngine) throws(LayoutError) {
        try engine.placeJustified(items, section: section)
    }

    func firstRowHeight(of index: Int, in engine: LayoutEngine) -> Int {
        engine.config.rowHeight + engine.config.captionHeight
    }

    func encodeOptions(
        of configuration: LayoutConfiguration,
        to container: inout KeyedEncodingContainer<LayoutConfiguration.CodingKeys>
    ) throws {
        try container.encode(configuration.rowHeight, forKey: .rowHeight)
        try container.encode(configuration.maxRowHeightRatio, forKey: .maxRowHeightRatio)
        try container.encode(configuration.lastRow, forKey: .lastRow)
    }
}

extension LayoutEngine {
    /// Rows of equal height filling the width exactly, breaks chosen by dynamic programming
    /// over the whole sequence to minimise the summed squared deviation from the target height
    /// (Knuth–Plass). Rows shorter than a third of the target are not considered unless a
    /// single image already makes them so.
    mutating func placeJustified(_ items: [Int], section: Int) throws(LayoutError) {
        guard let inner = innerWidth else { return }
        let n = items.count
        let gap = config.columnGap
        let target = Double(config.rowHeight)
        let last = config.lastRow
        var prefix = [Double](repeating: 0, count: n + 1)
        for k in 0..<n {
            let size = sizes[items[k]]
            prefix[k + 1] = prefix[k] + Double(size.width) / Double(size.height)
        }
        var best = [Double](repeating: .infinity, count: n + 1)
        var start = [Int32](repeating: 0, count: n + 1)
        best[0] = 0
        for j in 1...n {
            var i = j - 1
            while i >= 0 {
                let count = j - i
                let available = inner - (count - 1) * gap
                if count > 1 && available < count { break }
                let height = Double(available) / (prefix[j] - prefix[i])
                let cost: Double
                if j == n && last != .justify && height >= target {
                    cost = 0  // a short last row is set at the target height, not stretched
                } else {
                    cost = (height - target) * (height - target)
                }
                if best[i] + cost < best[j] {
                    best[j] = best[i] + cost
                    start[j] = Int32(i)
                }
                if height < target / 3 { break }
                i -= 1
            }
        }
        var rows: [Range<Int>] = []
        var j = n
        while j > 0 {
            let i = Int(start[j])
            rows.append(i..<j)
            j = i
        }
        for row in rows.reversed() {
            try placeJustifiedRow(
                row, items: items, prefix: prefix, inner: inner, isLast: row.upperBound == n, section: section)
        }
    }

    /// Places one justified row at the cursor, on a new page if it does not fit.
    private mutating func placeJustifiedRow(
        _ row: Range<Int>, items: [Int], prefix: [Double], inner: Int, isLast: Bool, section: Int
    ) throws(LayoutError) {
        let gap = config.columnGap
        let count = row.count
        let available = inner - (count - 1) * gap
        let aspectSum = prefix[row.upperBound] - prefix[row.lowerBound]
        let target = Double(config.rowHeight)
        let natural = Double(available) / aspectSum
        var edges: [Int]
        var height: Double
        var crops = false
        var offset = 0
        if isLast && config.lastRow != .justify && natural > target {
            // Set at the target height without stretching.
            height = target
            edges = [0]
            for k in row {
                edges.append(edges.last! + max(1, Int((Double(prefix[k + 1] - prefix[k]) * target).rounded())))
            }
            let used = edges.last! + (count - 1) * gap
            if used <= inner {
                if config.lastRow == .center { offset = (inner - used) / 2 }
            } else {
                edges = Self.fillEdges(row, prefix: prefix, available: available)
                height = natural
            }
        } else {
            height = min(natural, target * config.maxRowHeightRatio)
            crops = height < natural
            edges = Self.fillEdges(row, prefix: prefix, available: available)
        }
        var imageHeight = max(1, Int(height.rounded()))
        if let pageLimit {  // a lone tall row shrinks (cropping more) rather than overflow a page
            imageHeight = max(
                1, min(imageHeight, pageLimit - config.padding.top - config.padding.bottom - config.captionHeight))
            crops = crops || Double(imageHeight) < height.rounded()
        }
        try ensureRoom(imageHeight + config.captionHeight)
        let top = cursor
        var rowBottom = top
        for (m, k) in row.enumerated() {
            let index = items[k]
            let x = left + offset + edges[m] + m * gap
            let parts = cell(x: x, y: top, width: edges[m + 1] - edges[m], imageHeight: imageHeight)
            let crop = crops ? Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity) : nil
            try put(
                Placement(cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section),
                at: index)
            rowBottom = parts.cell.maxY
        }
        try endBlock(at: rowBottom)
    }

    /// Whole-pixel edges splitting `available` in proportion to the row's aspect ratios; the
    /// last edge is `available` exactly and every width is at least 1.
    static func fillEdges(_ row: Range<Int>, prefix: [Double], available: Int) -> [Int] {
        let sum = prefix[row.upperBound] - prefix[row.lowerBound]
        let n = row.count
        var edges = row.map { Int(((prefix[$0] - prefix[row.lowerBound]) / sum * Double(available)).rounded()) }
        edges.append(available)
        edges[0] = 0
        // Interior edge m must leave a pixel for each image before and after it.
        for m in 1..<n { edges[m] = min(max(edges[m], edges[m - 1] + 1), available - (n - m)) }
        return edges
    }
}
