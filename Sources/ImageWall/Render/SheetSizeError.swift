import WallCore

/// A render that cannot be written as asked.
public enum SheetSizeError: WallError, Equatable {
    /// A page is larger than PNG allows.
    case beyondPNG(Size)
    /// A page is larger than the sheet pixel cap.
    case overCap(Size, cap: Int)

    /// How big the page would be, the limit it passes, and how to split it.
    public var message: String {
        switch self {
        case .beyondPNG(let size):
            return
                "the sheet would be \(size) px, beyond PNG's limit of 2147483647 px a side; split it into pages with --max-height or --max-pixels"
        case .overCap(let size, let cap):
            let megapixels = (size.area ?? Int.max) / 1_000_000
            return
                "the sheet would be \(size) px (\(megapixels) MP), over the \(cap / 1_000_000) MP limit; split it into pages with --max-height or --max-pixels, or raise --max-sheet-pixels"
        }
    }

    /// Checks page sizes against PNG's limit and `cap` before anything is decoded.
    static func check(_ pages: [Size], cap: Int) throws(SheetSizeError) {
        for page in pages {
            if page.width > 0x7FFF_FFFF || page.height > 0x7FFF_FFFF { throw .beyondPNG(page) }
            if (page.area ?? Int.max) > cap { throw .overCap(page, cap: cap) }
        }
    }
}
