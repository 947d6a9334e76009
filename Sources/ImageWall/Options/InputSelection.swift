/// Which of the inputs are drawn, and in what order: how folders are searched, ratings, a
/// PDF's pages, stacks, and the sort.
public struct InputSelection: Sendable {
    /// How folders are searched and which files are kept.
    public var scan = InputScanner.Options()
    /// Which pictures are drawn by their rating (`--min-rating`, `--rejected`).
    public var rating = RatingFilter()
    /// Which pages of a PDF are drawn (`--pages`).
    public var pages = PageSelection.first
    /// Bursts or look-alikes drawn as one tile each (`--stack`); `nil` draws every picture.
    public var stacking: StackOptions?
    /// The order of the images.
    public var sort: SortOrder = .none
    /// Reverse the order.
    public var reverse = false
    /// The seed of `.random` order.
    public var seed: UInt64 = 0

    /// Every input, in the order given.
    public init() {}
}
