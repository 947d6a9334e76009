import WallCodecs

/// What becomes of pictures rated as rejected.
public enum RejectedPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Drawn, as below any `--min-rating`.
    case include
    /// Left out.
    case exclude
    /// Drawn alone: a sheet of the rejects, to look at before deleting them.
    case only
}

/// Which pictures are drawn by their rating (`PictureRating`): at least ``minimum`` stars,
/// unrated ones counting as 0 and rejects as below any, and rejects as ``rejected`` says.
public struct RatingFilter: Sendable, Hashable {
    /// The fewest stars a picture is drawn with; `nil` for any.
    public var minimum: Int?
    /// What becomes of rejects.
    public var rejected: RejectedPolicy = .include

    /// Every picture drawn.
    public init(minimum: Int? = nil, rejected: RejectedPolicy = .include) {
        self.minimum = minimum
        self.rejected = rejected
    }

    /// Whether any picture can be left out, so that ratings must be read.
    public var isActive: Bool { minimum != nil || rejected != .include }

    /// Why a picture is left out.
    public enum Omission: String, Sendable, Hashable, Codable {
        /// Rated under the minimum (or unrated, under a minimum above 0).
        case belowMinimum = "below-min-rating"
        /// A reject.
        case rejected
        /// Not a reject, on a sheet of the rejects alone.
        case notRejected = "not-rejected"

        /// "rated under --min-rating".
        public var explanation: String {
            switch self {
            case .belowMinimum: return "rated under --min-rating"
            case .rejected: return "rejected"
            case .notRejected: return "not a reject (--rejected only)"
            }
        }
    }

    /// Why a picture rated `rating` is left out; `nil` when it is drawn.
    public func omission(_ rating: PictureRating) -> Omission? {
        switch rejected {
        case .only: return rating.isRejected ? nil : .notRejected
        case .exclude where rating.isRejected: return .rejected
        default: break
        }
        if rating.isRejected { return minimum == nil ? nil : .rejected }
        guard let minimum else { return nil }
        return (rating.stars ?? 0) >= minimum ? nil : .belowMinimum
    }
}

/// A picture left out by its rating, and why.
public struct RatedOut: Sendable, Hashable, Codable {
    /// The path as the user gave it.
    public var path: String
    /// Why it is left out.
    public var reason: RatingFilter.Omission

    /// `path`, left out for `reason`.
    public init(path: String, reason: RatingFilter.Omission) {
        self.path = path
        self.reason = reason
    }
}

/// Which pages of a file of several (a PDF) are drawn.
public enum PageSelection: String, Sendable, Hashable, Codable, CaseIterable {
    /// The first, as the file's one tile.
    case first
    /// Each page as a tile of its own, in order.
    case all
}
