import Synchronization
import Testing
import WallCore
import _WallTestSupport

@testable import WallCompositor

#if canImport(Glibc)
    import Glibc
#endif

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
