import Dispatch
import WallCache
import WallCodecs
import WallCore

/// Turns a page's bands into PNG segments, each band filtered and deflated on its own, and
/// appends them to the page's sink in order. A band is filtered on the caller's thread, which
/// can then paint the next band over its rows without their being copied, and deflated on one
/// of `threads` threads. The bytes do not depend on the thread count: where segments end is
/// fixed by the bands. With a cache, a band whose pixels were compressed before with the same
/// settings is read back instead, found by its rows before they are filtered.
final class SegmentEncoder: @unchecked Sendable {
    private let sink: any SegmentSink
    private let width: Int
    private let channels: Int
    private let filter: PNGFilter
    private let compression: PNGCompression
    private let threads: Int
    private let profile: StageProfile?
    private let cache: RenderCache?
    private var submitted = 0
    /// Finished segments waiting for those before them, by band number, and the next to write.
    private let state = Locked<(done: [Int: Result<PNGSegment, CodecError>], next: Int, failure: (any Error)?)>(
        ([:], 0, nil))
    private let room: DispatchSemaphore
    private let group = DispatchGroup()

    init(
        sink: any SegmentSink, width: Int, channels: Int, settings: RenderSettings, threads: Int,
        profile: StageProfile?, cache: RenderCache? = nil
    ) {
        self.sink = sink
        self.width = width
        self.channels = channels
        filter = settings.pngFilter
        compression = settings.compression
        self.threads = max(1, threads)
        self.profile = profile
        self.cache = cache
        room = DispatchSemaphore(value: max(1, threads))
    }

    deinit { group.wait() }

    /// Encodes the page's next `count` rows (tightly packed); the band that reaches the page's
    /// bottom ends the stream. The rows are filtered here, before the caller paints the next
    /// band over them, and deflated on another thread.
    func add(rows: UnsafeBufferPointer<UInt8>, count: Int, last: Bool) throws {
        let index = submitted
        submitted += 1
        if let failure = state.withLock({ $0.failure }) { throw failure }
        let key = cache.map { _ in
            profile.measure(.cache) { Self.key(rows, count, width, channels, filter, compression, last) }
        }
        if let cache, let key, let found = profile.measure(.cache, { cache.segment(key) }) {
            try write(.success(found), index: index)
            return
        }
        let filtered: [UInt8]
        do {
            filtered = try profile.measure(.encode) { () throws(CodecError) in
                try PNGSegment.filtered(
                    rows: rows, stride: width * channels, count: count, width: width, channels: channels,
                    filter: filter)
            }
        } catch {
            try write(.failure(error), index: index)
            return
        }
        let make: @Sendable () -> Result<PNGSegment, CodecError> = { [compression, profile, cache] in
            let made = profile.measure(.encode) {
                Result { () throws(CodecError) in
                    try PNGSegment(filtered: filtered, compression: compression, last: last)
                }
            }
            if let cache, let key, case .success(let segment) = made {
                profile.measure(.cache) { cache.save(segment, as: key) }
            }
            return made
        }
        if threads == 1 {
            try write(make(), index: index)
            return
        }
        room.wait()
        group.enter()
        DispatchQueue.global().async { [self] in
            defer {
                room.signal()
                group.leave()
            }
            try? write(make(), index: index)
        }
    }

    /// A band's cache key: its rows as painted, where it ends the stream, and the encoder's
    /// settings (the filter among them) and version: what settles its filtered and deflated
    /// bytes. A band found is neither filtered nor deflated.
    private static func key(
        _ rows: UnsafeBufferPointer<UInt8>, _ count: Int, _ width: Int, _ channels: Int, _ filter: PNGFilter,
        _ compression: PNGCompression, _ last: Bool
    ) -> CacheKey {
        var hasher = KeyHasher()
        hasher.add("rows segment \(RenderCache.format) \(ImageWallRelease.version) \(CodecLibraries.versions)")
        hasher.add("\(filter) \(compression) \(width)x\(count)x\(channels) last \(last)")
        hasher.add(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(rows)[0..<(width * channels * count)]))
        return hasher.finish()
    }

    /// Files segment `index` and writes every finished one that is next in order.
    private func write(_ result: Result<PNGSegment, CodecError>, index: Int) throws {
        try state.withLock { state in
            state.done[index] = result
            while let ready = state.done.removeValue(forKey: state.next), state.failure == nil {
                do {
                    try sink.append(ready.get())
                } catch {
                    state.failure = error
                }
                state.next += 1
            }
            if let failure = state.failure { throw failure }
        }
    }

    /// Waits for the segments being made (after a failure, before the file is discarded).
    func waitForWorkers() { group.wait() }

    /// Waits for every segment to reach the sink.
    func finish() throws {
        group.wait()
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }
}
