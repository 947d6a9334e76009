import WallCore

extension LayoutEngine {
    /// Masonry (shortest column, leftmost within the tie tolerance) or the round-robin
    /// waterfall: images at column width, aspect kept.
    mutating func placeColumns(_ items: [Int], section: Int, roundRobin: Bool) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        var bottoms = [Int](repeating: cursor, count: columns)
        var used = [Bool](repeating: false, count: columns)
        let tolerance = config.tieTolerance
        for (k, index) in items.enumerated() {
            var column = 0
            if roundRobin {
                column = k % columns
            } else {
                var lowest = bottoms[0]
                for c in 1..<columns where bottoms[c] < lowest { lowest = bottoms[c] }
                while bottoms[column] > lowest + tolerance { column += 1 }
            }
            let span = spans[column]
            let height = Fitting.scaledHeight(of: sizes[index], toWidth: span.width)
            let parts = cell(x: span.x, y: bottoms[column], width: span.width, imageHeight: height)
            try put(Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section), at: index)
            bottoms[column] = parts.cell.maxY + config.rowGap
            used[column] = true
        }
        let end = (0..<columns).filter { used[$0] }.map { bottoms[$0] - config.rowGap }.max() ?? cursor
        try endBlock(at: end)
    }

    /// Uniform cells, row by row; images cover (cropped) or are contained (letterboxed).
    mutating func placeGrid(_ items: [Int], section: Int) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        let base = spans.map(\.width).min() ?? 1
        let aspect = config.cellAspect
        let imageHeight = max(1, (base * aspect.height * 2 + aspect.width) / (2 * aspect.width))
        let rowHeight = imageHeight + config.captionHeight
        var rowTop = cursor
        var row = 0
        var end = cursor
        for (k, index) in items.enumerated() {
            let r = k / columns
            while row < r {
                row += 1  // rows are 1-based in rowGapsAfter: extra space after row `row`
                rowTop += rowHeight + config.rowGap + (config.rowGapsAfter[row] ?? 0)
            }
            let span = spans[k % columns]
            let parts = cell(x: span.x, y: rowTop, width: span.width, imageHeight: imageHeight)
            var placement = Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section)
            switch config.fit {
            case .cover: placement.crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
            case .contain: placement.image = Fitting.contain(sizes[index], in: parts.image)
            }
            try put(placement, at: index)
            end = parts.cell.maxY
        }
        try endBlock(at: end)
    }

    /// Instagram-style blocks two rows high: a 2×2 tile left with small squares beside it,
    /// two rows of small squares, small squares with a 2×2 tile right, two rows of small
    /// squares, and again. Every tile covers its cell.
    mutating func placeMosaic(_ items: [Int], section: Int) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        let side = spans.map(\.width).min() ?? 1
        let rowHeight = side + config.captionHeight
        let gap = config.rowGap
        var cells: [(x: Int, width: Int, row: Int, big: Bool)] = []  // one block's cells, reading order
        var block = 0
        var next = 0
        var end = cursor
        for index in items {
            if next == cells.count {
                if next > 0 { block += 1 }
                cells = Self.mosaicBlock(block % 4, spans: spans, columns: columns)
                next = 0
            }
            let c = cells[next]
            next += 1
            let top = cursor + block * 2 * (rowHeight + gap) + c.row * (rowHeight + gap)
            let imageHeight = c.big ? 2 * rowHeight + gap - config.captionHeight : side
            let parts = cell(x: c.x, y: top, width: c.width, imageHeight: imageHeight)
            let crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
            try put(Placement(cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section), at: index)
            end = max(end, parts.cell.maxY)
        }
        try endBlock(at: end)
    }

    static func mosaicBlock(_ pattern: Int, spans: [(x: Int, width: Int)], columns: Int) -> [(x: Int, width: Int, row: Int, big: Bool)] {
        func small(_ c: Int, _ row: Int) -> (x: Int, width: Int, row: Int, big: Bool) { (spans[c].x, spans[c].width, row, false) }
        func big(_ c: Int) -> (x: Int, width: Int, row: Int, big: Bool) {
            (spans[c].x, spans[c + 1].x + spans[c + 1].width - spans[c].x, 0, true)
        }
        switch pattern {
        case 0:
            return [big(0)] + (0..<2).flatMap { row in (2..<columns).map { small($0, row) } }
        case 2:
            let beside = (0..<(columns - 2)).map { small($0, 0) }
            return beside + [big(columns - 2)] + (0..<(columns - 2)).map { small($0, 1) }
        default:
            return (0..<2).flatMap { row in (0..<columns).map { small($0, row) } }
        }
    }
}
