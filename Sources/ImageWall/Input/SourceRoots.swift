import WallFiles

/// Where each source was found, in a form that survives moving the folders: the input it came
/// from (its root: a folder given, or the folder of a file given) and its path under that root.
/// A wall of `Photos` keeps `sub/a.jpg` under root `Photos` whether the checkout is in
/// `/home/ana` or `/builds/ci-41`.
enum SourceRoots {
    /// The roots of `paths`, which came from `inputs` (folders and files as the user gave them),
    /// and each path's root index and path under it.
    static func split(_ paths: [String], inputs: [String]) -> (roots: [String], origins: [(root: Int, path: String)]) {
        let folders = inputs.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            .filter { InputScanner.isDirectory($0) }
            .sorted { $0.count > $1.count }  // the deepest folder given first
        var roots: [String] = []
        var numbers: [String: Int] = [:]
        let origins = paths.map { path -> (root: Int, path: String) in
            var root: String
            var relative: String
            if let folder = folders.first(where: { path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
                root = folder
                relative = String(path.dropFirst(folder == "/" ? 1 : folder.count + 1))
            } else if path.contains("/") {
                (root, relative) = (FilePaths.parent(of: path), FilePaths.name(of: path))
            } else {
                (root, relative) = (".", path)
            }
            if let number = numbers[root] { return (number, relative) }
            numbers[root] = roots.count
            roots.append(root)
            return (roots.count - 1, relative)
        }
        return (roots, origins)
    }
}
