import WallCodecs
import WallCore
import WallFiles

/// Whether files that hold one picture are drawn as one tile.
public enum PairPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// A Live Photo (a still and its movie) and a RAW+JPEG pair are one tile: the still or the
    /// JPEG, marked; the manifest lists the other file with it.
    case together
    /// Every file is a tile of its own.
    case separate
}

/// Finds the files of one picture among probed images: in the same folder, with the same name
/// but for the extension (case ignored), one still (JPEG or HEIF) with a RAW file from the same
/// shutter press, or with the movie of a Live Photo.
enum Pairing {
    /// A movie with the still's name is taken for its Live Photo movie when both files carry
    /// the same content identifier, or, when they do not both carry one, when it is this short
    /// (phones record 1.5 s either side of the still).
    static let longestLiveMovie = 6.0

    /// `images` with each picture's companions folded into the still drawn for it, order kept.
    static func joined(_ images: [ProbedImage]) -> [ProbedImage] {
        var groups: [String: [Int]] = [:]
        for (i, image) in images.enumerated() {
            groups[key(image.path), default: []].append(i)
        }
        var result = images
        var folded = Set<Int>()
        for members in groups.values where members.count > 1 {
            let stills = members.filter { [.jpeg, .heif].contains(images[$0].info.format) }
            guard stills.count == 1, let still = stills.first else { continue }
            let raws = members.filter { images[$0].info.format == .raw }
            let movies = members.filter { images[$0].info.format == .video }
            if raws.count == 1 {
                result[still].companions.append(images[raws[0]].path)
                result[still].pairing = images[still].info.format == .jpeg ? .rawAndJPEG : .rawAndHEIF
                folded.insert(raws[0])
            }
            if movies.count == 1, isLive(still: images[still].info, movie: images[movies[0]].info) {
                result[still].companions.append(images[movies[0]].path)
                result[still].pairing = .live
                folded.insert(movies[0])
            }
        }
        return result.indices.filter { !folded.contains($0) }.map { result[$0] }
    }

    /// Whether `movie` is the Live Photo movie of `still`, whose names match.
    static func isLive(still: ImageInfo, movie: ImageInfo) -> Bool {
        if let a = still.contentIdentifier, let b = movie.contentIdentifier { return a == b }
        return (movie.duration ?? .infinity) <= longestLiveMovie
    }

    /// The folder and the name without its extension, lowercased: `dcim/img_0001`.
    static func key(_ path: String) -> String {
        let name = FilePaths.name(of: path)
        return String(path.dropLast(name.count)) + FilePaths.withoutExtension(name).lowercased()
    }
}
