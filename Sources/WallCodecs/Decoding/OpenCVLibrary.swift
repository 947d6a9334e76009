import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `libImageWallFaces.so`: a library of ImageWall's that links OpenCV, for its face detector
/// (``FaceDetector``) and its reader of Radiance HDR pictures, loaded the first time either is
/// needed (OpenCV and what it links take tens of megabytes and milliseconds that no other render
/// should pay). It is looked for beside the executable, then in `../lib/imagewall` from it (where
/// `make install` puts it).
enum OpenCVLibrary {
    /// The library's functions.
    struct Functions: @unchecked Sendable {
        typealias Detect =
            @convention(c) (
                UnsafePointer<CChar>, UnsafePointer<UInt8>, Int32, Int32, Int32, Int32, UnsafeMutablePointer<Int32>,
                Int32,
                UnsafeMutablePointer<CChar>, Int
            ) -> Int32
        typealias ReadRadiance =
            @convention(c) (
                UnsafePointer<CChar>, Int32, Int32, UnsafeMutablePointer<Float>, UnsafeMutablePointer<CChar>, Int
            ) -> Int32
        typealias Version = @convention(c) () -> UnsafePointer<CChar>
        let detect: Detect
        let readRadiance: ReadRadiance
        let version: Version
    }

    /// Why the library cannot be used.
    struct Failure: Error, Sendable {
        /// In words.
        var reason: String
    }

    /// The library, loaded on first use.
    static let loaded: Result<Functions, Failure> = load()

    /// Where the library may be: beside the executable, then in `../lib/imagewall` from it.
    static var candidates: [String] {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return [] }
        let executable = SystemPath.string(buffer[0..<count].map { UInt8(bitPattern: $0) })
        let folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return [folder + "/libImageWallFaces.so", folder + "/../lib/imagewall/libImageWallFaces.so"]
    }

    private static func load() -> Result<Functions, Failure> {
        var tried: [String] = []
        for path in candidates {
            guard access(path.systemPath, R_OK) == 0 else { continue }
            guard let handle = dlopen(path.systemPath, RTLD_NOW | RTLD_LOCAL) else {
                tried.append(dlerror().map { String(cString: $0) } ?? "\(path) cannot be loaded")
                continue
            }
            guard let detect = dlsym(handle, "iw_faces_detect"), let version = dlsym(handle, "iw_faces_version"),
                let radiance = dlsym(handle, "iw_opencv_read_radiance")
            else {
                tried.append("\(path) lacks iw_faces_detect or iw_opencv_read_radiance")
                continue
            }
            return .success(
                Functions(
                    detect: unsafeBitCast(detect, to: Functions.Detect.self),
                    readRadiance: unsafeBitCast(radiance, to: Functions.ReadRadiance.self),
                    version: unsafeBitCast(version, to: Functions.Version.self)))
        }
        let reason =
            tried.first.map { "ImageWall's OpenCV library cannot be loaded: \($0)" }
            ?? "ImageWall's OpenCV library (libImageWallFaces.so, built by make build) is not beside the executable"
        return .failure(Failure(reason: reason))
    }
}
