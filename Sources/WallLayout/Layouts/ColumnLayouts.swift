import WallCore

extension LayoutEngine {
    /// Masonry (shortest column, leftmost within the tie tolerance) or the round-robin
    /// waterfall: images at column width, aspect kept. A tile that does not fit on the page
    /// starts the next one, all columns level again.
    mutating func placeColumns(_ items: [Int], section: Int, roundRobin: Bool) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        var bottoms = [Int](repeating: cursor, count: columns)
        let tolerance = config.tieTolerance
        func choose(_ k: Int) -> Int {
            if roundRobin { return k % columns }
            var lowest = bottoms[0]
            for c in 1..<columns where bottoms[c] < lowest { lowest = bottoms[c] }
            var column = 0
            while bottoms[column] > lowest + tolerance { column += 1 }
            return column
        }
        for (k, index) in items.enumerated() {
            var column = choose(k)
            let span = spans[column]
            let height = Fitting.scaledHeight(of: sizes[index], toWidth: span.width)
            if !fits(bottoms[column] + height + config.captionHeight) {
                cursor = bottoms[column]
                if try ensureRoom(height + config.captionHeight) {
                    bottoms = [Int](repeating: cursor, count: columns)
                    column = choose(k)
                }
            }
            let parts = cell(x: spans[column].x, y: bottoms[column], width: spans[column].width, imageHeight: height)
            try put(Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section), at: index)
            bottoms[column] = parts.cell.maxY + config.rowGap
            bottom = max(bottom, parts.cell.maxY)
        }
        try endBlock(at: bottom)
    }

    /// Uniform cells, row by row; images cover (cropped) or are contained (letterboxed).
    mutating func placeGrid(_ items: [Int], section: Int) throws(LayoutError) {
        let spans = columnGrid().spans
        let columns = spans.count
        let base = spans.map(\.width).min() ?? 1
        let aspect = config.cellAspect
        let imageHeight = max(1, (base * aspect.height * 2 + aspect.width) / (2 * aspect.width))
        var row = 0
        for start in stride(from: 0, to: items.count, by: columns) {
            row += 1  // 1-based, as in rowGapsAfter
            try ensureRoom(imageHeight + config.captionHeight)
            var rowBottom = cursor
            for (c, index) in items[start..<min(items.count, start + columns)].enumerated() {
                let parts = cell(x: spans[c].x, y: cursor, width: spans[c].width, imageHeight: imageHeight)
                var placement = Placement(cell: parts.cell, image: parts.image, caption: parts.caption, section: section)
                switch config.fit {
                case .cover: placement.crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
                case .contain: placement.image = Fitting.contain(sizes[index], in: parts.image)
                }
                try put(placement, at: index)
                rowBottom = parts.cell.maxY
            }
            try endBlock(at: rowBottom)
            cursor += config.rowGapsAfter[row] ?? 0
        }
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
        var next = 0
        var block = 0
        while next < items.count {
            let cells = Self.mosaicBlock(block % 4, spans: spans, columns: columns)
            let used = cells.prefix(items.count - next)
            let rows = used.contains { $0.big || $0.row == 1 } ? 2 : 1
            try ensureRoom(rows * rowHeight + (rows - 1) * gap)
            var blockBottom = cursor
            for c in used {
                let index = items[next]
                next += 1
                let imageHeight = c.big ? 2 * rowHeight + gap - config.captionHeight : side
                let parts = cell(x: c.x, y: cursor + c.row * (rowHeight + gap), width: c.width, imageHeight: imageHeight)
                let crop = Fitting.cover(sizes[index], in: parts.image.size, gravity: config.gravity)
                try put(Placement(cell: parts.cell, image: parts.image, caption: parts.caption, crop: crop, section: section), at: index)
                blockBottom = max(blockBottom, parts.cell.maxY)
            }
            try endBlock(at: blockBottom)
            block += 1
        }
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
