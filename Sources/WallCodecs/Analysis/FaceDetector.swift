import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Faces in a picture, found by OpenCV's cascade classifier with opencv-data's Haar frontal-face
/// cascade (Viola and Jones'), through ``OpenCVLibrary``, loaded the first time a crop asks for
/// faces.
public enum FaceDetector {
    /// The cascade: opencv-data's Haar frontal faces ("alt2"): of those opencv-data has, the one
    /// that found most faces of the smart-crop benchmark (21 of 24 at 400 px, one box elsewhere;
    /// the default cascade 11, the LBP ones none).
    public static let cascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
    /// The smallest face looked for, in pixels of the picture looked at.
    public static let smallest = 20

    /// Why faces cannot be looked for on this machine; `nil` when they can.
    public static var unavailable: String? {
        switch library {
        case .failure(let problem): return problem.reason
        case .success: return access(cascade, R_OK) == 0 ? nil : "opencv-data's face cascade \(cascade) is missing"
        }
    }

    /// The library's OpenCV ("OpenCV 4.6.0"), loading it; `nil` when it cannot be loaded.
    public static var version: String? {
        guard case .success(let functions) = library else { return nil }
        return String(cString: functions.version())
    }

    /// The faces in `picture` (its levels), as boxes in its pixels, ordered top to bottom.
    public static func faces(in picture: Grayscale) throws(FaceDetectorError) -> [Rect] {
        let functions = try library.get()
        var boxes = [Int32](repeating: 0, count: 4 * 64)
        var message = [CChar](repeating: 0, count: 512)
        let width = Int32(picture.size.width), height = Int32(picture.size.height)
        let found: Int32 = picture.levels.withUnsafeBufferPointer { levels in
            functions.detect(
                cascade, levels.baseAddress!, width, height, width, Int32(smallest), &boxes, 64, &message,
                message.count)
        }
        guard found >= 0 else { throw FaceDetectorError(reason: message.text) }
        return (0..<min(Int(found), 64)).map { i in
            Rect(
                x: Int(boxes[4 * i]), y: Int(boxes[4 * i + 1]), width: Int(boxes[4 * i + 2]),
                height: Int(boxes[4 * i + 3]))
        }
    }

    /// The library, loaded on first use (``OpenCVLibrary``).
    static var library: Result<OpenCVLibrary.Functions, FaceDetectorError> {
        OpenCVLibrary.loaded.mapError { FaceDetectorError(reason: $0.reason) }
    }
}

/// Why faces could not be looked for.
public struct FaceDetectorError: Error, Sendable, Equatable {
    /// In words.
    public var reason: String
}
