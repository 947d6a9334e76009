import WallCodecs
import WallCore

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
/// ImageWall reads, reported when they are images of another format (BMP, RAW, SVG, …), and
/// otherwise counted as ignored, as are hidden files.
public enum InputScanner {
    /// One file to probe, named as it will appear in messages and the manifest.
    public struct Candidate: Hashable, Sendable {
        /// The path as given, or the folder as given joined with the file's name.
        public var path: String
        /// `true` when the user named the file itself.
        public var isExplicit: Bool
    }

    /// How folders are searched and which files are kept.
    public struct Options: Sendable, Hashable {
        /// Descend into sub-folders (hidden ones excepted).
        public var recursive = false
        /// Keep only files matching one of these globs (all when empty).
        public var include: [String] = []
        /// Drop files matching any of these globs.
        public var exclude: [String] = []

        /// Options with every default but those given.
        public init(recursive: Bool = false, include: [String] = [], exclude: [String] = []) {
            self.recursive = recursive
            self.include = include
            self.exclude = exclude
        }

        /// Whether `path` passes the globs. A glob with a slash is matched against the whole
        /// path, one without against the file name (`*.jpg`, `IMG_0???.*`).
        public func keeps(_ path: String) -> Bool {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            func matches(_ glob: String) -> Bool {
                fnmatch(glob, glob.contains("/") ? path : name, 0) == 0
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
        for argument in arguments {
            if isDirectory(argument) {
                scanFolder(argument, recursive: options.recursive, into: &result)
            } else {
                result.candidates.append(Candidate(path: argument, isExplicit: true))
            }
        }
        result.candidates = result.candidates.filter { options.keeps($0.path) }
        result.ignored = result.ignored.filter { options.keeps($0) }
        return result
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The folder's files in name order; with `recursive`, each sub-folder's files where the
    /// sub-folder's name falls (hidden sub-folders are not entered).
    static func scanFolder(_ folder: String, recursive: Bool, depth: Int = 0, into result: inout Scan) {
        guard let entries = directoryEntries(at: folder) else {
            result.candidates.append(Candidate(path: folder, isExplicit: true))
            return
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let imageExtensions = Set(ImageFormat.allCases.flatMap(\.extensions))
        for name in entries.map(\.name).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = prefix + name
            var status = stat()
            guard stat(path, &status) == 0 else {
                // A dangling link or a vanished file: reported when it looks like an image.
                if hasExtension(name, in: imageExtensions) {
                    result.candidates.append(Candidate(path: path, isExplicit: true))
                } else {
                    result.ignored.append(path)
                }
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                // Links can loop; 32 levels is deeper than any photo library.
                if recursive && depth < 32 && !name.hasPrefix(".") {
                    scanFolder(path, recursive: true, depth: depth + 1, into: &result)
                }
            case S_IFREG:
                if name.hasPrefix(".") {
                    result.ignored.append(path)
                } else if hasExtension(name, in: imageExtensions) {
                    result.candidates.append(Candidate(path: path, isExplicit: true))
                } else {
                    switch kind(of: path) {
                    case .readable: result.candidates.append(Candidate(path: path, isExplicit: false))
                    case .otherImage: result.candidates.append(Candidate(path: path, isExplicit: true))
                    case .notAnImage: result.ignored.append(path)
                    }
                }
            default:
                result.ignored.append(path)
            }
        }
    }

    static func hasExtension(_ name: String, in extensions: Set<String>) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    enum Kind { case readable, otherImage, notAnImage }

    /// What a file without an image extension holds, from its first bytes (and for formats
    /// known by extension only, such as RAW camera files, its name).
    static func kind(of path: String) -> Kind {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
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
