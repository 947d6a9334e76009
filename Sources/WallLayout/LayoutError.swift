import WallCore

/// A layout that cannot be made from the given configuration: a case to branch on, and the
/// reason in words.
public enum LayoutError: WallError, Hashable {
    /// An option out of its range, or options that cannot work together: the option at fault
    /// (named as the manifest codes it: `columnGap`, `padding`, `width`) and what is wrong.
    case option(String, reason: String)
    /// An option given to a layout that does not take it (`spanWide` to a grid): the option,
    /// the layout, and which layouts take it.
    case notForLayout(String, layout: LayoutKind, takenBy: [LayoutKind], reason: String)
    /// Sizes the engine cannot place (an image without area, sections that do not match).
    case unplaceable(reason: String)
    /// The wall, or a block on a page, would be larger than a sheet can be.
    case tooLarge(reason: String)

    /// What is wrong, in words.
    public var reason: String {
        switch self {
        case .option(_, let reason), .notForLayout(_, _, _, let reason), .unplaceable(let reason),
            .tooLarge(let reason):
            reason
        }
    }

    /// What is wrong, in a sentence.
    public var message: String { "invalid layout: \(reason)" }
}
