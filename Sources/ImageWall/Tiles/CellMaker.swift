import WallCompositor
import WallCore
import WallLayout
import WallText

/// Turns a tile's resampled pixels into its cell (decorated, with its caption) and draws the
/// sheet's title and section headers, for one plan.
package struct CellMaker: Sendable {
    let plan: Plan
    let rendering: RenderSettings
    let textColor: RGBAColor
    let captionFace: FontFace?
    let headingFace: FontFace?

    init(plan: Plan, options: WallOptions) throws {
        self.plan = plan
        rendering = options.rendering
        textColor = options.resolvedTextColor
        let needsHeadings = plan.arrangement.title != nil || !plan.arrangement.sectionHeaders.isEmpty
        captionFace = rendering.caption != nil ? try FontFace(named: rendering.font ?? FontFace.defaultPath) : nil
        headingFace = needsHeadings ? try FontFace(named: rendering.font ?? FontFace.boldPath) : nil
    }

    /// Tile `index`'s cell from its resampled pixels: decorated, with its caption.
    func cell(_ index: Int, pixels: Bitmap) throws -> Bitmap {
        let image = plan.images[index]
        let placement = plan.arrangement.placements[index]
        let origin = Point(x: placement.image.x - placement.cell.x, y: placement.image.y - placement.cell.y)
        var texts: [TextStamp] = []
        if let template = rendering.caption, let face = captionFace, let band = placement.caption {
            let text = template.expand(image, index: plan.wallIndex(of: index))
            let box = Rect(
                x: band.x - placement.cell.x, y: band.y - placement.cell.y, width: band.width, height: band.height)
            if let stamp = try stamp(
                text, face: face, pixelSize: rendering.captionFontSize(height: band.height), in: box, centered: true)
            {
                texts.append(stamp)
            }
        }
        if placement.cell == placement.image && rendering.style.isPlain && texts.isEmpty { return pixels }
        return CellPainter.paint(
            size: placement.cell.size, image: pixels, at: origin, style: rendering.style, texts: texts)
    }

    /// The title band across the first page.
    func title(size: Size) throws -> Bitmap {
        try heading(rendering.title ?? "", size: size, pixelSize: rendering.titleFontSize, centered: true)
    }

    /// A section's header band, titled with its folder.
    func header(_ header: SectionHeader) throws -> Bitmap {
        let title = plan.sectionTitles.indices.contains(header.section) ? plan.sectionTitles[header.section] : ""
        let pixelSize = max(8, min(26, header.frame.height * 11 / 20))
        return try heading(title, size: header.frame.size, pixelSize: pixelSize, centered: false)
    }

    /// The title as a printed page's header band shows it (a PDF's pages after the first): in
    /// the headings' face, left-aligned, dark on the white paper, RGB; `nil` without a title.
    func printedTitle(size: Size, pixelSize: Int) throws -> Bitmap? {
        guard let text = rendering.title, !text.isEmpty else { return nil }
        let face = try headingFace ?? FontFace(named: rendering.font ?? FontFace.boldPath)
        let box = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let ink = RGBAColor(red: 34, green: 34, blue: 34)
        let stamps =
            try stamp(text, face: face, pixelSize: pixelSize, in: box, centered: false, inset: 0, color: ink)
            .map { [$0] } ?? []
        return Alpha.flattened(CellPainter.paint(size: size, image: nil, texts: stamps), over: .white)
    }

    private func heading(_ text: String, size: Size, pixelSize: Int, centered: Bool) throws -> Bitmap {
        guard let face = headingFace else { return CellPainter.paint(size: size, image: nil) }
        let box = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let stamps = try stamp(text, face: face, pixelSize: pixelSize, in: box, centered: centered).map { [$0] } ?? []
        return CellPainter.paint(size: size, image: nil, texts: stamps)
    }

    /// `text` fitted (with an ellipsis) into `box`, vertically centred, clipped to the box, in
    /// `color` (the sheet's text colour unless said), `inset` from the box's sides (a little,
    /// unless said).
    private func stamp(
        _ text: String, face: FontFace, pixelSize: Int, in box: Rect, centered: Bool, inset: Int? = nil,
        color: RGBAColor? = nil
    ) throws -> TextStamp? {
        let inset = inset ?? min(4, box.width / 8)
        let fitted = try face.fitting(text, width: box.width - 2 * inset, pixelSize: pixelSize)
        guard !fitted.isEmpty else { return nil }
        let line = try face.render(fitted, pixelSize: pixelSize)
        let x = centered ? box.x + (box.width - line.size.width) / 2 : box.x + inset
        let y = box.y + (box.height - line.size.height) / 2
        return TextStamp(mask: line.mask, origin: Point(x: x, y: y), color: color ?? textColor, clip: box)
    }
}
