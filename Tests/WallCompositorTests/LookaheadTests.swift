import Synchronization
import Testing
import WallCore
import _WallTestSupport

@testable import WallCompositor

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Renderer lookahead")
struct LookaheadTests {
    @Test("tiles prepared ahead: 8 per thread when small, fewer when they would pass the byte budget, never under 2")
    func rule() {
        #expect(SheetRenderer.lookahead(threads: 2, largestTileBytes: 600_000) == 16)
        #expect(SheetRenderer.lookahead(threads: 1, largestTileBytes: 600_000) == 8)
        let fourMB = 4 << 20
        #expect(SheetRenderer.lookahead(threads: 2, largestTileBytes: fourMB) == SheetRenderer.lookaheadBytes / fourMB)
        #expect(SheetRenderer.lookahead(threads: 2, largestTileBytes: 36_000_000) == 4)
        #expect(SheetRenderer.lookahead(threads: 0, largestTileBytes: 0) == 8)
    }

    @Test("helpers run ahead of a waiting painter as far as the lookahead and no further")
    func reach() throws {
        let count = 60
        let frames = (0..<count).map { Rect(x: 0, y: $0 * 4, width: 4, height: 4) }
        var renderer = SheetRenderer(
            canvas: Size(width: 4, height: count * 4), frames: frames, background: .white, threads: 2)
        renderer.bandHeight = 4
        let window = SheetRenderer.lookahead(threads: 2, largestTileBytes: 4 * 4 * 3)
        let prepared = Mutex(0)
        var reached: Int?
        try renderer.render(
            tile: { i in
                prepared.withLock { $0 += 1 }
                return Bitmap(size: frames[i].size, alpha: .none)
            },
            emit: { _, _ in
                guard reached == nil else { return }
                // Band 0 has taken tile 0; the helper may now hold tiles 1 ... window. Wait
                // for it (the shared thread pool may start it late), then a little longer.
                let deadline = ContinuousClock.now + .seconds(20)
                while prepared.withLock({ $0 }) < window + 1 && ContinuousClock.now < deadline { usleep(1000) }
                usleep(20_000)
                reached = prepared.withLock { $0 }
            })
        #expect(window == 16)
        #expect(reached == window + 1)
        #expect(prepared.withLock { $0 } == count)
    }
}

final class Counter: Sendable {
    private let storage = Mutex<[Int]>(Array(repeating: 0, count: 50))
    func add(_ i: Int) { storage.withLock { $0[i] += 1 } }
    var counts: [Int] { storage.withLock { $0 } }
}
