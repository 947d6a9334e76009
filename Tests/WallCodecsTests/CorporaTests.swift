import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// The public conformance images in ../shared/corpora; skipped where the folder is absent.
@Suite("Conformance corpora", .enabled(if: Fixtures.corpora != nil))
struct CorporaTests {
    static let root = Fixtures.corpora ?? ""

    static func images(_ folder: String, _ suffix: String) -> [String] {
        Fixtures.files(in: root + "/" + folder).filter { $0.lowercased().hasSuffix(suffix) }
    }

    @Test(
        "every valid PngSuite image decodes at its header's size",
        arguments: images("pngsuite", ".png").filter { !$0.hasPrefix("x") })
    func pngSuite(name: String) throws {
        let path = Self.root + "/pngsuite/" + name
        let info = try ImageProbe().probe(path: path)
        // The suite's sNN files are NxN; basn/basi and most others are 32x32.
        if name.hasPrefix("s"), let side = Int(name.dropFirst().prefix(2)) {
            #expect(info.storedSize == Size(width: side, height: side))
        } else if name.hasPrefix("bas") {
            #expect(info.storedSize == Size(width: 32, height: 32))
        }
        // The fourth letter of a suite name is "i" for Adam7-interlaced files.
        if name.count == 12 { #expect(info.isProgressive == (Array(name)[3] == "i")) }
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.bitmap.size == info.storedSize)
    }

    @Test(
        "every corrupt PngSuite image (x*) is refused with a reason",
        arguments: images("pngsuite", ".png").filter { $0.hasPrefix("x") })
    func pngSuiteCorrupt(name: String) {
        let path = Self.root + "/pngsuite/" + name
        do {
            let info = try ImageProbe().probe(path: path)
            _ = try ImageDecoder().decode(path: path, info: info)
            Issue.record("\(name) was accepted")
        } catch let error as CodecError {
            #expect(!error.reason.isEmpty)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(
        "EXIF orientation examples all display upright like their untagged twin", arguments: ["Landscape", "Portrait"])
    func exifOrientation(kind: String) throws {
        let folder = Self.root + "/exif-orientation/"
        let referencePath = folder + kind + "_0.jpg"
        let referenceInfo = try ImageProbe().probe(path: referencePath)
        let reference = try ImageDecoder().decode(path: referencePath, info: referenceInfo).bitmap
        for value in 1...8 {
            let path = folder + "\(kind)_\(value).jpg"
            let info = try ImageProbe().probe(path: path)
            #expect(info.orientation.rawValue == value)
            let shown = try ImageDecoder().decode(path: path, info: info).bitmap
            #expect(shown.size == reference.size, "\(kind)_\(value)")
            guard shown.size == reference.size else { continue }
            // Compare 4x4 block means: a wrong rotation or mirror differs by far more.
            var worst = 0.0
            let cell = Size(width: shown.size.width / 4, height: shown.size.height / 4)
            for by in 0..<4 {
                for bx in 0..<4 {
                    let rect = Rect(x: bx * cell.width, y: by * cell.height, width: cell.width, height: cell.height)
                    let a = shown.mean(in: rect), b = reference.mean(in: rect)
                    worst = max(worst, zip(a, b).map { abs($0 - $1) }.max()!)
                }
            }
            #expect(worst < 12, "\(kind)_\(value) differs from \(kind)_0 by \(worst)")
        }
    }

    @Test("libjpeg-turbo's test images decode, or fail cleanly", arguments: images("libjpeg-turbo-testimages", ".jpg"))
    func libjpegTurbo(name: String) {
        let path = Self.root + "/libjpeg-turbo-testimages/" + name
        do {
            let info = try ImageProbe().probe(path: path)
            let decoded = try ImageDecoder().decode(path: path, info: info)
            #expect(decoded.bitmap.size == info.displayedSize)
        } catch let error as CodecError {
            #expect(error.reason.contains("not supported"), "\(name): \(error.reason)")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
