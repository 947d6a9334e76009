import WallCore
import WallFiles
import WallLayout

extension Manifest {
    /// Checks every value a render takes from the manifest, as it is read (a manifest may be
    /// edited by hand, or by another tool): the layout's options; every page's size; every
    /// tile's page, rectangles (the image inside its cell, both on the page), source size,
    /// orientation and crop (inside the source); section headers and the title on their
    /// pages. The first value out of range is a ``ManifestError`` naming the tile (its index
    /// and source) and the field, never a crash, a smear or a tile clipped in silence.
    func validate(path: String) throws(ManifestError) {
        func fail(_ what: String) -> ManifestError {
            ManifestError(path, .notDrawable, "not a manifest ImageWall can draw: \(what)")
        }
        guard (1...Manifest.currentVersion).contains(version) else {
            throw fail("version \(version), where this ImageWall reads versions 1 to \(Manifest.currentVersion)")
        }
        if let problem = render?.problem { throw fail("render: \(problem)") }
        do {
            try layout.configuration.validate()
        } catch {
            throw fail("layout: \(error.message)")
        }
        let pages = pageSizes
        for (number, page) in pages.enumerated() {
            guard page.width >= 1, page.height >= 1, page.width <= Manifest.largestSide,
                page.height <= Manifest.largestSide
            else {
                throw fail("page \(number + 1) is \(page.width)x\(page.height) px")
            }
        }
        // What names a tile or a box is put into words only for an error: a million tiles pass.
        func box(_ box: Box, on page: Int, _ what: @autoclosure () -> String) throws(ManifestError) {
            guard box.width >= 1, box.height >= 1 else {
                throw fail("\(what()) is \(box.width)x\(box.height) px (width and height must be at least 1)")
            }
            guard pages.indices.contains(page) else { throw fail("\(what()) is on page \(page + 1) of \(pages.count)") }
            let size = pages[page]
            guard box.x >= 0, box.y >= 0, box.x <= size.width - box.width, box.y <= size.height - box.height else {
                throw fail(
                    "\(what()) (\(box.width)x\(box.height) at \(box.x),\(box.y)) does not fit on its "
                        + "\(size.width)x\(size.height) px page")
            }
        }
        // Each tile checked where it lies: a copy of each of a million tiles (their strings
        // retained and released) took longer than reading them.
        try tiles.withUnsafeBufferPointer { (tiles) throws(ManifestError) in
            for index in tiles.indices {
                let tile = tiles.baseAddress! + index
                var name: String { "tile \(tile.pointee.index) (\(tile.pointee.source))" }
                guard tile.pointee.index >= 0 else { throw fail("\(name): index \(tile.pointee.index)") }
                if let root = tile.pointee.root,
                    let problem = sourceProblem(tile.pointee.source, path: tile.pointee.path, root: root)
                {
                    throw fail("\(name): \(problem)")
                }
                let image = Box(
                    Rect(x: tile.pointee.x, y: tile.pointee.y, width: tile.pointee.width, height: tile.pointee.height))
                try box(image, on: tile.pointee.page, "\(name): its image")
                try box(tile.pointee.cell, on: tile.pointee.page, "\(name): its cell")
                if let caption = tile.pointee.caption {
                    try box(caption, on: tile.pointee.page, "\(name): its caption")
                }
                guard tile.pointee.cell.rect.contains(image.rect) else {
                    throw fail("\(name): its image lies outside its cell")
                }
                guard tile.pointee.sourceWidth >= 1, tile.pointee.sourceHeight >= 1 else {
                    throw fail("\(name): its source is \(tile.pointee.sourceWidth)x\(tile.pointee.sourceHeight) px")
                }
                guard (1...8).contains(tile.pointee.orientation) else {
                    throw fail("\(name): orientation \(tile.pointee.orientation)")
                }
                if let crop = tile.pointee.crop {
                    // The crop lies inside the source, up to the rounding of its printed values.
                    let slack = 0.01
                    guard crop.x.isFinite, crop.y.isFinite, crop.width.isFinite, crop.height.isFinite, crop.x >= 0,
                        crop.y >= 0, crop.width > 0, crop.height > 0,
                        crop.x + crop.width <= Double(tile.pointee.sourceWidth) + slack,
                        crop.y + crop.height <= Double(tile.pointee.sourceHeight) + slack
                    else {
                        throw fail(
                            "\(name): its crop (\(crop.width)x\(crop.height) at \(crop.x),\(crop.y)) is not inside its "
                                + "\(tile.pointee.sourceWidth)x\(tile.pointee.sourceHeight) source")
                    }
                }
                if let duration = tile.pointee.duration, !(duration.isFinite && duration >= 0) {
                    throw fail("\(name): duration \(duration)")
                }
            }
        }
        for section in sections {
            try box(section.header, on: section.page, "section \(section.index) (\(section.title)): its header")
        }
        if let title { try box(title.box, on: 0, "the title's band") }
    }

    /// The longest side a page may have: PNG's limit.
    static let largestSide = Int(Int32.max)

    /// Whether `source` is `path`, or ends in "/" and `path` (as a render writes it): checked on
    /// the bytes, nothing made for each of a manifest's tiles.
    private static func ends(_ source: String, withPath path: String) -> Bool {
        let whole = source.utf8, tail = path.utf8
        guard whole.count >= tail.count, whole.suffix(tail.count).elementsEqual(tail) else { return false }
        return whole.count == tail.count || whole.dropLast(tail.count).last == UInt8(ascii: "/")
    }

    /// The newest version of the manifest this ImageWall writes and reads.
    static let currentVersion = 1

    /// What is wrong with where a tile's source is: its `root` not one of the roots, or its
    /// source not ending in its path under that root (a source edited by hand, `/etc/passwd`,
    /// is not read in place of `a.jpg`); `nil` when nothing is. The source may lie elsewhere
    /// than the root as listed: a render replayed with `--root`, or from a manifest that moved
    /// with its sources, records where it found each file.
    private func sourceProblem(_ source: String, path relative: String?, root: Int) -> String? {
        guard let roots, roots.indices.contains(root) else {
            return "root \(root) of the \(roots?.count ?? 0) the manifest lists"
        }
        guard let relative, !relative.isEmpty, !Self.ends(source, withPath: relative) else {
            return nil  // as a render writes it; else compared as paths, `./` and `//` aside
        }
        let expected = FilePaths.components(of: relative).filter { $0 != "." }
        guard FilePaths.components(of: source).filter({ $0 != "." }).suffix(expected.count).elementsEqual(expected)
        else {
            return "its source is not its path \(relative) under its root \(roots[root].path)"
        }
        return nil
    }
}

extension Rect {
    /// Whether `other` lies wholly inside this rectangle.
    fileprivate func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}
