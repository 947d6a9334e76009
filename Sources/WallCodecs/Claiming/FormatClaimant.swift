/// Something that recognises files by their signature: every codec, and the catalogues of
/// formats known but not read. ``FileClaim/identify(_:)`` asks them in order of `priority`,
/// highest first, and the first that claims a file has it, so a reader of a special kind of
/// container (RAW camera files are TIFF inside, videos ISO-BMFF as HEIF is) goes ahead of the
/// container's own codec, as libvips' loaders do.
protocol FormatClaimant: Sendable {
    /// Where the claimant stands in the order: see ``ClaimPriority``.
    var priority: ClaimPriority { get }

    /// What the claimant makes of `file`, or `nil` when it is not one of its own.
    func claim(_ file: FileSignature) -> FileClaim?
}

/// The order claimants are asked in, highest first.
struct ClaimPriority: Comparable, Sendable {
    var rank: Int

    /// Readers of special kinds of containers, ahead of the containers' codecs (RAW files).
    static let specialised = ClaimPriority(rank: 300)
    /// Formats told apart by a signature of their own (JPEG, PNG, WebP, GIF).
    static let signature = ClaimPriority(rank: 200)
    /// Containers other formats are made of (TIFF, ISO-BMFF).
    static let container = ClaimPriority(rank: 100)
    /// Formats known but not read, by their signature or extension: asked last.
    static let catalogue = ClaimPriority(rank: 0)

    static func < (a: ClaimPriority, b: ClaimPriority) -> Bool { a.rank < b.rank }
}

extension FileClaim {
    /// Every claimant, highest priority first (a stable order among equals).
    static let claimants: [any FormatClaimant] = {
        // Each codec taken up one by one (its conformance is known statically): a cast of the
        // whole array would look each codec's conformance up at run time, through every one
        // the program has.
        let all: [any FormatClaimant] = ImageFormat.codecs.map { $0 as any FormatClaimant } + [UnreadFormat()]
        return all.enumerated().sorted { a, b in
            a.element.priority != b.element.priority ? a.element.priority > b.element.priority : a.offset < b.offset
        }.map(\.element)
    }()

    /// What ImageWall makes of `file`: the first claim, in priority order; not an image when
    /// none claims it.
    public static func identify(_ file: FileSignature) -> FileClaim {
        for claimant in claimants {
            if let claim = claimant.claim(file) { return claim }
        }
        return .unread(.notAnImage)
    }
}
