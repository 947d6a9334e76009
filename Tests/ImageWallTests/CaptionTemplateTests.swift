import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallLayout
import _WallTestSupport

@Suite("Caption templates")
struct CaptionTemplateTests {
    @Test("fields, braces and errors")
    func parsing() throws {
        #expect(throws: CaptionTemplate.Invalid.self) { try CaptionTemplate("{nmae}") }
        #expect(throws: CaptionTemplate.Invalid.self) { try CaptionTemplate("{name") }
        #expect(throws: CaptionTemplate.Invalid.self) { try CaptionTemplate("a } b") }
        _ = try CaptionTemplate("{{literal}} {name}")
    }

    @Test("every field is one case: parsed, listed in the help, and only dates take a format")
    func fields() throws {
        for field in CaptionField.allCases {
            let template = try CaptionTemplate("[{\(field.rawValue)}]")
            #expect(template.uses(field))
            #expect(CaptionField.allCases.filter { template.uses($0) } == [field])
            #expect(CaptionField.helpList.contains("{\(field.rawValue)}"))
            if field.takesFormat {
                _ = try CaptionTemplate("{\(field.rawValue):%Y}")
            } else {
                #expect(throws: CaptionTemplate.Invalid.self) { try CaptionTemplate("{\(field.rawValue):%Y}") }
            }
        }
        #expect(CaptionField.allCases.filter(\.takesFormat) == [.date, .mtime])
        #expect(
            CaptionField.helpList.hasPrefix("{name} {stem} {path} {index} {width} {height} {format} {size} (3.1 MB) "))
        let error = #expect(throws: CaptionTemplate.Invalid.self) { try CaptionTemplate("{nmae}") }
        #expect(error?.message.contains("{aperture}") == true)
    }

    @Test("a camera's fields as captions and the gallery show them")
    func cameraFields() {
        var camera = CameraInfo()
        camera.exposureTime = CameraInfo.Fraction(1, 250)
        camera.fNumber = 2.8
        camera.iso = 400
        camera.focalLength = 35
        camera.rating = 3
        camera.lens = "50mm F1.8"
        let texts = CaptionField.allCases.compactMap { field in field.text(of: camera).map { (field, $0) } }
        #expect(texts.map(\.0) == [.lens, .exposure, .aperture, .iso, .focal, .rating])
        #expect(texts.map(\.1) == ["50mm F1.8", "1/250 s", "f/2.8", "ISO 400", "35 mm", "★★★"])
        // The help's examples are these fields' own texts.
        for (field, text) in texts where field != .lens {
            #expect(field.note == text)
            #expect(CaptionField.helpList.contains("{\(field.rawValue)} (\(text))"))
        }
        #expect(CaptionField.name.text(of: camera) == nil)
    }

    @Test("EXIF DateTimeOriginal reaches the probe and {date}")
    func date() throws {
        // TIFF, little-endian: IFD0 (orientation, Exif IFD pointer), Exif IFD (DateTimeOriginal).
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        var tiff: [UInt8] = [0x49, 0x49] + u16(42) + u32(8)
        tiff +=
            u16(2) + u16(0x0112) + u16(3) + u32(1) + u16(6) + u16(0) + u16(0x8769) + u16(4) + u32(1) + u32(38) + u32(0)
        tiff += u16(1) + u16(0x9003) + u16(2) + u32(20) + u32(56) + u32(0)
        tiff += Array("2024:05:01 14:03:22".utf8) + [0]
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.app1 = Array("Exif".utf8) + [0, 0] + tiff
        let folder = TemporaryFolder()
        let path = folder.file("dated.jpg")
        try JPEGEncoder.write(
            samples: [UInt8](repeating: 90, count: 16 * 8 * 3), size: Size(width: 16, height: 8), options: options,
            to: path)
        let info = try ImageProbe().probe(path: path)
        #expect(info.orientation == .right && info.dateTaken == "2024:05:01 14:03:22")
        var wall = WallOptions()
        wall.rendering.caption = try CaptionTemplate("{date} {width}x{height} {format} #{index}")
        let manifest = try Wall.manifest(ofSizes: [Size(width: 1, height: 1)], options: wall)
        #expect(manifest.tiles[0].caption != nil)
    }
}
