#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import WallCodecs

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

    /// Expands `arguments` into candidates, in argument order.
    public static func candidates(for arguments: [String]) -> [Candidate] {
        var result: [Candidate] = []
        for argument in arguments {
            if isDirectory(argument) {
                result += folderCandidates(argument)
            } else {
                result.append(Candidate(path: argument, isExplicit: true))
            }
        }
        return result
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func folderCandidates(_ folder: String) -> [Candidate] {
        guard let directory = opendir(folder) else { return [Candidate(path: folder, isExplicit: true)] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let imageExtensions = Set(ImageFormat.allCases.flatMap(\.extensions))
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
            let path = prefix + name
            var status = stat()
            guard stat(path, &status) == 0 else {
                // A dangling link or a vanished file: report it only if it looks like an image.
                return hasExtension(name, in: imageExtensions) ? Candidate(path: path, isExplicit: true) : nil
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            if hasExtension(name, in: imageExtensions) { return Candidate(path: path, isExplicit: true) }
            return looksLikeImage(path) ? Candidate(path: path, isExplicit: false) : nil
        }
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
