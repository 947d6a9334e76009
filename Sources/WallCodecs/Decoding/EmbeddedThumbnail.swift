import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension ImageDecoder {
    /// The small JPEG a file's EXIF keeps of its picture (``ImageInfo/embeddedThumbnail``),
    /// decoded and turned upright as the picture is; `nil` when there is none, when it cannot be
    /// read whole, or when it is not of the picture's shape (within 3 %: a camera that boxes a
    /// 3:2 photo into a 4:3 thumbnail has drawn bars in it). For looking at a picture, not for
    /// drawing it: an editor may leave the thumbnail of the picture before its edits.
    public func decodeEmbeddedThumbnail(path: String, info: ImageInfo) -> DecodedImage? {
        guard let range = info.embeddedThumbnail, range.count <= 65536,
            let reader = try? FileReader(path: path, headBytes: 0),
            var bytes = try? reader.read(at: range.lowerBound, count: range.count, path: path),
            bytes.count == range.count, bytes.starts(with: [0xFF, 0xD8]),
            let thumbnail = try? JPEGHeader.read(FileReader(bytes: bytes), path: path)
        else { return nil }
        let picture = info.storedSize, small = thumbnail.storedSize
        guard small.width >= 32, small.height >= 32, picture.width > 0, picture.height > 0,
            abs(small.width * picture.height - small.height * picture.width) * 100
                <= 3 * small.height * picture.width
        else { return nil }
        let decoded = bytes.withUnsafeMutableBytes { buffer -> DecodedImage? in
            guard let jpeg = fmemopen(buffer.baseAddress, buffer.count, "rb") else { return nil }
            defer { fclose(jpeg) }
            return try? JPEGCodec().decode(jpeg, path: path, info: thumbnail, target: nil, decoder: self, profile: nil)
        }
        guard var decoded, !decoded.isDamaged else { return nil }
        decoded.bitmap = decoded.bitmap.oriented(info.orientation)
        return decoded
    }
}
