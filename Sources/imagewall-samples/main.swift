// Writes SampleImages/: every picture of WallSamples.SampleCatalog, stored as its spec says.
// Deterministic: the same toolchain and libraries write the same bytes. JPEG XL and videos are
// made by the real encoders, `cjxl` and `ffmpeg` (installed by `make deps`), from the picture
// written as a PNG.
//   usage: imagewall-samples [DEST]   (default: SampleImages)
import Foundation
import WallCodecs
import WallCore
import WallSamples
import WallText

#if canImport(Glibc)
    import Glibc
#endif

let destination = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "SampleImages"
mkdir(destination, 0o755)
let font = try FontFace(path: FontFace.boldPath)

/// An EXIF APP1 payload holding only IFD0's orientation, in either byte order.
func exifOrientation(_ orientation: Orientation, bigEndian: Bool) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)]
    }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
    var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    tiff += u16(42) + u32(8)  // IFD0 right after the header
    tiff += u16(1)  // one entry
    tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation.rawValue) + u16(0)
    tiff += u32(0)  // no next IFD
    return Array("Exif".utf8) + [0, 0] + tiff
}

/// Lays the displayed picture out as stored for `orientation`.
func stored(_ displayed: Bitmap, _ orientation: Orientation) -> Bitmap {
    let storedSize = orientation.displayedSize(ofStored: displayed.size)
    var result = Bitmap(size: storedSize, alpha: displayed.alpha)
    let channels = displayed.channels
    for y in 0..<displayed.size.height {
        for x in 0..<displayed.size.width {
            let (sx, sy) = orientation.storedPosition(ofDisplayedX: x, y: y, displayed: displayed.size)
            let from = (y * displayed.size.width + x) * channels
            let to = (sy * storedSize.width + sx) * channels
            for c in 0..<channels { result.pixels[to + c] = displayed.pixels[from + c] }
        }
    }
    return result
}

func writeJPEG(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .jpeg(let color, let subsampling, let progressive) = spec.encoding else { return }
    let orientation = spec.orientation ?? .up
    let image = stored(picture, orientation)
    let count = image.size.width * image.size.height
    var options: JPEGEncodeOptions
    var samples: [UInt8] = []
    switch color {
    case .gray:
        options = JPEGEncodeOptions(storage: .gray)
        samples = (0..<count).map { i in
            SamplePicture.luma(image.pixels[4 * i], image.pixels[4 * i + 1], image.pixels[4 * i + 2])
        }
    case .ycbcr, .rgb:
        options = JPEGEncodeOptions(storage: color == .rgb ? .rgb : .ycbcr)
        samples.reserveCapacity(3 * count)
        for i in 0..<count { samples += image.pixels[4 * i..<4 * i + 3] }
    case .cmyk, .ycck:
        options = JPEGEncodeOptions(storage: color == .cmyk ? .cmyk : .ycck)
        samples.reserveCapacity(4 * count)
        for i in 0..<count {
            // Inks from RGB, then stored inverted as Adobe's applications do.
            let r = Int(image.pixels[4 * i]), g = Int(image.pixels[4 * i + 1]), b = Int(image.pixels[4 * i + 2])
            let k = 255 - max(r, g, b)
            let scale = 255 - k
            func ink(_ v: Int) -> Int { scale == 0 ? 0 : (255 * (scale - v) + scale / 2) / scale }
            samples += [UInt8(255 - ink(r)), UInt8(255 - ink(g)), UInt8(255 - ink(b)), UInt8(255 - k)]
        }
    }
    options.quality = 90
    options.progressive = progressive
    options.subsampling = subsampling == "4:4:4" ? .s444 : subsampling == "4:2:2" ? .s422 : .s420
    if let orientation = spec.orientation {
        options.app1 = exifOrientation(orientation, bigEndian: orientation.rawValue % 2 == 1)
    }
    try JPEGEncoder.write(samples: samples, size: image.size, options: options, to: path)
}

func writePNG(_ spec: SampleSpec, _ displayed: Bitmap, path: String) throws {
    guard case .png(let color, let depth, let transparency, let interlaced) = spec.encoding else { return }
    let picture = stored(displayed, spec.orientation ?? .up)
    let size = picture.size
    let count = size.width * size.height
    let px = picture.pixels
    var options: PNGEncodeOptions
    var values: [Int] = []  // samples before packing, at `depth` bits
    let maxValue = (1 << depth) - 1
    func scaled(_ v: UInt8) -> Int { (Int(v) * maxValue + 127) / 255 }
    switch color {
    case .gray, .grayAlpha:
        options = PNGEncodeOptions(colorType: color == .gray ? .gray : .grayAlpha)
        for i in 0..<count {
            values.append(scaled(SamplePicture.luma(px[4 * i], px[4 * i + 1], px[4 * i + 2])))
            if color == .grayAlpha { values.append(scaled(px[4 * i + 3])) }
        }
    case .rgb, .rgba:
        options = PNGEncodeOptions(colorType: color == .rgb ? .rgb : .rgba)
        for i in 0..<count {
            for c in 0..<(color == .rgb ? 3 : 4) { values.append(scaled(px[4 * i + c])) }
        }
    case .palette:
        // A 6×6×6 colour cube; with transparency, entry 0 is fully transparent.
        options = PNGEncodeOptions(colorType: .palette)
        let base = transparency ? 1 : 0
        if transparency {
            options.palette.append((0, 0, 0))
            options.paletteAlpha = [0]
        }
        for r in 0..<6 {
            for g in 0..<6 { for b in 0..<6 { options.palette.append((UInt8(r * 51), UInt8(g * 51), UInt8(b * 51))) } }
        }
        for i in 0..<count {
            if transparency && px[4 * i + 3] < 128 {
                values.append(0)
                continue
            }
            func level(_ v: UInt8) -> Int { (Int(v) + 25) / 51 }
            values.append(base + level(px[4 * i]) * 36 + level(px[4 * i + 1]) * 6 + level(px[4 * i + 2]))
        }
    }
    options.bitDepth = depth
    options.interlaced = interlaced
    if let orientation = spec.orientation { options.exif = exifTIFF(orientation) }
    options.compression = .deflate(level: 9)
    let perPixel = options.colorType.samples
    let rowBits = size.width * perPixel * depth
    let rowBytes = (rowBits + 7) / 8
    var rows = [UInt8](repeating: 0, count: rowBytes * size.height)
    for y in 0..<size.height {
        var bit = 0
        for s in 0..<(size.width * perPixel) {
            let v = values[y * size.width * perPixel + s]
            let at = y * rowBytes
            if depth == 16 {
                rows[at + 2 * s] = UInt8(v >> 8)
                rows[at + 2 * s + 1] = UInt8(v & 255)
            } else if depth == 8 {
                rows[at + s] = UInt8(v)
            } else {
                rows[at + bit / 8] |= UInt8(v << (8 - depth - bit % 8))
                bit += depth
            }
        }
    }
    try PNGEncoder.write(rows: rows, rowBytes: rowBytes, size: size, options: options, to: path)
}

/// The picture without its alpha channel, or as it is when the sample keeps alpha.
func channels(_ picture: Bitmap, alpha: Bool) -> Bitmap {
    guard !alpha else { return picture }
    let count = picture.size.width * picture.size.height
    var rgb = [UInt8]()
    rgb.reserveCapacity(3 * count)
    for i in 0..<count { rgb += picture.pixels[4 * i..<4 * i + 3] }
    return Bitmap(size: picture.size, alpha: .none, pixels: rgb)
}

/// The EXIF TIFF structure alone (PNG eXIf, WebP EXIF chunk).
func exifTIFF(_ orientation: Orientation) -> [UInt8] {
    Array(exifOrientation(orientation, bigEndian: false).dropFirst(6))
}

/// Index of a colour in the 6×6×6 cube (after `base` reserved entries).
func cubeIndex(_ r: UInt8, _ g: UInt8, _ b: UInt8, base: Int) -> Int {
    func level(_ v: UInt8) -> Int { (Int(v) + 25) / 51 }
    return base + level(r) * 36 + level(g) * 6 + level(b)
}

/// The 6×6×6 cube, 8 bits a channel.
let cube: [(UInt8, UInt8, UInt8)] = (0..<216).map { (i: Int) -> (UInt8, UInt8, UInt8) in
    let r = UInt8(i / 36 * 51), g = UInt8(i / 6 % 6 * 51), b = UInt8(i % 6 * 51)
    return (r, g, b)
}

func writeHEIF(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .heif(let av1, let alpha, let thumbnail) = spec.encoding else { return }
    var options = HEIFEncodeOptions()
    options.av1 = av1
    options.quality = 80
    options.thumbnail = thumbnail
    options.orientation = spec.orientation ?? .up
    try HEIFEncoder.write(channels(stored(picture, spec.orientation ?? .up), alpha: alpha), options: options, to: path)
}

func writeWebP(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .webp(let lossless, let alpha, let frames) = spec.encoding else { return }
    var options = WebPEncodeOptions()
    options.lossless = lossless
    options.quality = 85
    options.frames = frames
    if let orientation = spec.orientation { options.exif = exifTIFF(orientation) }
    try WebPEncoder.write(channels(stored(picture, spec.orientation ?? .up), alpha: alpha), options: options, to: path)
}

func writeTIFF(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .tiff(let color, let depth, let compression, let tiled, let pageCount) = spec.encoding else { return }
    let image = stored(picture, spec.orientation ?? .up)
    let count = image.size.width * image.size.height
    func page(negative: Bool) -> TIFFPage {
        var values: [Int] = []
        let px = image.pixels.map { negative ? 255 - $0 : $0 }
        var pageColor: TIFFPage.Color
        switch color {
        case .gray:
            pageColor = .gray
            for i in 0..<count { values.append(Int(SamplePicture.luma(px[4 * i], px[4 * i + 1], px[4 * i + 2]))) }
        case .rgb, .rgba:
            pageColor = color == .rgb ? .rgb : .rgba
            for i in 0..<count {
                for c in 0..<(color == .rgb ? 3 : 4) {
                    values.append(Int(c == 3 ? image.pixels[4 * i + 3] : px[4 * i + c]))
                }
            }
        case .cmyk:
            pageColor = .cmyk
            for i in 0..<count {
                // Inks from RGB as plain (not inverted) TIFF CMYK stores them.
                let r = Int(px[4 * i]), g = Int(px[4 * i + 1]), b = Int(px[4 * i + 2])
                let k = 255 - max(r, g, b)
                let scale = 255 - k
                func ink(_ v: Int) -> Int { scale == 0 ? 0 : (255 * (scale - v) + scale / 2) / scale }
                values += [ink(r), ink(g), ink(b), k]
            }
        case .palette:
            pageColor = .palette(cube.map { (UInt16($0.0) * 257, UInt16($0.1) * 257, UInt16($0.2) * 257) })
            for i in 0..<count { values.append(cubeIndex(px[4 * i], px[4 * i + 1], px[4 * i + 2], base: 0)) }
        }
        var samples: [UInt8] = []
        if depth == 16 {
            // In the machine's byte order, as libtiff takes them.
            for v in values { withUnsafeBytes(of: UInt16(v) * 257) { samples += $0 } }
        } else {
            samples = values.map { UInt8($0) }
        }
        var result = TIFFPage(samples: samples, size: image.size, color: pageColor)
        result.bits = depth
        result.compression =
            ["lzw": .lzw, "deflate": .deflate, "jpeg": .jpeg, "packbits": .packBits][compression] ?? .none
        result.tile = tiled ? Size(width: 64, height: 64) : nil
        result.orientation = spec.orientation ?? .up
        return result
    }
    try TIFFEncoder.write((0..<pageCount).map { page(negative: $0 > 0) }, to: path)
}

func writeGIF(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .gif(let transparency, let interlaced, let frames) = spec.encoding else { return }
    let count = picture.size.width * picture.size.height
    let base = transparency ? 1 : 0
    let px = picture.pixels
    var indices: [UInt8] = []
    for frame in 0..<frames {
        for i in 0..<count {
            if transparency && px[4 * i + 3] < 128 {
                indices.append(0)
                continue
            }
            let (r, g, b) = (px[4 * i], px[4 * i + 1], px[4 * i + 2])
            indices.append(
                UInt8(frame == 0 ? cubeIndex(r, g, b, base: base) : cubeIndex(255 - r, 255 - g, 255 - b, base: base)))
        }
    }
    try GIFEncoder.write(
        indices: indices, size: picture.size, frames: frames, palette: (transparency ? [(0, 0, 0)] : []) + cube,
        transparent: transparency ? 0 : nil, interlaced: interlaced, to: path)
}

/// Runs `tool` with `arguments`; throws with its error output when it fails.
func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw SampleError(message: "\(tool): " + String(decoding: text, as: UTF8.self))
    }
}

struct SampleError: Error { var message: String }

/// The picture as stored for `spec` written to a PNG beside `path`, for an encoder to read.
func temporaryPNG(_ spec: SampleSpec, _ picture: Bitmap, beside path: String) throws -> String {
    let png = path + ".source.png"
    try PNGEncoder.write(channels(stored(picture, spec.orientation ?? .up), alpha: spec.encoding.hasAlpha), to: png)
    return png
}

func writeJXL(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .jxl(let lossless, _) = spec.encoding else { return }
    let png = try temporaryPNG(spec, picture, beside: path)
    defer { unlink(png) }
    try run("cjxl", [png, path, "-d", lossless ? "0" : "1", "--num_threads=0", "--quiet"])
}

func writeVideo(_ spec: SampleSpec, _ picture: Bitmap, path: String) throws {
    guard case .video(let codec) = spec.encoding else { return }
    let png = try temporaryPNG(spec, picture, beside: path)
    defer { unlink(png) }
    let size = spec.storedSize
    var arguments = [
        "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=\(size.width)x\(size.height):r=5:d=1.5", "-loop",
        "1", "-framerate", "5", "-t", "2.5", "-i", png, "-filter_complex",
        "[0:v]format=yuv420p[b];[1:v]format=yuv420p[p];[b][p]concat=n=2:v=1[v]", "-map", "[v]", "-c:v", codec,
        "-threads", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1",
    ]
    arguments += codec == "libx264" ? ["-crf", "18", "-pix_fmt", "yuv420p"] : ["-crf", "20", "-b:v", "0"]
    try run("ffmpeg", arguments + [path])
    if let orientation = spec.orientation, orientation != .up {
        let degrees = orientation == .right ? 90 : 270
        guard
            let turned = MovieRotation.rotated(
                Array(try Data(contentsOf: URL(fileURLWithPath: path))), clockwise: degrees)
        else { throw SampleError(message: "\(path): no track header to turn") }
        try Data(turned).write(to: URL(fileURLWithPath: path))
    }
}

for spec in SampleCatalog.all {
    let picture = try SamplePicture.render(
        size: spec.displayedSize, label: spec.label, alpha: spec.encoding.hasAlpha, font: font)
    let path = "\(destination)/\(spec.fileName)"
    switch spec.encoding {
    case .jpeg: try writeJPEG(spec, picture, path: path)
    case .png: try writePNG(spec, picture, path: path)
    case .heif: try writeHEIF(spec, picture, path: path)
    case .webp: try writeWebP(spec, picture, path: path)
    case .tiff: try writeTIFF(spec, picture, path: path)
    case .gif: try writeGIF(spec, picture, path: path)
    case .jxl: try writeJXL(spec, picture, path: path)
    case .video: try writeVideo(spec, picture, path: path)
    case .ffmpegImage: try writeFFmpegImage(spec, picture, path: path)
    case .psd: try writePSD(spec, picture, path: path)
    case .dds: try writeDDS(spec, picture, path: path)
    case .xbm: try writeXBM(spec, picture, path: path)
    case .vector(let pdf): try (pdf ? writeVectorPDF : writeSVG)(spec, path)
    }
    print(path)
}
