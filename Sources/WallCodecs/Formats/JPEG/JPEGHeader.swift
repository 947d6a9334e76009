import WallCore

/// Walks JPEG marker segments up to the first scan: frame header (SOFn), EXIF (APP1),
/// Adobe (APP14) and ICC (APP2).
enum JPEGHeader {
    /// Segments walked before giving up on finding a frame header.
    static let maxSegments = 4096

    /// Calls `visit` with each marker segment before the first scan: its marker, payload
    /// offset and payload length; `visit` returns `false` to stop. Returns where the walk
    /// ended.
    @discardableResult
    static func walkSegments(
        _ reader: FileReader, path: String, _ visit: (UInt8, Int, Int) throws(CodecError) -> Bool
    ) throws(CodecError) -> Int {
        var offset = 2
        var segments = 0
        while segments < maxSegments {
            segments += 1
            var prefix = try reader.read(at: offset, count: 4, path: path)
            guard prefix.count >= 2 else { break }
            if prefix[0] != 0xFF || prefix[1] == 0x00 {
                // Stray bytes where a marker belongs: libjpeg skips them to the next marker
                // with a warning ("extraneous bytes before marker"), which its decode records.
                guard let next = try nextMarker(reader, after: offset, path: path) else { break }
                offset = next
                prefix = try reader.read(at: offset, count: 4, path: path)
                guard prefix.count >= 2 else { break }
            }
            let marker = prefix[1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { break }  // EOI or SOS: the header is over
            guard prefix.count == 4 else { break }
            let length = Int(prefix[2]) << 8 | Int(prefix[3])
            guard length >= 2 else {
                throw CodecError(
                    .probe, path: path, reason: "corrupt JPEG: marker segment shorter than its length field")
            }
            if try !visit(marker, offset + 4, length - 2) { break }
            offset += 2 + length
        }
        if segments >= maxSegments {
            throw CodecError(
                .probe, path: path,
                reason: "corrupt JPEG: more than \(maxSegments) marker segments before the image data")
        }
        return offset
    }

    /// The offset of the next marker at or after `offset` as libjpeg finds one: past any
    /// bytes that are not 0xFF, and past 0xFF 0x00 pairs (stuffed data); `nil` at the end of
    /// the file. Reads the file a block at a time, never more than it holds.
    static func nextMarker(_ reader: FileReader, after offset: Int, path: String) throws(CodecError) -> Int? {
        let blockSize = 65536
        var position = offset
        while position < reader.fileSize {
            let block = try reader.read(at: position, count: blockSize, path: path)
            guard !block.isEmpty else { return nil }
            var next = position + block.count
            var i = 0
            scan: while i < block.count {
                guard block[i] == 0xFF else {
                    i += 1
                    continue
                }
                var j = i + 1
                while j < block.count && block[j] == 0xFF { j += 1 }
                if j == block.count {
                    // Fill bytes up to the block's end: at the file's end there is no marker,
                    // else read on from the last of them.
                    guard block.count == blockSize else { return nil }
                    next = position + j - 1
                    break scan
                }
                if block[j] != 0x00 { return position + j - 1 }
                i = j + 1
            }
            position = next
        }
        return nil
    }

    static func read(_ reader: FileReader, path: String) throws(CodecError) -> ImageInfo {
        var frame: (marker: UInt8, payload: [UInt8])?
        var exif: ExifFields?
        var exifStart = 0
        var adobeTransform: Int?
        var hasICC = false
        let end = try walkSegments(reader, path: path) { marker, payloadOffset, payloadLength throws(CodecError) in
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if frame == nil {
                    frame = (marker, try reader.read(at: payloadOffset, count: payloadLength, path: path))
                }
            case 0xE1 where exif == nil:
                let payload = try reader.read(at: payloadOffset, count: min(payloadLength, 65533), path: path)
                if payload.starts(with: Array("Exif".utf8)) {
                    exif = ExifReader.fields(inAPP1: payload[...])
                    exifStart = payloadOffset + 6  // after "Exif\0\0"
                }
            case 0xE2:
                let tag = try reader.read(at: payloadOffset, count: 12, path: path)
                if tag == iccTag { hasICC = true }
            case 0xEE:
                let payload = try reader.read(at: payloadOffset, count: 12, path: path)
                if payload.count >= 12, payload.starts(with: Array("Adobe".utf8)) {
                    adobeTransform = Int(payload[11])
                }
            default:
                break
            }
            return true
        }
        guard let frame else {
            throw CodecError(
                .probe, path: path,
                reason: end >= reader.fileSize
                    ? "truncated JPEG: the file ends before the frame header"
                    : "corrupt JPEG: no frame header (SOFn) before the image data")
        }
        var info = try info(
            frame: frame, orientation: exif?.orientation ?? .up, adobeTransform: adobeTransform,
            hasICC: hasICC, path: path)
        info.dateTaken = exif?.dateTaken
        info.contentIdentifier = exif?.contentIdentifier
        info.camera = exif?.camera
        info.software = exif?.software
        info.embeddedThumbnail = exif?.thumbnail.map { exifStart + $0.lowerBound..<exifStart + $0.upperBound }
        return info
    }

    static let iccTag = Array("ICC_PROFILE\0".utf8)

    /// The ICC profile split over APP2 chunks ("ICC_PROFILE\0", sequence number, count),
    /// joined in sequence order; `nil` when absent or its chunks do not add up.
    static func iccProfile(_ reader: FileReader, path: String) throws(CodecError) -> [UInt8]? {
        var chunks: [Int: [UInt8]] = [:]
        var expected = 0
        var total = 0
        try walkSegments(reader, path: path) { marker, payloadOffset, payloadLength throws(CodecError) in
            guard marker == 0xE2, payloadLength > 14 else { return true }
            let head = try reader.read(at: payloadOffset, count: 14, path: path)
            guard head.count == 14, Array(head[0..<12]) == iccTag else { return true }
            let sequence = Int(head[12]), count = Int(head[13])
            guard sequence >= 1, count >= 1, sequence <= count, expected == 0 || expected == count else { return true }
            expected = count
            total += payloadLength - 14
            guard total <= 16 << 20 else { return false }  // no real profile is this big
            if chunks[sequence] == nil {
                chunks[sequence] = try reader.read(at: payloadOffset + 14, count: payloadLength - 14, path: path)
            }
            return true
        }
        guard expected > 0, chunks.count == expected else { return nil }
        return (1...expected).flatMap { chunks[$0] ?? [] }
    }

    private static func info(
        frame: (marker: UInt8, payload: [UInt8]), orientation: Orientation,
        adobeTransform: Int?, hasICC: Bool, path: String
    ) throws(CodecError) -> ImageInfo {
        func fail(_ reason: String) -> CodecError { CodecError(.probe, path: path, reason: reason) }
        let p = frame.payload
        guard p.count >= 6 else { throw fail("truncated JPEG frame header") }
        let precision = Int(p[0])
        let height = Int(p[1]) << 8 | Int(p[2])
        let width = Int(p[3]) << 8 | Int(p[4])
        let components = Int(p[5])
        guard p.count >= 6 + 3 * components else { throw fail("truncated JPEG frame header") }
        switch frame.marker {
        case 0xC3, 0xC7, 0xCB, 0xCF:
            throw fail("lossless JPEG (SOF\(frame.marker - 0xC0)) is not supported by this libjpeg")
        case 0xC5, 0xC6, 0xCD, 0xCE:
            throw fail("hierarchical JPEG (SOF\(frame.marker - 0xC0)) is not supported")
        default: break
        }
        guard precision == 8 else {
            throw fail("\(precision)-bit JPEG samples are not supported (8-bit only)")
        }
        guard width > 0 else { throw fail("JPEG frame header gives a width of 0") }
        guard height > 0 else {
            throw fail("JPEG height defined later by a DNL marker is not supported")
        }
        var ids: [UInt8] = []
        var sampling: [(h: Int, v: Int)] = []
        for c in 0..<components {
            ids.append(p[6 + 3 * c])
            let factors = Int(p[7 + 3 * c])
            sampling.append((factors >> 4, factors & 15))
        }
        let model: ColorModel
        switch components {
        case 1: model = .gray
        case 3:
            let rgbIDs = ids == Array("RGB".utf8)
            model = (adobeTransform == 0 || rgbIDs) ? .rgb : .ycbcr
        case 4: model = adobeTransform == 2 ? .ycck : .cmyk
        default: throw fail("JPEG with \(components) colour components is not supported")
        }
        return ImageInfo(
            format: .jpeg, storedSize: Size(width: width, height: height),
            orientation: orientation, colorModel: model, bitDepth: 8, hasAlpha: false,
            isProgressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(frame.marker),
            chromaSubsampling: components >= 3 ? subsampling(sampling) : nil,
            hasICCProfile: hasICC)
    }

    /// Names the chroma subsampling from the luma and first chroma sampling factors.
    private static func subsampling(_ factors: [(h: Int, v: Int)]) -> String {
        let luma = factors[0], chroma = factors[1]
        guard chroma.h > 0, chroma.v > 0 else { return "unknown" }
        switch (luma.h / chroma.h, luma.v / chroma.v) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        case (let h, let v): return "\(h)x\(v)"
        }
    }
}
