import CProcessShim
import Dispatch
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An output written to a temporary file beside its destination and renamed into place only
/// when complete, so a reader never sees half a file and an existing file is replaced only by
/// a whole new one.
///
/// It may be handed from one thread to another (a page finished on a worker, put in place by
/// the caller), never used by two at once.
public final class AtomicFile: @unchecked Sendable {
    /// Where the file ends up.
    public let destination: String
    /// The hidden temporary file being written.
    public let temporaryPath: String
    /// The open temporary file.
    public let handle: UnsafeMutablePointer<FILE>
    /// Its stream buffer: 64 KB, where glibc would write 4 KB at a time (a JPEG's rows, a
    /// PNG's bands).
    private let buffer: UnsafeMutablePointer<CChar>
    private static let bufferSize = 64 << 10
    private var finished = false
    /// The slot in the interrupt handler's list of files to remove.
    private let registration: Int32

    /// Whether finishing flushes the file to the disk (`fsync`) before it is renamed: `false`
    /// for the many small files of a folder that is itself put in place at the end.
    public let durable: Bool
    /// Bytes written since the disk was last asked to take them.
    private var unsent = 0
    /// The error of a flush that ``wrote(_:)`` began and that failed, reported when finishing.
    private var sendError: Int32 = 0
    /// How many bytes a durable file gathers before they are flushed to the disk.
    static let writebackStep = 4 << 20
    /// The flush running on a thread of its own, if any (only ``wrote(_:)`` starts one), and the
    /// first error of one.
    private let backgroundFlush = DispatchGroup()
    private let backgroundError = Locked<Int32>(0)

    /// Creates the temporary file in the destination's folder, named as ``TemporaryNames`` says.
    public init(destination: String, durable: Bool = true) throws(FileError) {
        self.destination = destination
        self.durable = durable
        let prefix = TemporaryNames.prefix(for: destination)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let suffix = String(generator.next() & 0xFFFF_FFFF, radix: 36)
            let candidate = "\(prefix)\(suffix).tmp"
            let fd = open(candidate.systemPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw FileError(.write, path: destination, reason: systemErrorText())
            }
            guard let handle = fdopen(fd, "wb") else {
                let text = systemErrorText()
                close(fd)
                unlink(candidate.systemPath)
                throw FileError(.write, path: destination, reason: text)
            }
            temporaryPath = candidate
            self.handle = handle
            buffer = .allocate(capacity: AtomicFile.bufferSize)
            setvbuf(handle, buffer, _IOFBF, AtomicFile.bufferSize)
            registration = iw_register_temporary(candidate.systemPath)
            return
        }
        throw FileError(.write, path: destination, reason: "could not create a temporary file")
    }

    private var closed = false

    /// Notes that `count` bytes were written to ``handle``: a durable file is flushed to the disk
    /// (`fsync`) on a thread of its own each ``writebackStep`` while it is written, one flush at
    /// a time, so that finishing waits for the last of it only, not for the whole file after
    /// the work is done. (Starting the write-back alone, with `sync_file_range`, leaves ext4 a
    /// flush of about 1 ms a megabyte to do at the end all the same.)
    public func wrote(_ count: Int) {
        guard durable, !closed else { return }
        unsent += count
        guard unsent >= AtomicFile.writebackStep else { return }
        unsent = 0
        guard fflush(handle) == 0 else {
            if sendError == 0 { sendError = errno }  // the data it held may be gone: finishing fails with this
            return
        }
        guard backgroundFlush.wait(timeout: .now()) == .success else { return }  // one flush at a time
        let descriptor = fileno(handle)
        backgroundFlush.enter()
        startOwnThread(stackSize: 64 << 10) { [backgroundFlush, backgroundError] in
            let failure = fsync(descriptor) == 0 ? 0 : errno
            backgroundError.withLock { if $0 == 0 { $0 = failure } }
            backgroundFlush.leave()
        }
    }

    /// Whether the destination held the bytes written already, so the temporary file was
    /// removed rather than flushed.
    private var unchanged = false

    /// Flushes the data to disk and closes the temporary file; ``commit()`` then only renames
    /// it, so several files can be completed first and published together. When the
    /// destination holds the same bytes already, the temporary file is removed instead and
    /// ``commit()`` keeps the destination: drawing a sheet again unchanged flushes and renames
    /// nothing (on ext4 here, some 0.14 s for a 25 MB sheet), and the file's readers and
    /// copies see no new file.
    public func finishWriting() throws(FileError) {
        guard !closed else { return }
        closed = true
        backgroundFlush.wait()
        if sendError == 0 { sendError = backgroundError.withLock { $0 } }
        if sameAsDestination() {
            unchanged = true
            fclose(handle)
            unlink(temporaryPath.systemPath)
            return
        }
        // A stream that failed before (a flush begun by wrote(_:), a write a library did not
        // check) fails here, whatever the last flush says.
        let flushed =
            sendError == 0 && ferror(handle) == 0 && fflush(handle) == 0
            && (!durable || fsync(fileno(handle)) == 0)
        let flushError = sendError != 0 ? sendError : errno != 0 ? errno : EIO
        let closedCleanly = fclose(handle) == 0
        guard flushed, closedCleanly else {
            finished = true
            unlink(temporaryPath.systemPath)
            iw_unregister_temporary(registration)
            throw FileError(.write, path: destination, reason: systemErrorText(flushed ? errno : flushError))
        }
    }

    /// Flushes the data to disk and renames the temporary file over the destination; one that
    /// holds the same bytes already is kept, its modification time made now.
    public func commit() throws(FileError) {
        precondition(!finished, "AtomicFile committed twice")
        try finishWriting()
        finished = true
        defer { iw_unregister_temporary(registration) }
        if unchanged {
            guard utimensat(AT_FDCWD, destination.systemPath, nil, 0) == 0 else {
                throw FileError(.write, path: destination, reason: systemErrorText())
            }
            return
        }
        guard rename(temporaryPath.systemPath, destination.systemPath) == 0 else {
            let text = systemErrorText()
            unlink(temporaryPath.systemPath)
            throw FileError(.write, path: destination, reason: text)
        }
    }

    /// Whether the bytes written so far are the destination's: the same size, then compared a
    /// block at a time (read back from the page cache). `false` on any doubt.
    private func sameAsDestination() -> Bool {
        guard sendError == 0, ferror(handle) == 0, fflush(handle) == 0 else { return false }
        var mine = stat(), theirs = stat()
        let written = fileno(handle)
        guard fstat(written, &mine) == 0, lstat(destination.systemPath, &theirs) == 0,
            (theirs.st_mode & S_IFMT) == S_IFREG, mine.st_size == theirs.st_size,
            mine.st_dev != theirs.st_dev || mine.st_ino != theirs.st_ino
        else { return false }
        let other = open(destination.systemPath, O_RDONLY | O_CLOEXEC)
        guard other >= 0 else { return false }
        defer { close(other) }
        let block = 1 << 20
        let a = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        let b = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 16)
        defer {
            a.deallocate()
            b.deallocate()
        }
        var offset: off_t = 0
        while offset < mine.st_size {
            let count = Int(min(off_t(block), mine.st_size - offset))
            guard pread(written, a, count, offset) == count, pread(other, b, count, offset) == count,
                memcmp(a, b, count) == 0
            else { return false }
            offset += off_t(count)
        }
        return true
    }

    /// Closes and removes the temporary file; the destination is left as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        backgroundFlush.wait()  // a flush still running holds the descriptor
        if !closed { fclose(handle) }
        closed = true
        unlink(temporaryPath.systemPath)
        iw_unregister_temporary(registration)
    }

    deinit {
        discard()
        buffer.deallocate()
    }
}

extension AtomicFile {
    /// Writes `bytes` into the temporary file.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        guard bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, handle) }) == bytes.count else {
            throw FileError(.write, path: destination, reason: systemErrorText())
        }
        wrote(bytes.count)
    }

    /// Writes `bytes` to `path` whole, or not at all: through a temporary file beside it.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let file = try AtomicFile(destination: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Copies the file `source` over `destination` whole, or not at all.
    public static func copy(_ source: String, to destination: String) throws(FileError) {
        try write(try FileContents.read(source), to: destination)
    }
}
