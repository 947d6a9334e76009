import Foundation
import WallCore

/// Albums drawn ahead of the build, in their order, two at a time: while the build finishes one
/// album (reads what its pages show, notes what it wrote), the next ones are drawn, and one
/// album's last pictures and last rows overlap the next one's first, which keeps the cores busy
/// from album to album. The build takes the results in order; ``stop()`` has the albums under
/// way stop at their next check and waits for them.
final class AlbumPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [Int: Result<AlbumDrawer.Drawn, any Error>] = [:]
    private var next = 0
    private var running = 0
    private var stopping = false
    private let count: Int
    private let lanes: Int
    private let draw: @Sendable (Int, _ stopped: @escaping @Sendable () -> Bool) throws -> AlbumDrawer.Drawn

    /// Draws albums `0 ..< count` with `draw`, `lanes` at a time, each on a thread of its own
    /// (with no lanes, each when it is asked for, on the thread that asks); `draw` is given a
    /// check that says when to stop.
    init(
        count: Int, lanes: Int,
        draw: @escaping @Sendable (Int, _ stopped: @escaping @Sendable () -> Bool) throws -> AlbumDrawer.Drawn
    ) {
        self.count = count
        self.lanes = lanes
        self.draw = draw
        guard count > 0, lanes > 0 else { return }
        running = min(lanes, count)
        for _ in 0..<running {
            startOwnThread { [self] in work() }  // a render's own thread, as the main thread is
        }
    }

    /// Whether ``stop()`` was called.
    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func work() {
        while true {
            condition.lock()
            guard !stopping, next < count else {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let n = next
            next += 1
            condition.unlock()
            let result = Result { try draw(n) { self.isStopping } }
            condition.lock()
            results[n] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Album `n`'s drawing, once it is done.
    func result(_ n: Int) throws -> AlbumDrawer.Drawn {
        precondition(n < count)
        if lanes <= 0 { return try draw(n) { self.isStopping } }
        condition.lock()
        while results[n] == nil { condition.wait() }
        let result = results.removeValue(forKey: n)!
        condition.unlock()
        return try result.get()
    }

    /// Starts no more albums, has those under way stop, and waits for them.
    func stop() {
        condition.lock()
        stopping = true
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}
