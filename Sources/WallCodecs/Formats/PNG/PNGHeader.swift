import WallCore

/// Reads a PNG's IHDR and walks the chunk headers before the first IDAT for tRNS, iCCP and
/// eXIf. An eXIf chunk after the image data is not looked at: the PNG 3rd edition puts it
/// before IDAT, and the layout is fixed before any image data is read.
enum PNGHeader {
    /// Chunks walked before the image data; past this the rest is not looked at.
    static let maxChunks = 1000

    static func read(_ reader: FileReader, path: String) throws(CodecError) -> ImageInfo {
        func fail(_ reason: String) -> CodecError { CodecError(.probe, path: path, reason: reason) }
        let ihdr = try reader.read(at: 8, count: 25, path: path)
        guard ihdr.count == 25 else { throw fail("truncated PNG: the file ends inside the header") }
        guard ihdr[4..<8].elementsEqual("IHDR".utf8), u32(ihdr, 0) == 13 else {
            throw fail("corrupt PNG: the first chunk is not a 13-byte IHDR")
        }
        let width = u32(ihdr, 8), height = u32(ihdr, 12)
        let depth = Int(ihdr[16]), colorType = Int(ihdr[17]), interlace = Int(ihdr[20])
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw fail("corrupt PNG: invalid image size \(width)x\(height)")
        }
        let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowed[colorType] else { throw fail("corrupt PNG: invalid colour type \(colorType)") }
        guard depths.contains(depth) else {
            throw fail("corrupt PNG: bit depth \(depth) is invalid for colour type \(colorType)")
        }
        guard interlace <= 1, ihdr[18] == 0, ihdr[19] == 0 else {
            throw fail("corrupt PNG: unknown compression, filter or interlace method")
        }
        var hasTRNS = false, hasICC = false
        var software: String?
        var exif: ExifFields?
        var offset = 33
        for _ in 0..<maxChunks {
            let header = try reader.read(at: offset, count: 8, path: path)
            guard header.count == 8 else { break }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { break }
            if type == "tRNS" { hasTRNS = true }
            if type == "iCCP" { hasICC = true }
            if type == "tEXt", software == nil, u32(header, 0) <= 1024 {
                let text = try reader.read(at: offset + 8, count: u32(header, 0), path: path)
                let keyword = Array("Software".utf8) + [0]
                if text.starts(with: keyword) {
                    software = String(decoding: text.dropFirst(keyword.count), as: UTF8.self)
                }
            }
            if type == "eXIf", exif == nil, u32(header, 0) <= 1 << 20 {
                exif = ExifReader.fields(in: try reader.read(at: offset + 8, count: u32(header, 0), path: path))
            }
            offset += 12 + u32(header, 0)
        }
        let model: ColorModel = [0: .gray, 2: .rgb, 3: .palette, 4: .grayAlpha, 6: .rgba][colorType] ?? .rgb
        var info = ImageInfo(
            format: .png, storedSize: Size(width: width, height: height), orientation: exif?.orientation ?? .up,
            colorModel: model, bitDepth: depth, hasAlpha: colorType == 4 || colorType == 6 || hasTRNS,
            isProgressive: interlace == 1, hasICCProfile: hasICC, dateTaken: exif?.dateTaken, software: software)
        info.camera = exif?.camera
        return info
    }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
