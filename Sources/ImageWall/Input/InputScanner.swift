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
/// folder contributes its visible regular files sorted by name: those with a JPEG or PNG
/// extension are read and reported if broken; others are read only when their first bytes say
/// JPEG or PNG, and skipped silently otherwise.
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

    /// Expands `arguments` into candidates, in argument order.
    public static func candidates(for arguments: [String], options: Options = Options()) -> [Candidate] {
        var result: [Candidate] = []
        for argument in arguments {
            if isDirectory(argument) {
                result += folderCandidates(argument, recursive: options.recursive)
            } else {
                result.append(Candidate(path: argument, isExplicit: true))
            }
        }
        return result.filter { options.keeps($0.path) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The folder's visible files in name order; with `recursive`, each sub-folder's files
    /// where the sub-folder's name falls.
    static func folderCandidates(_ folder: String, recursive: Bool, depth: Int = 0) -> [Candidate] {
        guard let entries = directoryEntries(at: folder) else { return [Candidate(path: folder, isExplicit: true)] }
        let names = entries.map(\.name).filter { !$0.hasPrefix(".") }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let imageExtensions = Set(ImageFormat.allCases.flatMap(\.extensions))
        var result: [Candidate] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = prefix + name
            var status = stat()
            guard stat(path, &status) == 0 else {
                // A dangling link or a vanished file: report it only if it looks like an image.
                if hasExtension(name, in: imageExtensions) { result.append(Candidate(path: path, isExplicit: true)) }
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                // Links can loop; 32 levels is deeper than any photo library.
                if recursive && depth < 32 { result += folderCandidates(path, recursive: true, depth: depth + 1) }
            case S_IFREG:
                if hasExtension(name, in: imageExtensions) {
                    result.append(Candidate(path: path, isExplicit: true))
                } else if looksLikeImage(path) {
                    result.append(Candidate(path: path, isExplicit: false))
                }
            default:
                break
            }
        }
        return result
    }

    static func hasExtension(_ name: String, in extensions: Set<String>) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static func looksLikeImage(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8)
        let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 8) }
        return got > 0 && ImageFormat.sniff(bytes.prefix(got)) != nil
    }
}
