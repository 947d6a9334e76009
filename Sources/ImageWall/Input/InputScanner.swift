import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Turns the paths a user gave into the list of image files to read.
///
/// A file named on the command line is always read (and reported if it is not an image). A
/// folder contributes its files sorted by name: those with the extension of a format ImageWall
/// reads are read and reported if broken; others are read when their first bytes say a format
/// ImageWall reads, reported when they are images of another format (BMP, JPEG XL, SVG, …), and
/// otherwise counted as ignored, as are hidden files.
public enum InputScanner {
    /// One file to probe, named as it will appear in messages and the manifest.
    public struct Candidate: Hashable, Sendable {
        /// The path as given, or the folder as given joined with the file's name.
        public var path: String
        /// `true` when the user named the file itself.
        public var isExplicit: Bool
        /// `true` when the file was found in a folder given (not named itself).
        public var inFolder = false
    }

    /// How folders are searched and which files are kept.
    public struct Options: Sendable, Hashable {
        /// Descend into sub-folders (hidden ones excepted).
        public var recursive = false
        /// Keep only files matching one of these globs (all when empty).
        public var include: [String] = []
        /// Drop files matching any of these globs.
        public var exclude: [String] = []
        /// Whether a Live Photo's or a RAW+JPEG pair's files are one tile (see `Pairing`).
        public var pairs: PairPolicy = .together
        /// Files left out by their paths byte for byte, not counted as the globs' (a gallery
        /// leaves out the second of two names that are one text in other Unicode characters).
        public var leftOut: Set<[UInt8]> = []

        /// Options with every default but those given.
        public init(
            recursive: Bool = false, include: [String] = [], exclude: [String] = [], pairs: PairPolicy = .together
        ) {
            self.recursive = recursive
            self.include = include
            self.exclude = exclude
            self.pairs = pairs
        }

        /// fnmatch's FNM_CASEFOLD (1 << 4 in glibc and musl), a GNU extension Swift does not import.
        static let caseFold: Int32 = 1 << 4

        /// Whether `path` passes the globs. A glob with a slash is matched against the whole
        /// path, one without against the file name (`*.jpg`, `IMG_0???.*`); case is ignored,
        /// so `*.jpg` keeps a camera's `IMG_0001.JPG`.
        public func keeps(_ path: String) -> Bool {
            let name = FilePaths.name(of: path)
            func matches(_ glob: String) -> Bool {
                fnmatch(glob, glob.contains("/") ? path : name, Options.caseFold) == 0
            }
            if !include.isEmpty && !include.contains(where: matches) { return false }
            return !exclude.contains(where: matches)
        }
    }

    /// What a set of arguments holds: the files to probe, and the files of its folders that
    /// are not images (counted and listed, never silently dropped).
    public struct Scan: Sendable {
        /// Files to probe, in argument order.
        public var candidates: [Candidate]
        /// Folder files that are not images (text, video, hidden files), in argument order.
        public var ignored: [String]
        /// Folders not read: sub-folders without `-r`, and folders reached a second time.
        public var foldersNotRead: [FolderNotRead] = []
        /// Files the `--include` and `--exclude` globs left out.
        public var filteredOut: [String] = []
        /// Deep Zoom pyramids' tile folders (`NAME_files` beside `NAME.dzi`): ImageWall's own
        /// outputs, not entered.
        public var ownOutputs: [String] = []
        /// Files given again (see ``RepeatedInput``), left out of the candidates.
        public var repeats: [RepeatedInput] = []
    }

    /// Expands `arguments` into candidates, in argument order.
    public static func candidates(for arguments: [String], options: Options = Options()) -> [Candidate] {
        scan(arguments, options: options).candidates
    }

    /// Expands `arguments`: a file is always a candidate; a folder's files are candidates when
    /// their extension or first bytes say image (one ImageWall reads, or another one, which is
    /// then reported as unsupported), and ignored otherwise.
    public static func scan(_ arguments: [String], options: Options = Options()) -> Scan {
        var result = Scan(candidates: [], ignored: [])
        var visited = Set<FileIdentity>()
        for argument in arguments {
            var status = stat()
            if stat(argument.systemPath, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                scanFolder(
                    argument, identity: FileIdentity(status), recursive: options.recursive, visited: &visited,
                    into: &result)
            } else {
                result.candidates.append(Candidate(path: argument, isExplicit: true))
            }
        }
        if !options.leftOut.isEmpty {
            result.candidates.removeAll { options.leftOut.contains(Array($0.path.utf8)) }
            result.ignored.removeAll { options.leftOut.contains(Array($0.utf8)) }
        }
        result.filteredOut = result.candidates.map(\.path).filter { !options.keeps($0) }
        result.candidates = result.candidates.filter { options.keeps($0.path) }
        result.ignored = result.ignored.filter { options.keeps($0) }
        (result.candidates, result.repeats) = once(result.candidates)
        return result
    }

    /// `candidates` with each file once, where it first comes, and the repeats: the same file
    /// by its device and inode, or the same path for one that cannot be looked at (it is then
    /// reported once).
    static func once(_ candidates: [Candidate]) -> (kept: [Candidate], repeats: [RepeatedInput]) {
        var files: [FileIdentity: String] = [:]
        var paths: [String: String] = [:]
        var kept: [Candidate] = []
        var repeats: [RepeatedInput] = []
        for candidate in candidates {
            var status = stat()
            let first: String?
            if stat(candidate.path.systemPath, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                let identity = FileIdentity(status)
                first = files[identity]
                if first == nil { files[identity] = candidate.path }
            } else {
                first = paths[candidate.path]
                if first == nil { paths[candidate.path] = candidate.path }
            }
            if let first {
                repeats.append(RepeatedInput(path: candidate.path, sameAs: first))
            } else {
                kept.append(candidate)
            }
        }
        return (kept, repeats)
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path.systemPath, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// A file or folder as the file system knows it, whatever path reached it.
    struct FileIdentity: Hashable {
        var device: UInt
        var inode: UInt

        /// The identity `stat` gave.
        init(_ status: stat) {
            device = UInt(status.st_dev)
            inode = UInt(status.st_ino)
        }
    }

    /// The folder's files in name order; with `recursive`, each sub-folder's files where the
    /// sub-folder's name falls (hidden sub-folders are not entered). A folder already read
    /// (through a link back to a parent, or given twice) is read once and noted; without
    /// `recursive` every sub-folder is noted.
    static func scanFolder(
        _ folder: String, identity: FileIdentity, recursive: Bool, visited: inout Set<FileIdentity>,
        into result: inout Scan
    ) {
        guard visited.insert(identity).inserted else {
            result.foldersNotRead.append(FolderNotRead(path: folder, reason: .alreadyRead))
            return
        }
        guard let entries = directoryEntries(at: folder) else {
            result.candidates.append(Candidate(path: folder, isExplicit: true))
            return
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let imageExtensions = Set(ImageFormat.allCases.flatMap(\.extensions))
        let names = entries.map(\.name)
        // Deep Zoom pyramids written here before: each descriptor and its tiles folder.
        let pyramids = Set(names.filter(isPyramid))
        let tileFolders = Set(pyramids.map(DeepZoomGeometry.tilesFolder(of:)))
        let present = Set(names)
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = prefix + name
            var status = stat()
            guard stat(path.systemPath, &status) == 0 else {
                // A dangling link or a vanished file: reported when it looks like an image.
                if hasExtension(name, in: imageExtensions) {
                    result.candidates.append(Candidate(path: path, isExplicit: true, inFolder: true))
                } else {
                    result.ignored.append(path)
                }
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                if name.hasPrefix(".") { continue }
                if tileFolders.contains(name) || OwnFolders.isOwn(name, in: folder, present: present) {
                    result.ownOutputs.append(path)
                    continue
                }
                if recursive {
                    scanFolder(
                        path, identity: FileIdentity(status), recursive: true, visited: &visited, into: &result)
                } else {
                    result.foldersNotRead.append(FolderNotRead(path: path, reason: .notRecursive))
                }
            case S_IFREG:
                if name.hasPrefix(".") {
                    result.ignored.append(path)
                } else if pyramids.contains(name), present.contains(DeepZoomGeometry.tilesFolder(of: name)) {
                    result.ownOutputs.append(path)
                } else if hasExtension(name, in: imageExtensions) {
                    result.candidates.append(Candidate(path: path, isExplicit: true, inFolder: true))
                } else {
                    switch kind(of: path) {
                    case .readable: result.candidates.append(Candidate(path: path, isExplicit: false, inFolder: true))
                    case .otherImage: result.candidates.append(Candidate(path: path, isExplicit: true, inFolder: true))
                    case .notAnImage: result.ignored.append(path)
                    }
                }
            default:
                result.ignored.append(path)
            }
        }
    }

    /// Whether a folder's file at `path` is one a render of the folder takes: an image by its
    /// extension, or else by its first bytes (one ImageWall reads, or another it reports).
    package static func looksLikeImage(_ path: String) -> Bool {
        hasExtension(FilePaths.name(of: path), in: Set(ImageFormat.allCases.flatMap(\.extensions)))
            || kind(of: path) != .notAnImage
    }

    /// Whether `name` is a Deep Zoom pyramid's descriptor, as ``PageFormat`` names them.
    package static func isPyramid(_ name: String) -> Bool {
        (try? PageFormat(path: name)) == .deepZoom
    }

    static func hasExtension(_ name: String, in extensions: Set<String>) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    enum Kind { case readable, otherImage, notAnImage }

    /// What a file without an image extension holds, from its first bytes (and for formats
    /// known by extension only, such as RAW camera files, its name).
    static func kind(of path: String) -> Kind {
        let fd = open(path.systemPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .otherImage }  // unreadable: let the probe say why
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 4096) }
        guard got > 0 else { return .notAnImage }
        switch FileClaim.identify(FileSignature(head: bytes.prefix(got), path: path)) {
        case .image: return .readable
        case .unread(let reason): return reason.isImage ? .otherImage : .notAnImage
        }
    }
}
