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
