import Foundation
import Testing
import _WallTestSupport

/// The libraries that load only when a file needs them (libheif with its HEVC and AV1 codecs,
/// FFmpeg's, libjxl with Highway), watched through the dynamic loader's own report on the built
/// executable.
@Suite("Libraries loaded when needed")
struct LibraryLoadingTests {
    static let binary = Fixtures.binary

    /// The shared objects the dynamic loader maps while `imagewall` renders `inputs`
    /// (`LD_DEBUG=files`), by file name.
    func loaded(rendering inputs: [String]) throws -> Set<String> {
        let folder = TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["render"] + inputs + ["-o", folder.file("sheet.png"), "--no-cache", "-q"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_DEBUG": "files"]) { $1 }
        let report = Pipe()
        process.standardError = report
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text.suffix(500))")
        #expect(Fixtures.read(folder.file("sheet.png")) != nil)
        // "  12345:	file=libheif.so.1 [0];  dynamically loaded by …"
        let names = text.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
        return Set(names)
    }

    @Test(
        "a render of JPEG and PNG files loads neither libheif nor FFmpeg; a HEIC file loads libheif",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func heifOnlyForHEIF() throws {
        let stills = try loaded(rendering: [
            Fixtures.sample("landscape-baseline-420.jpg"), Fixtures.sample("png-rgb.png"),
        ])
        #expect(stills.contains { $0.hasPrefix("libjpeg.so") }, "the report names what loads: \(stills.sorted())")
        #expect(!stills.contains { $0.hasPrefix("libheif.so") || $0.hasPrefix("libde265.so") })
        #expect(!stills.contains { $0.hasPrefix("libavformat.so") || $0.hasPrefix("libavcodec.so") })
        #expect(!stills.contains { $0.hasPrefix("libjxl.so") || $0.hasPrefix("libhwy.so") })
        let heic = try loaded(rendering: [Fixtures.sample("heic-thumbnail.heic")])
        #expect(heic.contains { $0.hasPrefix("libheif.so") })
        #expect(!heic.contains { $0.hasPrefix("libavformat.so") || $0.hasPrefix("libjxl.so") })
    }

    @Test(
        "a JPEG XL file loads libjxl, and is drawn",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func jxlOnlyForJXL() throws {
        let jxl = try loaded(rendering: [
            Fixtures.sample("jxl-lossless-alpha.jxl"), Fixtures.sample("jxl-lossy.jxl"), Fixtures.sample("png-rgb.png"),
        ])
        #expect(jxl.contains { $0.hasPrefix("libjxl.so") })
        #expect(!jxl.contains { $0.hasPrefix("libheif.so") })
    }
}
