// Builds the HEIC and WebP benchmark corpora from the photos (make bench):
//   imagewall-corpus heic SRC DEST   each photo as a phone writes it: HEVC (x265's fastest
//                                    preset, as a phone's hardware encoder), quality 50, a 512 px
//                                    thumbnail, the pixels as the sensor stored them and the
//                                    EXIF orientation turned into irot/imir
//   imagewall-corpus webp SRC DEST   each photo upright as a web download: lossy, quality 80
import Foundation
import WallCodecs
import WallCore

let arguments = CommandLine.arguments
guard arguments.count == 4, ["heic", "webp"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: imagewall-corpus heic|webp SRC DEST\n".utf8))
    exit(64)
}
let (kind, source, destination) = (arguments[1], arguments[2], arguments[3])
try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
let names = try FileManager.default.contentsOfDirectory(atPath: source).filter { $0.lowercased().hasSuffix(".jpg") }
    .sorted()
let next = Locked(0)
DispatchQueue.concurrentPerform(iterations: ProcessInfo.processInfo.activeProcessorCount) { _ in
    while true {
        let index = next.withLock { n -> Int in
            defer { n += 1 }
            return n
        }
        guard index < names.count else { return }
        let name = names[index]
        let stem = (name as NSString).deletingPathExtension
        do {
            let path = source + "/" + name
            var info = try ImageProbe().probe(path: path)
            if kind == "heic" {
                let orientation = info.orientation
                info.orientation = .up  // the stored pixels; the orientation goes into irot/imir
                var options = HEIFEncodeOptions()
                options.quality = 50
                options.thumbnail = 512
                options.fast = true
                options.orientation = orientation
                try HEIFEncoder.write(
                    ImageDecoder().decode(path: path, info: info).bitmap, options: options,
                    to: destination + "/\(stem).heic")
            } else {
                var options = WebPEncodeOptions()
                options.quality = 80
                try WebPEncoder.write(
                    ImageDecoder().decode(path: path, info: info).bitmap, options: options,
                    to: destination + "/\(stem).webp")
            }
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
        }
    }
}
