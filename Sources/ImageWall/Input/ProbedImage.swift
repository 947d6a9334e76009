import WallCodecs
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
    /// The input it came from (an index into the plan's ``Plan/roots``) and its path under it.
    public var origin: Origin?
    /// Why the image is not to be drawn though it can be read (a replayed source that changed,
    /// under `--strict`): it is drawn as a placeholder with this reason.
    public var refusal: String?
    /// The other files of the same picture, drawn as this one tile: a Live Photo's movie, a
    /// RAW+JPEG pair's RAW file (see `Pairing`).
    public var companions: [String] = []
    /// How this file stands for the companions it is drawn with, when it has any.
    public var pairing: TileMark?
    /// The stack this picture is drawn for (`--stack`), when it stands for others.
    public var stack: PictureStack?

    /// The file itself: the device and inode it is on, however many paths reach it.
    public var file: FileID?

    /// A file as the file system knows it: one whatever path or link names it.
    public struct FileID: Sendable, Hashable {
        /// The device holding it.
        public var device: UInt64
        /// Its inode on that device.
        public var inode: UInt64
    }

    /// Reads the file's size, modification time and identity from the file system (left as
    /// they are when the file cannot be looked at).
    mutating func readFileStatus() {
        var status = stat()
        guard stat(path.systemPath, &status) == 0 else { return }
        fileSize = Int(status.st_size)
        modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        file = FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether the file at `path` is no longer the one whose status was read: another file
    /// (replaced by a rename), another size or another modification time. `false` when it was
    /// never read or cannot be looked at now (decoding will say why).
    func fileChanged() -> Bool {
        guard let file else { return false }
        var now = self
        now.readFileStatus()
        return now.file != file || now.fileSize != fileSize || now.modified != modified
    }

    /// What its tile is marked as: a video, a Live Photo's still, a RAW+JPEG pair's JPEG.
    public var mark: TileMark? { pairing ?? (info.format == .video ? .video : nil) }

    /// Where a source was found: a root and its path under that root.
    public struct Origin: Sendable, Hashable {
        /// The root's index.
        public var root: Int
        /// The path under the root.
        public var path: String
    }
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
    /// The inputs the images came from (folders, or the folders of files given), as given.
    public var roots: [String] = []
    /// Folders whose images were not taken, and why.
    public var foldersNotRead: [FolderNotRead] = []
    /// How many files the `--include` and `--exclude` globs left out.
    public var filteredOut = 0
    /// Sheets and pyramids ImageWall wrote, found in the folders given and left out.
    public var ownOutputs: [String] = []
    /// Files given more than once, drawn once.
    public var repeats: [RepeatedInput] = []
    /// Pictures left out by their rating (`--min-rating`, `--rejected`).
    public var ratedOut: [RatedOut] = []
}
