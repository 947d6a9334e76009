import WallFiles

/// A file as a codec sees it when asked whether it reads it: its first bytes and its name.
public struct FileSignature: Sendable {
    /// The file's first bytes (up to 64 KiB; fewer for a short file).
    public var head: [UInt8]
    /// The file's name, without its folder.
    public var name: String

    /// The signature of the file at `path` whose first bytes are `head`.
    public init(head: some Collection<UInt8>, path: String) {
        self.head = Array(head.prefix(65536))
        name = FilePaths.name(of: path)
    }

    /// The name's extension, lowercase and without the dot: "NEF" in `DSC_1.NEF` is "nef".
    public var fileExtension: String? { FileSignature.fileExtension(of: name) }

    /// The extension of the last component of `path`, lowercase and without the dot; none for a
    /// name that only starts with a dot (".hidden") or ends with one.
    public static func fileExtension(of path: String) -> String? {
        let name = FilePaths.name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }
}
