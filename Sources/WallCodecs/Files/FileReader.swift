import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Random-access reads of a file's leading bytes, with one buffered window from the start,
/// so that probing a header costs one or two system calls; or of bytes already in memory (a
/// RAW file's embedded preview).
final class FileReader {
    /// The open file, -1 for bytes in memory.
    let descriptor: Int32
    /// Which file it is and how it was when opened; nil for bytes in memory.
    let stamp: FileStamp?
    /// The bytes read so far from offset 0.
    private(set) var head: [UInt8]
    /// The file's size in bytes.
    let fileSize: Int

    /// Opens `path` and reads up to `headBytes` from its start.
    init(path: String, headBytes: Int) throws(CodecError) {
        let fd = open(path.systemPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CodecError(.probe, path: path, reason: systemErrorText()) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let text = systemErrorText()
            close(fd)
            throw CodecError(.probe, path: path, reason: text)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            let kind = (status.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw CodecError(.probe, path: path, reason: "is \(kind), not an image file")
        }
        descriptor = fd
        stamp = FileStamp(status)
        fileSize = Int(status.st_size)
        head = []
        head = try read(at: 0, count: min(headBytes, fileSize), path: path)
    }

    /// Reads `bytes`, a whole file in memory.
    init(bytes: [UInt8]) {
        descriptor = -1
        stamp = nil
        fileSize = bytes.count
        head = bytes
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Up to `count` bytes at `offset`, fewer at the end of the file.
    func read(at offset: Int, count: Int, path: String) throws(CodecError) -> [UInt8] {
        guard offset >= 0, count > 0, offset < fileSize else { return [] }
        if offset + count <= head.count { return Array(head[offset..<offset + count]) }
        if descriptor < 0 { return Array(head[offset..<min(offset + count, head.count)]) }
        let wanted = min(count, fileSize - offset)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, wanted - filled, off_t(offset + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw CodecError(.probe, path: path, reason: systemErrorText())
            }
            if got == 0 { break }
            filled += got
        }
        if filled < wanted { bytes.removeLast(wanted - filled) }
        return bytes
    }
}
