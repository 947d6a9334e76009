import Synchronization
import Testing
import WallCore
import _WallTestSupport

@testable import WallCompositor

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Sheet renderer")
struct SheetRendererTests {
    func collect(_ renderer: SheetRenderer, tiles: [Bitmap]) throws -> [UInt8] {
        var rows: [UInt8] = []
        var bands: [Int] = []
        try renderer.render(
            tile: { tiles[$0] },
            emit: { buffer, count in
                rows += buffer
                bands.append(count)
            })
        #expect(bands.reduce(0, +) == renderer.canvas.height)
        return rows
    }

    @Test("tiles land at their frames over the background, across band edges")
    func painting() throws {
        let frames = [Rect(x: 1, y: 1, width: 3, height: 300), Rect(x: 5, y: 120, width: 2, height: 20)]
        let tiles = [
            Bitmap(size: frames[0].size, alpha: .none, fill: [255, 0, 0]),
            Bitmap(size: frames[1].size, alpha: .none, fill: [0, 255, 0]),
        ]
        for threads in [1, 2] {
            let renderer = SheetRenderer(
                canvas: Size(width: 8, height: 310), frames: frames, background: .black, threads: threads)
            let sheet = Bitmap(size: renderer.canvas, alpha: .none, pixels: try collect(renderer, tiles: tiles))
            #expect(sheet.pixel(x: 0, y: 0) == [0, 0, 0])
            #expect(sheet.pixel(x: 1, y: 1) == [255, 0, 0])
            #expect(sheet.pixel(x: 3, y: 300) == [255, 0, 0])
            #expect(sheet.pixel(x: 3, y: 301) == [0, 0, 0])
            #expect(sheet.pixel(x: 4, y: 130) == [0, 0, 0])
            #expect(sheet.pixel(x: 5, y: 130) == [0, 255, 0])
            #expect(sheet.pixel(x: 6, y: 139) == [0, 255, 0])
            #expect(sheet.pixel(x: 6, y: 140) == [0, 0, 0])
        }
    }

    @Test("a transparent sheet keeps straight alpha from premultiplied tiles")
    func transparent() throws {
        var tile = Bitmap(size: Size(width: 2, height: 2), alpha: .premultiplied)
        tile.pixels = [128, 0, 0, 128, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 128, 128]
        let renderer = SheetRenderer(
            canvas: Size(width: 3, height: 2), frames: [Rect(x: 1, y: 0, width: 2, height: 2)], background: .transparent
        )
        #expect(renderer.hasAlpha)
        let sheet = Bitmap(size: renderer.canvas, alpha: .straight, pixels: try collect(renderer, tiles: [tile]))
        #expect(sheet.pixel(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(sheet.pixel(x: 1, y: 0) == [255, 0, 0, 128])
        #expect(sheet.pixel(x: 2, y: 0) == [255, 255, 255, 255])
        #expect(sheet.pixel(x: 2, y: 1) == [0, 0, 255, 128])
    }

    @Test("each tile is asked for once")
    func once() throws {
        let frames = (0..<50).map { Rect(x: 0, y: $0 * 37, width: 4, height: 60) }
        let counter = Counter()
        let renderer = SheetRenderer(
            canvas: Size(width: 4, height: 50 * 37 + 60), frames: frames, background: .white, threads: 2)
        try renderer.render(
            tile: { i in
                counter.add(i)
                return Bitmap(size: frames[i].size, alpha: .none)
            }, emit: { _, _ in })
        #expect(counter.counts == Array(repeating: 1, count: 50))
    }

    @Test("threads counts every working thread: one means the caller alone; the caller helps when waiting")
    func threadCount() throws {
        let frames = (0..<50).map { Rect(x: 0, y: $0 * 37, width: 4, height: 60) }
        for threads in [1, 2] {
            let caller = pthread_self()
            let workers = Mutex<Set<pthread_t>>([])
            let onCaller = Mutex(0)
            let renderer = SheetRenderer(
                canvas: Size(width: 4, height: 50 * 37 + 60), frames: frames, background: .white, threads: threads)
            try renderer.render(
                tile: { i in
                    let me = pthread_self()
                    workers.withLock { _ = $0.insert(me) }
                    if pthread_equal(me, caller) != 0 { onCaller.withLock { $0 += 1 } }
                    usleep(2000)  // slow enough that the caller always finds a tile not ready
                    return Bitmap(size: frames[i].size, alpha: .none)
                }, emit: { _, _ in })
            let count = workers.withLock { $0.count }
            #expect(count <= threads)
            if threads == 1 { #expect(onCaller.withLock { $0 } == 50) }
            if threads == 2 { #expect(onCaller.withLock { $0 } > 0) }
        }
    }
}

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

@Suite("Renderer stopping early")
struct RendererStopTests {
    struct Stop: Error {}

    @Test("an error with tiles prepared but never taken ends cleanly, many times over")
    func stopEarly() {
        let frames = (0..<40).map { Rect(x: 0, y: $0 * 10, width: 4, height: 10) }
        for attempt in 0..<200 {
            var renderer = SheetRenderer(
                canvas: Size(width: 4, height: 400), frames: frames, background: .white, threads: 2)
            renderer.bandHeight = 10
            let failAt = attempt % 7
            #expect(throws: Stop.self) {
                try renderer.render(
                    tile: { i in
                        if i == failAt { throw Stop() }
                        return Bitmap(size: frames[i].size, alpha: .none)
                    }, emit: { _, _ in })
            }
        }
    }
}
