import Foundation
import Testing
import WallCodecs
import WallCore
import WallLayout
import _WallTestSupport

@testable import ImageWall

/// Videos drawn by a poster frame through FFmpeg's libraries, on clips the real encoders made:
/// every codec and container, phone rotations, a black opening, cut and hostile files.
@Suite("Videos by a poster frame", .enabled(if: VideoClips.ffmpeg != nil))
struct VideoTests {
    /// The clips, made once for the suite.
    nonisolated(unsafe) static let clips: (folder: TemporaryFolder, failures: [String]) = {
        let folder = TemporaryFolder.lastingTheProcess()
        var failures: [String] = []
        for kind in VideoClips.kinds {
            do { try VideoClips.make(kind.name, in: folder.path, arguments: kind.arguments) } catch {
                failures.append("\(error)")
            }
        }
        return (folder, failures)
    }()

    static func clip(_ name: String) -> String { clips.folder.file(name) }

    @Test("each codec and container is probed from its header and drawn from a frame of its picture")
    func everyKind() throws {
        #expect(Self.clips.failures.isEmpty, "\(Self.clips.failures)")
        for kind in VideoClips.kinds {
            let path = Self.clip(kind.name)
            let info = try ImageProbe().probe(path: path)
            #expect(info.format == .video && info.displayedSize == Size(width: 320, height: 180), "\(kind.name)")
            #expect(abs((info.duration ?? 0) - 4) < 0.2, "\(kind.name): \(info.duration ?? 0) s")
            let decoded = try ImageDecoder().decode(path: path, info: info, target: Size(width: 160, height: 90))
            // Scaled by libswscale to twice the target, never the whole frame first.
            #expect(decoded.bitmap.size == Size(width: 320, height: 180), "\(kind.name)")
            #expect(decoded.warnings.isEmpty, "\(kind.name): \(decoded.warnings)")
            #expect(decoded.notes == ["poster frame at 1.0 s"], "\(kind.name): \(decoded.notes)")
            // testsrc2's bars: red at the left, cyan at the right (lossy codecs stay near them).
            let left = decoded.bitmap.mean(x: 4..<20, y: 60..<120)
            let right = decoded.bitmap.mean(x: 300..<316, y: 60..<120)
            #expect(left.red > 180 && left.green < 70 && left.blue < 70, "\(kind.name) left: \(left)")
            #expect(right.red < 70 && right.green > 180 && right.blue > 180, "\(kind.name) right: \(right)")
        }
    }

    @Test("a phone clip held upright (90° and 270° in its display matrix) is drawn upright")
    func rotated() throws {
        let folder = TemporaryFolder()
        let source = try VideoClips.make("source.mp4", in: folder.path)
        for degrees in [90, 270] {
            let path = folder.file("turned\(degrees).mov")
            try VideoClips.rotated(source, by: degrees, to: path)
            let info = try ImageProbe().probe(path: path)
            #expect(info.displayedSize == Size(width: 180, height: 320))
            #expect(info.orientation.rawValue == (degrees == 90 ? 6 : 8))
            let decoded = try ImageDecoder().decode(path: path, info: info)
            #expect(decoded.bitmap.size == Size(width: 180, height: 320))
            // Turned clockwise the red bar (the frame's left) is at the top; anticlockwise at the bottom.
            let top = decoded.bitmap.mean(x: 60..<120, y: 4..<20)
            let bottom = decoded.bitmap.mean(x: 60..<120, y: 300..<316)
            let red = degrees == 90 ? top : bottom
            let cyan = degrees == 90 ? bottom : top
            #expect(red.red > 180 && red.green < 70, "\(degrees)°: \(red)")
            #expect(cyan.red < 70 && cyan.blue > 180, "\(degrees)°: \(cyan)")
        }
    }

    @Test("a clip whose first seconds are black is drawn from a later frame, the same one every run")
    func blackOpening() throws {
        let folder = TemporaryFolder()
        let path = try VideoClips.make(
            "dark.mp4", in: folder.path, seconds: 6,
            filter: "drawbox=enable='lt(t,1.5)':x=0:y=0:w=iw:h=ih:color=black:t=fill")
        let info = try ImageProbe().probe(path: path)
        let first = try ImageDecoder().decode(path: path, info: info, target: Size(width: 160, height: 90))
        let again = try ImageDecoder().decode(path: path, info: info, target: Size(width: 160, height: 90))
        #expect(first.notes == ["poster frame at 3.0 s"])
        #expect(first.bitmap == again.bitmap)
        let left = first.bitmap.mean(x: 4..<20, y: 60..<120)
        #expect(left.red > 180, "\(left)")
    }

    @Test(
        "a clip cut in its frames is drawn from its last whole frame with a warning; one cut in its header is refused")
    func cutShort() throws {
        let folder = TemporaryFolder()
        let whole = try VideoClips.make(
            "whole.mp4", in: folder.path,
            arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
            size: "640x360")
        let bytes = try #require(Fixtures.read(whole))
        let cut = folder.write(Array(bytes.prefix(bytes.count / 5)), to: "cut.mp4")
        let info = try ImageProbe().probe(path: cut)
        let decoded = try ImageDecoder().decode(path: cut, info: info, target: Size(width: 160, height: 90))
        #expect(decoded.warnings.count == 1 && decoded.warnings[0].contains("cut short"), "\(decoded.warnings)")
        #expect(decoded.bitmap.mean(x: 4..<40, y: 60..<120).red > 180)

        // The index (moov) at the end, cut off: nothing to read the frames by.
        let late = try VideoClips.make("late.mp4", in: folder.path)
        let lateBytes = try #require(Fixtures.read(late))
        let headless = folder.write(Array(lateBytes.prefix(lateBytes.count / 2)), to: "headless.mp4")
        #expect {
            try ImageProbe().probe(path: headless)
        } throws: { error in
            let error = error as? CodecError
            return error?.path == headless && error?.reason.hasPrefix("video: FFmpeg cannot read it") == true
        }
    }

    @Test(
        "a clip without an index up front (WebM, Matroska, AVI) cut short is marked, its length the frames it holds",
        arguments: [
            ("vp9.webm", ["-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime", "-cpu-used", "8"], 90),
            ("h264.mkv", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], 35),
            ("mjpeg.avi", ["-c:v", "mjpeg", "-q:v", "5"], 60),
        ])
    func cutWithoutIndex(name: String, arguments: [String], percent: Int) throws {
        let folder = TemporaryFolder()
        // 8 s that fade in over 2.5 s, as the clip a user met: the poster is past the fade.
        let whole = try VideoClips.make(
            "whole-" + name, in: folder.path, arguments: arguments, seconds: 8, filter: "fade=in:0:37")
        let bytes = try #require(Fixtures.read(whole))
        let cut = folder.write(Array(bytes.prefix(bytes.count * percent / 100)), to: "cut-" + name)
        let info = try ImageProbe().probe(path: cut)
        let held = try #require(info.duration)
        #expect(held > 1 && held < 8 * Double(percent) / 100 + 0.5, "the frames it holds: \(held)")
        let decoded = try ImageDecoder().decode(path: cut, info: info, target: Size(width: 160, height: 90))
        let damaged = decoded.isDamaged
        #expect(damaged, "\(decoded.warnings)")
        #expect(decoded.warnings.contains { $0.contains("cut short") && $0.contains("8.0 s") }, "\(decoded.warnings)")
        let manifest = try Wall(inputs: [cut]).render(to: folder.file("cut.png"), options: WallOptions())
        #expect(manifest.tiles[0].damaged == true && manifest.tiles[0].duration == held)
        // The whole clip: its container's length, nothing said.
        let intact = try ImageProbe().probe(path: whole)
        #expect(intact.duration == 8)
        #expect(try ImageDecoder().decode(path: whole, info: intact).warnings.isEmpty)
    }

    @Test(
        "a Matroska recording that stopped before its length was written is as long as its frames, and marked",
        arguments: [
            ("whole.mkv", "-c:v libx264 -pix_fmt yuv420p -f matroska", false),
            // Over the tail's first window of 1 MB, read after a seek into the middle of a cluster
            // (Motion JPEG: of the same size on every run, whatever the machine's load).
            ("big.mkv", "-s 640x360 -c:v mjpeg -q:v 2 -f matroska", true),
        ])
    func crashedRecording(name: String, encoder: String, big: Bool) throws {
        let folder = TemporaryFolder()
        // Written to a pipe, as a recorder that never gets to seek back: no length, no cues.
        let whole = folder.file(name)
        let run = try Fixtures.run(
            "/bin/sh",
            [
                "-c",
                "\(VideoClips.ffmpeg ?? "ffmpeg") -v error -f lavfi -i testsrc2=size=320x180:rate=15:duration=6 "
                    + "\(encoder) - > '\(whole)'",
            ])
        #expect(run.status == 0, "\(run.errors)")
        let bytes = try #require(Fixtures.read(whole))
        #expect(!big || bytes.count > 1 << 20, "\(bytes.count) bytes")
        let path = folder.write(Array(bytes.prefix(bytes.count / 2)), to: "recording-" + name)
        // Whole, its length is where its frames end, and nothing is said.
        let unsaid = try ImageProbe().probe(path: whole)
        #expect(abs((unsaid.duration ?? 0) - 6) < 0.01, "\(unsaid.duration ?? 0)")
        #expect(try ImageDecoder().decode(path: whole, info: unsaid).warnings.isEmpty)
        let info = try ImageProbe().probe(path: path)
        let held = try #require(info.duration)
        #expect(held > 0.5 && held < 6, "\(held)")
        let decoded = try ImageDecoder().decode(path: path, info: info, target: Size(width: 160, height: 90))
        #expect(
            decoded.warnings.count == 1 && decoded.warnings[0].contains("does not say its length"),
            "\(decoded.warnings)")
    }

    @Test("a clip cut after its poster frame is drawn with a warning, and its length is the frames it holds")
    func cutAfterPoster() throws {
        let folder = TemporaryFolder()
        let whole = try VideoClips.make(
            "ten.mp4", in: folder.path,
            arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"], seconds: 10)
        let bytes = try #require(Fixtures.read(whole))
        let cut = folder.write(Array(bytes.prefix(bytes.count / 2)), to: "cut.mp4")
        let info = try ImageProbe().probe(path: cut)
        let held = try #require(info.duration)
        #expect(held > 2 && held < 8, "the frames it holds, not the 10 s its container says: \(held)")
        #expect(try ImageProbe().probe(path: whole).duration == 10)
        let decoded = try ImageDecoder().decode(path: cut, info: info, target: Size(width: 160, height: 90))
        #expect(decoded.warnings.count == 1 && decoded.warnings[0].contains("cut short"), "\(decoded.warnings)")
        #expect(decoded.isDamaged && decoded.notes == ["poster frame at 1.0 s"])
        let intact = try ImageDecoder().decode(path: whole, info: try ImageProbe().probe(path: whole))
        #expect(intact.warnings.isEmpty)
        // The manifest records the length it holds.
        let manifest = try Wall(inputs: [cut]).render(to: folder.file("cut.png"), options: WallOptions())
        #expect(manifest.tiles[0].duration == held && manifest.tiles[0].damaged == true)
    }

    @Test("a header claiming 65535x65535 frames is refused before any frame is decoded")
    func hostileSize() throws {
        let folder = TemporaryFolder()
        let source = try VideoClips.make("source.mp4", in: folder.path)
        let path = folder.file("huge.mp4")
        try VideoClips.claiming(width: 65535, height: 65535, source, to: path)
        let run = MeasuredRun(Fixtures.binary, ["render", path, "-o", folder.file("sheet.png"), "--no-cache", "-q"])
        #expect(run.status == 1)
        #expect(run.errors.contains(path) && run.errors.contains("65535x65535"), "\(run.errors)")
        #expect((run.peakMB ?? 0) < 150, "\(run.peakMB ?? 0) MB")
    }

    @Test("the sheet marks a video with a play button and captions its length")
    func playMarkAndDuration() throws {
        let folder = TemporaryFolder()
        let path = try VideoClips.make("clip.mp4", in: folder.path, size: "640x360", seconds: 4)
        var options = WallOptions()
        options.layout.columns = 1
        options.layout.width = 640
        options.layout.padding = Insets(all: 0)
        options.rendering.caption = try CaptionTemplate("{stem} {duration}")
        let manifest = try Wall(inputs: [path]).render(to: folder.file("sheet.png"), options: options)
        let tile = try #require(manifest.tiles.first)
        #expect(tile.format == "video" && tile.mark == .video)
        let sheetPath = folder.file("sheet.png")
        let sheet = try ImageDecoder().decode(path: sheetPath, info: try ImageProbe().probe(path: sheetPath)).bitmap
        let cx = tile.x + tile.width / 2 + 2, cy = tile.y + tile.height / 2
        let centre = sheet.mean(x: cx..<cx + 1, y: cy..<cy + 1)
        #expect(centre.red > 230 && centre.green > 230 && centre.blue > 230, "the triangle: \(centre)")
        let template = try CaptionTemplate("{stem} {duration}")
        let info = try ImageProbe().probe(path: path)
        #expect(template.expand(ProbedImage(path: path, info: info), index: 0) == "clip 0:04")
        #expect(CaptionTemplate.readableDuration(3725.4) == "1:02:05")
    }

    @Test("FFmpeg's libraries are loaded by the first video, never by a render without one")
    func loadedOnDemand() throws {
        let folder = TemporaryFolder()
        let clip = try VideoClips.make("clip.mp4", in: folder.path)
        // The dynamic linker names every library it loads, and how, on stderr.
        func libraries(rendering input: String) throws -> (status: Int32, loads: String) {
            let run = try Fixtures.run(
                "/usr/bin/env",
                [
                    "LD_DEBUG=files", Fixtures.binary, "render", input, "-o", folder.file("sheet.png"), "--no-cache",
                    "-q",
                ])
            let loads = run.errors.split(separator: "\n").filter { $0.contains("file=") && !$0.contains("link map") }
                .joined(separator: "\n")
            return (run.status, loads)
        }
        let still = try libraries(rendering: Fixtures.sample("grayscale.jpg"))
        #expect(still.status == 0)
        #expect(still.loads.contains("file=libjpeg"), "the check sees the libraries loaded: \(still.loads)")
        #expect(!still.loads.contains("libavformat") && !still.loads.contains("libavcodec"), "\(still.loads)")
        let video = try libraries(rendering: clip)
        #expect(video.status == 0)
        let avformat = video.loads.split(separator: "\n").filter { $0.contains("file=libavformat") }
        #expect(avformat.count == 1 && avformat[0].contains("dynamically loaded"), "\(video.loads)")
    }

    @Test("videos are claimed by their bytes and their names, but a TypeScript file is not a transport stream")
    func claiming() throws {
        let folder = TemporaryFolder()
        let typescript = folder.write(Array("export const x = 1;\n".utf8), to: "app.ts")
        #expect(
            FileClaim.identify(FileSignature(head: Fixtures.read(typescript)!, path: typescript))
                == .unread(.notAnImage))
        let bytes = try #require(Fixtures.read(try VideoClips.make("a.mp4", in: folder.path)))
        #expect(FileClaim.identify(FileSignature(head: bytes.prefix(4096), path: "renamed.bin")) == .image(.video))
        let webm = try #require(Fixtures.read(Self.clip("vp9.webm")))
        #expect(FileClaim.identify(FileSignature(head: webm.prefix(4096), path: "clip")) == .image(.video))
    }
}

extension Bitmap {
    /// The mean colour of the pixels in `x` by `y`.
    func mean(x: Range<Int>, y: Range<Int>) -> (red: Int, green: Int, blue: Int) {
        var sums = [0, 0, 0]
        for row in y {
            for column in x {
                let at = (row * size.width + column) * channels
                for c in 0..<3 { sums[c] += Int(pixels[at + c]) }
            }
        }
        let count = max(1, x.count * y.count)
        return (sums[0] / count, sums[1] / count, sums[2] / count)
    }
}
