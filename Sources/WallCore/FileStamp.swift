#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `stat` says of a file that tells whether it changed: its identity, size and times. A
/// file whose stamp is the one recorded is taken as unchanged and not read again; one moved or
/// renamed keeps its identity, size and modification time.
public struct FileStamp: Hashable, Sendable, Codable {
    /// The device and inode: the file whatever its path.
    public var device: UInt64
    /// The inode on `device`.
    public var inode: UInt64
    /// Bytes.
    public var size: Int64
    /// Last modified, in nanoseconds since 1970.
    public var modified: Int64
    /// Last changed (contents or metadata, also when moved), in nanoseconds since 1970.
    public var changed: Int64

    /// The stamp of what `status` describes.
    public init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }

    /// The stamp of the file at `path` (links followed); `nil` when it cannot be looked at.
    public init?(path: String) {
        var status = stat()
        guard stat(path.systemPath, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The stamp of the file open on `descriptor`; `nil` when it cannot be looked at.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    /// What a file moved elsewhere keeps: identity, size and modification time.
    public var moved: Moved { Moved(device: device, inode: inode, size: size, modified: modified) }

    /// A stamp without the change time, which a move updates.
    public struct Moved: Hashable, Sendable {
        /// What the stamp of the same name says.
        public var device: UInt64, inode: UInt64, size: Int64, modified: Int64
    }
}
