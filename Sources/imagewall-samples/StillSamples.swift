// The samples of the formats FFmpeg reads: written by `ffmpeg` with FFmpeg's own encoders, and
// for PSD and DDS, which FFmpeg does not write, by the few lines below.
import Foundation
import WallCore
import WallSamples

#if canImport(Glibc)
    import Glibc
#endif

func writeFFmpegImage(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .ffmpegImage(let encoder, let pixelFormat, _, let linear) = spec.encoding else { return }
    let png = try temporaryPNG(spec, picture, beside: path)
    defer { unlink(png) }
    // Light made linear by libzimg, for the formats that hold it so.
    let filter = linear ? ["-vf", "format=gbrpf32le,zscale=transferin=iec61966-2-1:transfer=linear"] : []
    let alphaFilter =
        linear && spec.encoding.hasAlpha
        ? ["-vf", "format=gbrapf32le,zscale=transferin=iec61966-2-1:transfer=linear"] : filter
    try run(
        "ffmpeg",
        ["-v", "error", "-y", "-i", png] + alphaFilter + [
            "-c:v", encoder, "-pix_fmt", pixelFormat, "-frames:v", "1", "-threads", "1", "-fflags", "+bitexact",
            "-flags:v", "+bitexact", "-map_metadata", "-1", "-f", "image2", "-update", "1", path,
        ])
}

/// The picture's straight RGBA samples, planar: each channel's rows in turn.
func planes(_ picture: Bitmap, channels: Int) -> [UInt8] {
    let count = picture.size.width * picture.size.height
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * channels)
    for c in 0..<channels {
        for i in 0..<count { bytes.append(picture.pixels[4 * i + c]) }
    }
    return bytes
}

func bigEndian(_ value: Int, bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }
func littleEndian(_ value: Int, bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }

/// A PSD of its composite picture alone: the header, empty colour mode data, resources and
/// layers, then the channels raw, one plane after another (the fourth is the alpha).
func writePSD(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .psd(let alpha) = spec.encoding else { return }
    let channels = alpha ? 4 : 3
    var bytes = Array("8BPS".utf8) + bigEndian(1, bytes: 2) + [UInt8](repeating: 0, count: 6)
    bytes += bigEndian(channels, bytes: 2) + bigEndian(picture.size.height, bytes: 4)
    bytes += bigEndian(picture.size.width, bytes: 4) + bigEndian(8, bytes: 2) + bigEndian(3, bytes: 2)
    bytes += bigEndian(0, bytes: 4) + bigEndian(0, bytes: 4) + bigEndian(0, bytes: 4)
    bytes += bigEndian(0, bytes: 2) + planes(picture, channels: channels)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// A DDS of one uncompressed BGRA level.
func writeDDS(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    let w = picture.size.width, h = picture.size.height
    var bytes = Array("DDS ".utf8) + littleEndian(124, bytes: 4) + littleEndian(0x100F, bytes: 4)
    bytes += littleEndian(h, bytes: 4) + littleEndian(w, bytes: 4) + littleEndian(w * 4, bytes: 4)
    bytes += [UInt8](repeating: 0, count: 4 + 4 + 44)  // depth, mipmaps, reserved
    bytes += littleEndian(32, bytes: 4) + littleEndian(0x41, bytes: 4) + littleEndian(0, bytes: 4)
    bytes += littleEndian(32, bytes: 4) + littleEndian(0x00FF_0000, bytes: 4) + littleEndian(0x0000_FF00, bytes: 4)
    bytes += littleEndian(0x0000_00FF, bytes: 4) + littleEndian(0xFF00_0000, bytes: 4)
    bytes += littleEndian(0x1000, bytes: 4) + [UInt8](repeating: 0, count: 16)
    for i in 0..<(w * h) {
        let p = picture.pixels[4 * i..<4 * i + 4]
        bytes += [p[p.startIndex + 2], p[p.startIndex + 1], p[p.startIndex], p[p.startIndex + 3]]
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// An X bitmap: rows of bits, least significant first, set (black) where the luma is under 128.
func writeXBM(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    let w = picture.size.width, h = picture.size.height
    var bytes: [String] = []
    for y in 0..<h {
        for byte in 0..<((w + 7) / 8) {
            var value = 0
            for bit in 0..<8 where byte * 8 + bit < w {
                let at = (y * w + byte * 8 + bit) * 4
                let luma = SamplePicture.luma(picture.pixels[at], picture.pixels[at + 1], picture.pixels[at + 2])
                if luma < 128 { value |= 1 << bit }
            }
            bytes.append("0x" + String(String(value + 256, radix: 16).dropFirst()))
        }
    }
    let rows = stride(from: 0, to: bytes.count, by: 12).map {
        bytes[$0..<min($0 + 12, bytes.count)].joined(separator: ", ")
    }
    let text =
        "#define sample_width \(w)\n#define sample_height \(h)\nstatic unsigned char sample_bits[] = {\n   "
        + rows.joined(separator: ",\n   ") + " };\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}
