import WallCodecs
import WallCore
import WallFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Finished cells of one batch variant, parked between decoding and painting: in memory while
/// the batch's ``SpillMemory`` has room, else in an anonymous temporary file, so that a batch of
/// many tiles never holds them all.
final class TileSpill: @unchecked Sendable {
    private let offsets: [Int]
    private let sizes: [Size]
    let channels: Int
    private let memory: SpillMemory
    /// The cells kept in memory, by index; guarded by `lock`, as is `descriptor`.
    private var kept: [Bitmap?]
    private var descriptor: Int32 = -1
    private let lock = Locked(())

    /// A spill for cells of `sizes`, `channels` bytes a pixel, keeping what `memory` allows.
    init(sizes: [Size], channels: Int, memory: SpillMemory) {
        self.sizes = sizes
        self.channels = channels
        self.memory = memory
        kept = Array(repeating: nil, count: sizes.count)
        var offsets: [Int] = []
        var offset = 0
        for size in sizes {
            offsets.append(offset)
            offset += size.width * size.height * channels
        }
        self.offsets = offsets
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        memory.give(kept.reduce(0) { $0 + ($1?.pixels.count ?? 0) })
    }

    /// Parks cell `index`.
    func store(_ bitmap: Bitmap, at index: Int) throws {
        precondition(bitmap.channels == channels && bitmap.size == sizes[index])
        if memory.take(bitmap.pixels.count) {
            lock.withLock { _ in kept[index] = bitmap }
            return
        }
        let descriptor = try lock.withLock { _ throws(FileError) in try file() }
        try bitmap.pixels.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = pwrite(
                    descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offsets[index] + done))
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else {
                    throw FileError(.write, path: "temporary spill file", reason: systemErrorText())
                }
                done += wrote
            }
        }
    }

    /// Cell `index`, once: a cell kept in memory gives its room back.
    func load(_ index: Int) throws -> Bitmap {
        if let bitmap = lock.withLock({ _ in kept[index].take() }) {
            memory.give(bitmap.pixels.count)
            return bitmap
        }
        let descriptor = lock.withLock { _ in self.descriptor }
        // Read whole, or not at all: the pixels are not cleared first.
        return try Bitmap(size: sizes[index], alpha: channels == 4 ? .premultiplied : .none) { pixels in
            let bytes = UnsafeMutableRawBufferPointer(pixels)
            var done = 0
            while done < bytes.count {
                let got = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offsets[index] + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { throw FileError(.write, path: "temporary spill file", reason: "short read") }
                done += got
            }
        }
    }

    /// The temporary file, made the first time a cell does not fit in memory. Called holding `lock`.
    private func file() throws(FileError) -> Int32 {
        if descriptor >= 0 { return descriptor }
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = (folder + "/imagewall-spill-XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw FileError(.write, path: "temporary spill file", reason: systemErrorText())
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }  // gone when closed
        descriptor = fd
        return fd
    }
}

/// The bytes the spills of one batch may keep in memory between them.
final class SpillMemory: @unchecked Sendable {
    let limit: Int
    private let held = Locked(0)

    /// A share of `limit` bytes, none of it taken.
    init(limit: Int) { self.limit = limit }

    /// Takes `bytes` when they fit beside what is held.
    func take(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    /// Gives back `bytes` taken before.
    func give(_ bytes: Int) {
        held.withLock { $0 -= bytes }
    }
}
