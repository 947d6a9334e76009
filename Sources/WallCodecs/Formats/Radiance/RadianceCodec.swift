import CFFmpegShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Radiance HDR (RGBE: HDRI environment maps, renders): its text header read by ImageWall (the
/// picture's size, from the resolution line after the header's blank line), its pixels by
/// OpenCV's imgcodecs through ``OpenCVLibrary``, loaded on the first such file. The light is
/// clipped to 0…1 and encoded as sRGB as OpenEXR's is, the same way on every CPU, then
/// box-shrunk as the still formats are.
struct RadianceCodec: ImageCodec {
    var priority: ClaimPriority { .signature }

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        head.starts(with: Array("#?RADIANCE".utf8)) || head.starts(with: Array("#?RGBE".utf8)) ? .radiance : nil
    }

    /// The size its resolution line gives: "-Y height +X width", the one orientation OpenCV
    /// reads (rows top to bottom, each left to right).
    static func size(_ head: [UInt8], path: String) throws(CodecError) -> Size {
        func corrupt(_ what: String) -> CodecError {
            CodecError(.probe, path: path, reason: "corrupt Radiance HDR: \(what)")
        }
        let lines = head.split(separator: 0x0A, maxSplits: 512, omittingEmptySubsequences: false)
        guard let blank = lines.firstIndex(where: \.isEmpty), blank + 1 < lines.count else {
            throw corrupt("its header does not end within its first \(head.count) bytes")
        }
        for line in lines[..<blank] where line.starts(with: Array("FORMAT=".utf8)) {
            let format = String(decoding: line.dropFirst(7), as: UTF8.self)
            guard format == "32-bit_rle_rgbe" || format == "32-bit_rle_xyze" else {
                throw CodecError(.probe, path: path, reason: "Radiance HDR of format \(format) is not supported")
            }
        }
        let words = String(decoding: lines[blank + 1], as: UTF8.self).split(separator: " ")
        guard words.count == 4 else { throw corrupt("no resolution line after its header") }
        guard words[0] == "-Y", words[2] == "+X" else {
            throw CodecError(
                .probe, path: path,
                reason: "Radiance HDR of orientation \(words[0]) \(words[2]) is not supported (only -Y +X)")
        }
        guard let height = Int(words[1]), let width = Int(words[3]), height > 0, width > 0,
            height <= 1 << 20, width <= 1 << 20
        else { throw corrupt("its resolution line is \(words.joined(separator: " "))") }
        return Size(width: width, height: height)
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        let size = try Self.size(file.head, path: path)
        // Run-length coding keeps a flat row's channels in runs of 127 pixels in 2 bytes.
        let least = Int((Double(size.width) * Double(size.height) / 64).rounded(.down))
        guard file.fileSize >= least else {
            throw CodecError(
                .probe, path: path,
                reason: "corrupt Radiance HDR: its \(file.fileSize) bytes cannot hold the \(size.width)x\(size.height) "
                    + "pixels its header claims (at least \(least) bytes): cut short, or made to exhaust memory")
        }
        return ImageInfo(
            format: .radiance, storedSize: size, colorModel: .rgb, bitDepth: 32, hasAlpha: false, isProgressive: false)
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let functions: OpenCVLibrary.Functions
        switch OpenCVLibrary.loaded {
        case .success(let loaded): functions = loaded
        case .failure(let failure): throw CodecError(.decode, path: path, reason: "Radiance HDR: \(failure.reason)")
        }
        let size = info.storedSize
        var light = [Float](repeating: 0, count: size.width * size.height * 3)
        var message = [CChar](repeating: 0, count: 256)
        let systemPath = path.systemPath
        let status = light.withUnsafeMutableBufferPointer { light in
            functions.readRadiance(
                systemPath, Int32(size.width), Int32(size.height), light.baseAddress!, &message, message.count)
        }
        guard status == 0 else { throw CodecError(.decode, path: path, reason: "Radiance HDR: \(message.text)") }
        var bitmap = Bitmap(size: size, alpha: .none)
        light.withUnsafeBufferPointer { light in
            bitmap.pixels.withUnsafeMutableBufferPointer { codes in
                iw_encode_linear_light(light.baseAddress, light.count, codes.baseAddress)
            }
        }
        if let target { bitmap = bitmap.boxShrunk(target: target, margin: decoder.margin) }
        return DecodedImage(bitmap: bitmap, warnings: [])
    }

    /// The box shrink, and the OpenCV loaded.
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let factors = target.map {
            BoxShrinkStream.factors(stored: info.storedSize, target: $0, margin: decoder.margin)
        }
        let version = (try? OpenCVLibrary.loaded.get()).map { String(cString: $0.version()) } ?? "no OpenCV"
        return "whole, shrunk \(factors.map { "\($0.x)x\($0.y)" } ?? "1x1") by \(version)"
    }

    /// The 8-bit pixels, and the light as floats twice (OpenCV's and ImageWall's copy).
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let pixels = info.storedSize.width * info.storedSize.height
        return (pixels * 3, pixels * 24)
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }
}
