import CFFmpegShim
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Videos through FFmpeg's libraries, drawn as one poster frame: the container gives the
/// displayed size (the display matrix's rotation as the orientation, the sample aspect applied)
/// and the duration without decoding; the frame shown at ``posterMoments`` (1 s in, as thumbsup
/// takes it; later when that frame is blank, as sigal retries) is decoded and scaled to the
/// tile by libswscale. Only the video stream is read, on one thread, for a bounded number of
/// packets; the same file gives the same frame every run.
struct VideoCodec: ImageCodec {
    /// Told apart by their containers' signatures, ahead of HEIF, which shares ISO-BMFF.
    var priority: ClaimPriority { .signature }

    /// At most this many packets of the video stream are read for one frame (a 10 s keyframe
    /// interval at 60 frames a second is 600).
    static let mostPackets = 1200

    /// ISO-BMFF brands of videos (HEIF's and AVIF's are the HEIF codec's).
    static let videoBrands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "qt  ", "3gp4", "3gp5", "3gp6",
        "3gp7", "3gg6", "3g2a", "3g2b", "M4V ", "M4VH", "M4VP", "MSNV", "dash", "f4v ", "XAVC", "mmp4", "NDAS", "CAEP",
        "MQT ", "KDDI", "av01",
    ]

    func sniff(_ head: [UInt8]) -> ImageFormat? {
        func text(_ range: Range<Int>) -> String? {
            head.count >= range.upperBound ? String(decoding: head[range], as: UTF8.self) : nil
        }
        if text(4..<8) == "ftyp", let brand = text(8..<12), VideoCodec.videoBrands.contains(brand) { return .video }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .video }  // Matroska, WebM
        if text(0..<4) == "RIFF", text(8..<12) == "AVI " { return .video }
        return nil
    }

    /// By the bytes, or by a video's extension (QuickTime movies start with other atoms than
    /// `ftyp`; MPEG streams have no magic of their own). A `.ts` file is a video only when its
    /// transport-stream sync bytes say so: it is as often TypeScript.
    func claim(_ file: FileSignature) -> FileClaim? {
        if let format = sniff(file.head) { return .image(format) }
        guard let ext = file.fileExtension, ImageFormat.video.extensions.contains(ext) else { return nil }
        if ext == "ts" {
            let head = file.head
            guard head.count > 188, head[0] == 0x47, head[188] == 0x47 else { return nil }
        }
        return .image(.video)
    }

    func probe(_ file: FileReader, path: String) throws(CodecError) -> ImageInfo {
        let video = try VideoFile(path: path, stage: .probe)
        let about = video.info
        var info = ImageInfo(
            format: .video, storedSize: Size(width: Int(about.width), height: Int(about.height)),
            orientation: VideoCodec.orientation(rotation: about.rotation), colorModel: .ycbcr,
            bitDepth: about.bit_depth > 0 ? Int(about.bit_depth) : 8, hasAlpha: false, isProgressive: false,
            dateTaken: nil)
        var camera = CameraInfo()
        if let taken = VideoCodec.creationDate(local: cText(about.local_created), utc: cText(about.created)) {
            info.dateTaken = taken.date
            camera.timeOffset = taken.offset
        }
        let (make, model) = (cText(about.make).trimmedOfSpaces, cText(about.model).trimmedOfSpaces)
        (camera.make, camera.model) = (make, model)
        info.camera = camera.isEmpty ? nil : camera
        info.drawnFrom = "frame of \(VideoCodec.codecName(about))"
        info.duration = VideoCodec.heldDuration(about)
        let identifier = cText(about.content_id)
        info.contentIdentifier = identifier.isEmpty ? nil : identifier
        return info
    }

    func decode(
        _ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo, target: Size?, decoder: ImageDecoder
    ) throws(CodecError) -> DecodedImage {
        let video = try VideoFile(path: path, stage: .decode)
        guard Size(width: Int(video.info.width), height: Int(video.info.height)) == info.storedSize else {
            throw CodecError(.decode, path: path, reason: "header changed since it was probed")
        }
        let size = VideoCodec.frameSize(stored: info.storedSize, target: target, margin: decoder.margin)
        var first: (bitmap: Bitmap, at: Double, damaged: Int32)?
        for moment in VideoCodec.posterMoments(duration: info.duration) {
            var bitmap = Bitmap(size: size, alpha: .none)
            var shownAt = 0.0
            var damaged: Int32 = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = bitmap.pixels.withUnsafeMutableBufferPointer { rgb in
                iw_video_frame(
                    video.handle, moment, Int32(size.width), Int32(size.height), rgb.baseAddress,
                    Int32(VideoCodec.mostPackets), &shownAt, &damaged, &message, message.count)
            }
            guard status == 0 else {
                if first != nil { break }  // a later moment failed: the earlier frame stands
                throw CodecError(.decode, path: path, reason: "video: \(message.text)")
            }
            if first == nil { first = (bitmap, shownAt, damaged) }
            if !VideoCodec.isBlank(bitmap) {
                return VideoCodec.poster(bitmap, at: shownAt, damaged: damaged, video: video.info)
            }
        }
        guard let first else { throw CodecError(.decode, path: path, reason: "video: no frame could be decoded") }
        var poster = VideoCodec.poster(first.bitmap, at: first.at, damaged: first.damaged, video: video.info)
        poster.notes.append("every frame tried is blank")
        return poster
    }

    /// The moments tried for the poster frame, in order: 1 s in, then 3 s, a quarter and half
    /// of the way; half way for a clip shorter than 2 s. The first frame that is not blank is
    /// drawn.
    static func posterMoments(duration: Double?) -> [Double] {
        guard let duration, duration > 0 else { return [1, 3] }
        if duration < 2 { return [duration / 2] }
        var moments: [Double] = []
        for moment in [1, 3, duration / 4, duration / 2] where moment < duration && !moments.contains(moment) {
            moments.append(moment)
        }
        return moments
    }

    /// A frame of one flat colour (black, a fade to white): its luma varies by under 3 levels
    /// in a grid of samples.
    static func isBlank(_ bitmap: Bitmap) -> Bool {
        let w = bitmap.size.width, h = bitmap.size.height
        var low = 255, high = 0
        let steps = 24
        for row in 0..<steps {
            let y = (row * h + h / 2) / steps
            for column in 0..<steps {
                let x = (column * w + w / 2) / steps
                let at = (y * w + x) * 3
                let luma =
                    (Int(bitmap.pixels[at]) * 77 + Int(bitmap.pixels[at + 1]) * 150 + Int(bitmap.pixels[at + 2]) * 29)
                    >> 8
                low = min(low, luma)
                high = max(high, luma)
            }
        }
        return high - low < 3
    }

    /// How long the clip is: as its container says, or when the file is cut short, as long as
    /// the frames it holds; `nil` when the container does not say.
    static func heldDuration(_ about: iw_video_info) -> Double? {
        guard about.duration > 0 else { return nil }
        return about.whole_duration > 0 ? min(about.duration, about.whole_duration) : about.duration
    }

    /// The decoded frame as the poster, with what went wrong on the way (`damaged`: bit 0 damaged
    /// data, bit 1 the frames ended before the moment asked for) and whether the file is cut
    /// short (`video`'s index places frames past its end), the poster frame drawn or not.
    private static func poster(_ bitmap: Bitmap, at: Double, damaged: Int32, video: iw_video_info) -> DecodedImage {
        var warnings: [String] = []
        if video.whole_duration > 0, video.duration_from_frames != 0 {
            warnings.append(
                "video: cut short, its frames end at \(seconds(video.whole_duration)) and its container "
                    + "does not say its length; drawn from a frame it holds")
        } else if video.whole_duration > 0 {
            warnings.append(
                "video: cut short, its frames end at \(seconds(video.whole_duration)) of the "
                    + "\(seconds(video.duration)) its container says; drawn from a frame it holds")
        } else if damaged & 2 != 0, video.duration > at + 0.5 {
            warnings.append(
                "video: its frames end at \(seconds(at)) of the \(seconds(video.duration)) its container says "
                    + "(cut short); drawn from the last one")
        } else if damaged & 1 != 0 {
            warnings.append("video: damaged data met before its poster frame")
        }
        return DecodedImage(bitmap: bitmap, warnings: warnings, notes: ["poster frame at \(seconds(at))"])
    }

    /// "1.0 s".
    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// The size a frame is scaled to: each side `margin` times the target's, never enlarged,
    /// the stored aspect kept within a pixel.
    static func frameSize(stored: Size, target: Size?, margin: Int) -> Size {
        guard let target else { return stored }
        let scale = min(
            1,
            max(
                Double(margin * target.width) / Double(stored.width),
                Double(margin * target.height) / Double(stored.height)))
        return Size(
            width: max(1, Int((Double(stored.width) * scale).rounded(.up))),
            height: max(1, Int((Double(stored.height) * scale).rounded(.up))))
    }

    /// Names the FFmpeg loaded (``CodecLibraries/versions`` names only the headers', so that a
    /// render without videos never loads it).
    func decodePlan(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> String {
        let size = VideoCodec.frameSize(stored: info.storedSize, target: target, margin: decoder.margin)
        return "poster \(VideoCodec.posterMoments(duration: info.duration)) at \(size.width)x\(size.height)"
            + " by \(String(cString: iw_ffmpeg_versions()))"
    }

    /// The scaled frame, and the decoder's frames at full size (a few reference frames of 8 or
    /// 16-bit 4:2:0) with the converter's rows.
    func workingMemory(info: ImageInfo, target: Size?, decoder: ImageDecoder) -> (pixels: Int, besides: Int) {
        let size = VideoCodec.frameSize(stored: info.storedSize, target: target, margin: decoder.margin)
        let frame = (info.storedSize.area ?? 0) * 3 / 2 * (info.bitDepth > 8 ? 2 : 1)
        return ((size.area ?? 0) * 3, frame * 6)
    }

    func colorProfile(_ file: UnsafeMutablePointer<FILE>, path: String, info: ImageInfo) -> ColorProfile? { nil }

    /// The EXIF orientation that turns a frame `rotation` degrees clockwise.
    static func orientation(rotation: Int32) -> Orientation {
        switch rotation {
        case 90: return Orientation(rawValue: 6) ?? .up
        case 180: return Orientation(rawValue: 3) ?? .up
        case 270: return Orientation(rawValue: 8) ?? .up
        default: return .up
        }
    }

    /// "H.264", "HEVC", "VP9": the codec's short name as people say it.
    static func codecName(_ info: iw_video_info) -> String {
        let known = [
            "h264": "H.264", "hevc": "HEVC", "vp8": "VP8", "vp9": "VP9", "libvpx-vp9": "VP9", "av1": "AV1",
            "libdav1d": "AV1", "libaom-av1": "AV1", "prores": "ProRes", "mjpeg": "Motion JPEG", "mpeg4": "MPEG-4",
            "mpeg2video": "MPEG-2", "mpeg1video": "MPEG-1",
        ]
        let name = cText(info.codec)
        return known[name] ?? name
    }

    /// When the clip was taken, as EXIF writes a date ("2026:11:21 20:00:00"), with its offset
    /// from UTC: the local time a phone records with its offset (Apple's `creationdate`,
    /// "2026-11-21T20:00:00-0800"), else the container's `creation_time`, which is UTC, marked
    /// "+00:00". `nil` when neither holds a date (nor one at the containers' epochs, 1904 and 1970).
    static func creationDate(local: String, utc: String) -> (date: String, offset: String)? {
        if let date = exifDate(local), let offset = offset(afterDateIn: local) { return (date, offset) }
        return exifDate(utc).map { ($0, "+00:00") }
    }

    /// "2024-05-01T14:03:22…" (or with a space for the T) as EXIF writes dates: "2024:05:01 14:03:22".
    static func exifDate(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count >= 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].allSatisfy({ (0x30...0x39).contains(b[$0]) })
        else { return nil }
        let date = String(decoding: b[0..<10].map { $0 == UInt8(ascii: "-") ? UInt8(ascii: ":") : $0 }, as: UTF8.self)
        let time = String(decoding: b[11..<19], as: UTF8.self)
        return date.hasPrefix("1970") || date.hasPrefix("1904") ? nil : "\(date) \(time)"
    }

    /// The offset after a date and time ("…T20:00:00-0800", "…T20:00:00.123-08:00", "…Z") as
    /// EXIF writes offsets ("-08:00", "+00:00"); `nil` when there is none.
    static func offset(afterDateIn text: String) -> String? {
        var rest = Substring(text.dropFirst(19))
        if rest.first == "." { rest = rest.dropFirst().drop { $0.isASCII && $0.isNumber } }
        if rest == "Z" { return "+00:00" }
        let b = Array(rest.utf8)
        guard b.count == 5 || (b.count == 6 && b[3] == UInt8(ascii: ":")), b[0] == 0x2B || b[0] == 0x2D else {
            return nil
        }
        let digits = b.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let d = String(decoding: digits, as: UTF8.self)
        return "\(Character(UnicodeScalar(b[0])))\(d.prefix(2)):\(d.suffix(2))"
    }
}

/// A video opened by FFmpeg, closed when released.
final class VideoFile {
    let handle: OpaquePointer
    let info: iw_video_info

    /// Opens the video at `path`; throws, naming it, when FFmpeg cannot read it or its header
    /// claims frames over the pixel limit.
    init(path: String, stage: CodecStage) throws(CodecError) {
        var info = iw_video_info()
        var message = [CChar](repeating: 0, count: 256)
        guard
            let handle = iw_video_open(
                path.systemPath, Int64(ImageProbe.defaultMaxImagePixels), &info, &message, message.count)
        else {
            throw CodecError(stage, path: path, reason: "video: \(message.text)")
        }
        self.handle = handle
        self.info = info
    }

    deinit { iw_video_close(handle) }
}
