import Foundation
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Paths as the manifest and the pages written beside it see them: absolute, a file's folder,
/// and the way from one folder to another. The one place that walks paths apart.
public enum FilePaths {
    /// The last part of `path`: the file's name (a folder's, before a slash at the end; all of
    /// `path` when it has no part but slashes).
    public static func name(of path: String) -> String {
        let bytes = path.utf8
        guard let last = bytes.lastIndex(where: { $0 != slash }) else { return path }
        let start = bytes[..<last].lastIndex(of: slash).map(bytes.index(after:)) ?? bytes.startIndex
        return String(decoding: bytes[start...last], as: UTF8.self)
    }

    /// The parts of `path` between its slashes, in order, without the empty ones (of a slash at
    /// either end or two together). Paths are split at their bytes, as the file system does.
    public static func components(of path: String) -> [String] {
        path.utf8.split(separator: slash).map { String(decoding: $0, as: UTF8.self) }
    }

    private static let slash = UInt8(ascii: "/")

    /// The folder part of `path` as written: "Photos/2024" of "Photos/2024/a.jpg", "/" of
    /// "/a.jpg", "" of "a.jpg".
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` split before its extension: ("a/sheet", ".png") of "a/sheet.png"; the extension is
    /// "" when the name has no dot but at its start (".hidden", "a.d/sheet").
    public static func splitExtension(_ path: String) -> (stem: String, extension: String) {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[nameStart...].lastIndex(of: "."), dot > nameStart else { return (path, "") }
        return (String(path[..<dot]), String(path[dot...]))
    }

    /// `path` without its extension: "a/sheet" of "a/sheet.png".
    public static func withoutExtension(_ path: String) -> String { splitExtension(path).stem }

    /// The file's name without its extension: "sheet" of "a/sheet.png".
    public static func stem(of path: String) -> String { withoutExtension(name(of: path)) }

    /// The folder holding the file at `path`, as written: ``parent(of:)``, or "." when `path`
    /// names no folder.
    public static func directory(of path: String) -> String {
        let parent = parent(of: path)
        return parent.isEmpty ? "." : parent
    }

    /// The absolute folder holding the file at `path`.
    public static func folder(of path: String) -> String { absolute(directory(of: path)) }

    /// `path` resolved (symbolic links followed) when it exists, else made absolute from the
    /// working folder.
    public static func absolute(_ path: String) -> String {
        if let resolved = resolved(path) { return resolved }
        if path.hasPrefix("/") { return path }
        return workingFolder + "/" + path
    }

    /// The absolute path of an existing file with every link resolved, or `nil` when it does
    /// not exist.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path.systemPath, nil) else { return nil }
        defer { free(resolved) }
        return SystemPath.string(cString: resolved)
    }

    /// The working folder, its bytes kept.
    public static var workingFolder: String {
        guard let folder = getcwd(nil, 0) else { return FileManager.default.currentDirectoryPath }
        defer { free(folder) }
        return SystemPath.string(cString: folder)
    }

    /// The path from the absolute folder `from` to the absolute path `to`, with `..` where
    /// they part: "." when they are the same.
    public static func relative(from: String, to: String) -> String {
        let parts = relativeParts(from: from, to: to)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The components of ``relative(from:to:)``: `..` for each folder left, then the rest of `to`.
    /// Folders are the same when their names are the same bytes (as text, "é" written two ways
    /// would be one).
    public static func relativeParts(from: String, to: String) -> [String] {
        let a = components(of: from), b = components(of: to)
        var common = 0
        while common < a.count, common < b.count, a[common].utf8.elementsEqual(b[common].utf8) { common += 1 }
        return Array(repeating: "..", count: a.count - common) + b[common...]
    }
}
