import WallCodecs
import WallCore

/// An image whose header was read.
public struct ProbedImage: Sendable, Hashable {
    /// The path as the user gave it.
    public var path: String
    /// What the header says.
    public var info: ImageInfo
    /// File size in bytes.
    public var fileSize: Int = 0
    /// Modification time, seconds since 1970.
    public var modified: Double = 0
    /// What the image was sorted by, when a sort order was asked for.
    public var sortKey: SortKey?
}

/// The result of probing a set of inputs.
public struct ProbeResult: Sendable {
    /// Readable images, in input order.
    public var images: [ProbedImage]
    /// Inputs that could not be read, in input order.
    public var failures: [CodecError]
    /// How many files were looked at.
    public var candidates: Int
    /// Files in the folders given that are not images, left out.
    public var ignored: [String] = []
}
