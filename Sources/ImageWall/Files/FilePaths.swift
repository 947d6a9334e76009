import Foundation

/// Paths as the manifest and the pages written beside it see them: absolute, a file's folder,
/// and the way from one folder to another. The one place that walks paths apart.
public enum FilePaths {
    /// The last part of `path`: the file's name.
    public static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The absolute folder holding the file at `path`.
    public static func folder(of path: String) -> String {
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return absolute(parent.isEmpty ? "/" : parent)
    }

    /// `path` resolved (symbolic links followed) when it exists, else made absolute from the
    /// working folder.
    public static func absolute(_ path: String) -> String {
        if let resolved = resolvedPath(path) { return resolved }
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The path from the absolute folder `from` to the absolute path `to`, with `..` where
    /// they part: "." when they are the same.
    public static func relative(from: String, to: String) -> String {
        let parts = relativeParts(from: from, to: to)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The components of ``relative(from:to:)``: `..` for each folder left, then the rest of `to`.
    public static func relativeParts(from: String, to: String) -> [String] {
        let a = from.split(separator: "/"), b = to.split(separator: "/")
        var common = 0
        while common < a.count, common < b.count, a[common] == b[common] { common += 1 }
        return Array(repeating: "..", count: a.count - common) + b[common...].map(String.init)
    }
}
