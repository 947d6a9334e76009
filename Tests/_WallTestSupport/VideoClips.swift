import Foundation
import WallSamples

/// Short clips made by the real encoders (`ffmpeg`, installed by `make deps`) from FFmpeg's
/// `testsrc2` pattern: colour bars, a moving diagonal and a frame counter.
public enum VideoClips {
    /// `ffmpeg`, or `nil` where it is not installed.
    public static let ffmpeg: String? = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The clips of each codec and container FFmpeg is asked to draw: file name and the
    /// encoder's arguments.
    public static let kinds: [(name: String, arguments: [String])] = [
        ("h264.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        ("hevc8.mp4", ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"]),
        (
            "hevc10.mov",
            ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error", "-tag:v", "hvc1"]
        ),
        ("vp9.webm", ["-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime", "-cpu-used", "8"]),
        ("av1.mkv", ["-c:v", "libaom-av1", "-cpu-used", "8", "-b:v", "200k"]),
        ("prores.mov", ["-c:v", "prores_ks", "-profile:v", "0"]),
        ("mjpeg.avi", ["-c:v", "mjpeg", "-q:v", "5"]),
    ]

    /// Makes `name` in `folder`: `seconds` of `size` at 15 frames a second, encoded with
    /// `arguments`; `filter` is appended to the pattern's filter chain (e.g. a black opening).
    @discardableResult
    public static func make(
        _ name: String, in folder: String, arguments: [String] = ["-c:v", "libx264", "-pix_fmt", "yuv420p"],
        size: String = "320x180", seconds: Int = 4, filter: String? = nil
    ) throws -> String {
        let path = folder + "/" + name
        let source = "testsrc2=size=\(size):rate=15:duration=\(seconds)" + (filter.map { "," + $0 } ?? "")
        let run = try Fixtures.run(
            ffmpeg ?? "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source] + arguments + [path])
        guard run.status == 0 else { throw ClipError(message: "ffmpeg \(name): \(run.errors)") }
        return path
    }

    /// A copy of the MP4 or MOV at `source` whose track header turns it `degrees` (90 or 270)
    /// clockwise for display, as a phone held upright writes it: ffmpeg 5.1 cannot write the
    /// display matrix itself.
    public static func rotated(_ source: String, by degrees: Int, to target: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let turned = MovieRotation.rotated(bytes, clockwise: degrees) else {
            throw ClipError(message: "\(source): no track header")
        }
        try Data(turned).write(to: URL(fileURLWithPath: target))
    }

    /// A copy of the MP4 at `source` whose sample description claims frames of `width` x
    /// `height` (a hostile header).
    public static func claiming(width: UInt16, height: UInt16, _ source: String, to target: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let table = MovieRotation.find("stsd", in: bytes),
            let entry = MovieRotation.find("avc1", in: bytes, from: table)
        else {
            throw ClipError(message: "\(source): no avc1 sample description")
        }
        let at = entry + 4 + 6 + 2 + 16
        bytes[at] = UInt8(width >> 8)
        bytes[at + 1] = UInt8(width & 0xFF)
        bytes[at + 2] = UInt8(height >> 8)
        bytes[at + 3] = UInt8(height & 0xFF)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
    }

    /// A clip that could not be made.
    public struct ClipError: Error, CustomStringConvertible {
        /// What went wrong, with ffmpeg's own words.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}
