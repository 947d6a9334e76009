import WallCompositor

/// Which pictures are drawn as one tile (`--stack`).
public enum StackMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Pictures taken within ``StackOptions/gap`` seconds of the one before that look alike: a
    /// burst, or frames of one moment.
    case bursts
    /// Pictures that look alike whenever they were taken: copies, re-encodes, resized versions.
    case similar
}

/// How pictures are stacked: which ones go together, and how alike they must be.
public struct StackOptions: Sendable, Hashable {
    /// What goes together.
    public var mode: StackMode
    /// For bursts, the longest time between two pictures of one stack, in seconds.
    public var gap: Int
    /// The most bits of 64 two pictures' perceptual hashes may differ by and be stacked (see
    /// ``PictureFingerprint``): a re-encoded or resized copy differs by 0 to 4, frames of one
    /// moment by a few more, unrelated pictures by about 32.
    public var distance: Int

    /// The default distances: bursts, which are close in time too, may differ more.
    public static func defaultDistance(for mode: StackMode) -> Int { mode == .bursts ? 14 : 10 }

    /// Stacks by `mode`, at the default gap (2 s) and distance.
    public init(mode: StackMode, gap: Int = 2, distance: Int? = nil) {
        self.mode = mode
        self.gap = gap
        self.distance = distance ?? Self.defaultDistance(for: mode)
    }
}

/// Pictures drawn as one tile: the one drawn stands for the others.
public struct PictureStack: Sendable, Hashable, Codable {
    /// How the pictures came together.
    public var by: StackMode
    /// Every picture of the stack as the user gave it, the one drawn among them, in the order
    /// they were taken (for bursts) or in the wall's order.
    public var members: [String]
    /// Why the one drawn was chosen.
    public var chosenBy: Choice
    /// The other files of the pictures not drawn (a RAW+JPEG pair's RAW file, a Live Photo's
    /// movie), which they stood for; `nil` when they have none.
    public var companions: [String]?

    /// Why a stack's picture was the one drawn.
    public enum Choice: String, Sendable, Hashable, Codable {
        /// It has the most stars.
        case rating
        /// It has the most pixels of those rated highest: the original of smaller copies.
        case largest
        /// It is the sharpest (`PictureFingerprint.sharpness`) of those rated highest and as large.
        case sharpest
    }

    /// A stack of `members`, drawn as the one chosen by `chosenBy`.
    public init(by: StackMode, members: [String], chosenBy: Choice, companions: [String]? = nil) {
        self.by = by
        self.members = members
        self.chosenBy = chosenBy
        self.companions = companions
    }

    /// How many pictures the drawn one stands for besides itself: the badge's "+4".
    public var hidden: Int { members.count - 1 }
}

/// A picture's perceptual hash and sharpness, what stacks are found and chosen by (from the
/// compositor).
public typealias PictureFingerprint = WallCompositor.PictureFingerprint
