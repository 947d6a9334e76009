import Foundation
import Testing
import WallCodecs
import WallCompositor
import WallCore
import _WallTestSupport

@testable import ImageWall

/// `--stack`: bursts and look-alikes drawn as one tile (the best of them, badged), every member
/// in the manifest, the same stacks in replays and on any number of threads; nothing else
/// stacked — not other scenes taken a second apart, not a video, not pictures minutes apart.
@Suite("Stacks of bursts and look-alikes")
struct StackingTests {
    let folder = TemporaryFolder()

    /// A shoot, named by the time each was taken: burst A (4 frames of a pan, 10:00:00–03, the
    /// second the only one held still), three other scenes a second after it, burst B (3 frames,
    /// 10:00:10–12, the last rated 5 stars in XMP though shaken), a sample still and a video a
    /// second apart (the same picture), and a scene with a smaller copy of it 100 s later.
    func shoot() throws -> String {
        let shoot = folder.file("shoot")
        guard mkdir(shoot, 0o755) == 0 else { return shoot }
        func jpeg(_ bitmap: Bitmap, _ name: String) throws {
            var options = JPEGEncodeOptions(storage: .ycbcr)
            options.quality = 90
            try JPEGEncoder.write(samples: bitmap.pixels, size: bitmap.size, options: options, to: "\(shoot)/\(name)")
        }
        func at(_ second: Int) -> String { "IMG_20240601_1000\(second < 10 ? "0" : "")\(second).jpg" }
        for frame in 0..<4 {
            let view = Scenes.picture(seed: 10, shift: frame * 6)
            try jpeg(frame == 1 ? view : Scenes.blurred(view, radius: 1), at(frame))
        }
        for (n, seed) in [12, 13, 14].enumerated() { try jpeg(Scenes.picture(seed: seed), at(4 + n)) }
        for frame in 0..<3 {
            try jpeg(
                Scenes.blurred(Scenes.picture(seed: 11, shift: frame * 6), radius: frame == 2 ? 2 : 0), at(10 + frame))
        }
        let rated = "\(shoot)/\(at(12))"
        try DescribedJPEG.write(rated, to: rated + ".tmp", xmpRating: 5)
        try FileManager.default.removeItem(atPath: rated)
        try FileManager.default.moveItem(atPath: rated + ".tmp", toPath: rated)
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("video-h264.mp4"), toPath: "\(shoot)/IMG_20240601_100020.mp4")
        // The first frame of burst A is a Live Photo: its movie goes where the frame goes.
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("video-h264.mp4"), toPath: "\(shoot)/IMG_20240601_100000.mov")
        try FileManager.default.copyItem(
            atPath: Fixtures.sample("landscape-baseline-420.jpg"), toPath: "\(shoot)/\(at(21))")
        let scene = Scenes.picture(seed: 15)
        try jpeg(scene, "IMG_20240601_100100.jpg")
        try jpeg(Resampler.resize(scene, to: Size(width: 384, height: 256)), "IMG_20240601_100240.jpg")
        return shoot
    }

    func options(_ mode: StackMode?, threads: Int = 1) -> WallOptions {
        var options = WallOptions()
        options.input.stacking = mode.map { StackOptions(mode: $0) }
        options.limits.threads = threads
        return options
    }

    func name(_ path: String) -> String { String(path.split(separator: "/").last!) }

    @Test("bursts: each burst one tile where its first frame was, the steadiest drawn unless one is rated higher")
    func bursts() throws {
        let plan = try Wall(inputs: [try shoot()]).plan(options: options(.bursts))
        let names = plan.images.map { name($0.path) }
        #expect(
            names == [
                "IMG_20240601_100001.jpg", "IMG_20240601_100004.jpg", "IMG_20240601_100005.jpg",
                "IMG_20240601_100006.jpg", "IMG_20240601_100012.jpg", "IMG_20240601_100020.mp4",
                "IMG_20240601_100021.jpg", "IMG_20240601_100100.jpg", "IMG_20240601_100240.jpg",
            ])
        let a = try #require(plan.images[0].stack)
        #expect(a.by == .bursts && a.chosenBy == .sharpest)
        #expect(a.members.map(name) == (0..<4).map { "IMG_20240601_10000\($0).jpg" })
        #expect(a.companions?.map(name) == ["IMG_20240601_100000.mov"])
        let b = try #require(plan.images[4].stack)
        #expect(b.chosenBy == .rating && b.members.map(name) == (10..<13).map { "IMG_20240601_1000\($0).jpg" })
        #expect(plan.images.filter { $0.stack != nil }.count == 2)
    }

    @Test("similar: copies whenever taken, the larger drawn; a video and other scenes never")
    func similar() throws {
        let plan = try Wall(inputs: [try shoot()]).plan(options: options(.similar))
        let copies = try #require(
            plan.images.first { $0.stack?.members.contains { $0.hasSuffix("100240.jpg") } == true })
        #expect(name(copies.path) == "IMG_20240601_100100.jpg" && copies.stack?.chosenBy == .largest)
        #expect(copies.stack?.members.count == 2)
        #expect(plan.images.contains { $0.path.hasSuffix(".mp4") && $0.stack == nil })
        // Members of one stack are views of one scene: the frames of a burst, or the copies.
        let scenes = [
            "0000": "A", "0001": "A", "0002": "A", "0003": "A", "0004": "12", "0005": "13", "0006": "14",
            "0010": "B", "0011": "B", "0012": "B", "0021": "sample", "0100": "copies", "0240": "copies",
        ]
        func scene(_ path: String) -> String {
            scenes[String(name(path).dropFirst("IMG_20240601_10".count).prefix(4))] ?? path
        }
        for image in plan.images {
            guard let stack = image.stack else { continue }
            #expect(Set(stack.members.map(scene)).count == 1, "\(stack.members.map(name))")
        }
        #expect(try Wall(inputs: [try shoot()]).plan(options: options(nil)).images.count == 14)
    }

    @Test("a stacked sheet: members and choice in the manifest, the same bytes on 2 threads and from the manifest")
    func sheet() throws {
        let shoot = try self.shoot()
        let sheet = folder.file("stacked.png")
        let manifest = try Wall(inputs: [shoot]).render(
            to: sheet, manifest: folder.file("stacked.json"), options: options(.bursts))
        let stacked = manifest.tiles.filter { $0.stack != nil }
        #expect(stacked.count == 2 && manifest.tiles.count == 9)
        #expect(stacked[0].stack?.members.count == 4 && stacked[0].stack?.by == .bursts)
        let text = try String(contentsOfFile: folder.file("stacked.json"), encoding: .utf8)
        #expect(text.contains("\"stack\":{\"by\":\"bursts\",\"chosenBy\":\"sharpest\",\"companions\":[\""))
        #expect(text.contains("IMG_20240601_100000.mov\"],\"members\":[\""))
        let read = try Wall.readManifest(folder.file("stacked.json"))
        #expect(read.tiles.map(\.stack) == manifest.tiles.map(\.stack))

        try Wall(inputs: [shoot]).render(to: folder.file("threads.png"), options: options(.bursts, threads: 2))
        try Wall.render(from: read, to: folder.file("replayed.png"), options: options(nil))
        let bytes = Fixtures.read(sheet)
        #expect(bytes != nil && Fixtures.read(folder.file("threads.png")) == bytes)
        #expect(Fixtures.read(folder.file("replayed.png")) == bytes)
    }

    @Test("with a cache, what was read to compare pictures is kept by content: the same stacks again from it")
    func cached() throws {
        let shoot = try self.shoot()
        var options = self.options(.bursts)
        options.cache = CacheSettings(directory: folder.file("cache"))
        let first = try Wall(inputs: [shoot]).plan(options: options)
        let kept = try FileManager.default.subpathsOfDirectory(atPath: folder.file("cache"))
            .filter { $0.hasPrefix("v1/look/") && $0.split(separator: "/").count == 4 }
        // The 10 stills taken within 2 s of another fingerprinted (10:00:00-06, 10:00:10-12), and
        // burst A's 4 frames measured for sharpness (burst B's is chosen by its rating).
        #expect(kept.count == 14, "\(kept)")
        let again = try Wall(inputs: [shoot]).plan(options: options)
        #expect(again.images.map(\.stack) == first.images.map(\.stack))
        #expect(again.images.map(\.path) == first.images.map(\.path))
        // A damaged entry reads as missing: the stacks are made again, the same.
        for entry in kept.prefix(3) { _ = folder.write([1, 2, 3], to: "cache/" + entry) }
        #expect(try Wall(inputs: [shoot]).plan(options: options).images.map(\.stack) == first.images.map(\.stack))
    }

    @Test("the badge: +N in the top-right corner, light on a dark chip, the rest of the tile untouched")
    func badge() {
        var tile = Bitmap(size: Size(width: 200, height: 150), alpha: .none, fill: [200, 200, 200])
        TileMark.drawStack(hidden: 4, on: &tile)
        func luma(_ x: Int, _ y: Int) -> Int { Int(tile.pixels[(y * 200 + x) * 3]) }
        let corner = (0..<30).flatMap { y in (150..<200).map { luma($0, y) } }
        #expect(corner.contains { $0 < 100 } && corner.contains { $0 > 230 })
        #expect((0..<150).allSatisfy { y in (0..<100).allSatisfy { luma($0, y) == 200 } })
        // Too small a tile to hold it: left out.
        var small = Bitmap(size: Size(width: 12, height: 12), alpha: .none, fill: [200, 200, 200])
        TileMark.drawStack(hidden: 12, on: &small)
        #expect(small.pixels.allSatisfy { $0 == 200 })
    }

    @Test("grouping: a gap longer than allowed ends a burst; look-alikes join the closest stack's first")
    func grouping() {
        func print(_ hash: UInt64, _ level: UInt8 = 100) -> PictureFingerprint {
            PictureFingerprint(hash: hash, colors: [UInt8](repeating: level, count: 48))
        }
        let bursts = [
            Stacking.Candidate(instant: 0, fingerprint: print(0)),
            Stacking.Candidate(instant: 2, fingerprint: print(0b11)),
            Stacking.Candidate(instant: 5, fingerprint: print(0b11)),  // 3 s later: a new burst
            Stacking.Candidate(instant: 6, fingerprint: print(0b11)),
            Stacking.Candidate(instant: 7, fingerprint: print(0b11, 200)),  // other colours
            Stacking.Candidate(instant: 8, fingerprint: nil),  // not decoded
        ]
        #expect(Stacking.groups(bursts, options: StackOptions(mode: .bursts)) == [[0, 1], [2, 3]])
        #expect(Stacking.groups(bursts, options: StackOptions(mode: .bursts, gap: 3)) == [[0, 1, 2, 3]])
        let similar = [
            Stacking.Candidate(instant: nil, fingerprint: print(0)),
            Stacking.Candidate(instant: nil, fingerprint: print(UInt64.max)),
            Stacking.Candidate(instant: nil, fingerprint: print(0xFF)),  // 8 bits from the first
            Stacking.Candidate(instant: nil, fingerprint: print(UInt64.max >> 4)),  // 4 from the second
        ]
        #expect(Stacking.groups(similar, options: StackOptions(mode: .similar)) == [[0, 2], [1, 3]])
        #expect(Stacking.groups(similar, options: StackOptions(mode: .similar, distance: 4)) == [[1, 3]])
        // Of another shape (beyond 5 %), a look-alike is another picture: a crop, not a copy.
        var shapes = similar
        shapes[2].shown = Size(width: 100, height: 100)
        shapes[0].shown = Size(width: 104, height: 100)
        shapes[1].shown = Size(width: 200, height: 100)
        shapes[3].shown = Size(width: 180, height: 100)
        #expect(Stacking.groups(shapes, options: StackOptions(mode: .similar)) == [[0, 2]])
        // Only pictures near another in time are decoded for bursts.
        #expect(
            Stacking.wantsFingerprint(
                stackable: [true, true, true, false, true], instants: [0, 1, 10, 11, 30],
                options: StackOptions(mode: .bursts)) == [true, true, false, false, false])
    }

    @Test("capture instants count seconds across days, months and leap years")
    func instants() {
        let a = CaptureDate(exif: "2024:02:28 23:59:59")!, b = CaptureDate(exif: "2024:02:29 00:00:01")!
        #expect(b.instant - a.instant == 2)
        #expect(CaptureDate(exif: "1970:01:01 00:00:00")!.instant == 0)
        #expect(CaptureDate(exif: "2000:03:01 00:00:00")!.instant == 951_868_800)
    }
}
