import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A whole file's bytes: records, journals, pages and sheets read back, with the system's
/// reason when they cannot be.
public enum FileContents {
    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        guard let file = fopen(path.systemPath, "rb") else {
            throw FileError(.read, path: path, reason: systemErrorText())
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[..<count]
            if count < chunk.count {
                if ferror(file) != 0 { throw FileError(.read, path: path, reason: systemErrorText()) }
                return bytes
            }
        }
    }
}
