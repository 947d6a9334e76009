import Foundation
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// Quiet success, loud damage: libpng's notes that change no pixel stay off stderr (kept in
/// the manifest, shown with `--verbose`); a damaged file still warns.
@Suite("Decoder notes and warnings")
struct DecoderNotesTests {
    static let binary = Fixtures.binary
    static let editedProfileNote = "iCCP: Not recognizing known sRGB profile that has been edited"
    let folder = TemporaryFolder()

    /// An sRGB profile made by LittleCMS, dressed as the ICC's own sRGB profile (its length,
    /// intent and MD5 ID, which libpng looks up in its table of known profiles) without its
    /// content: what libpng calls a known profile "that has been edited". Such profiles are
    /// common in PNGs from image editors; the colours are sRGB's either way.
    static func editedSRGBProfile() throws -> [UInt8] {
        let curve: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let made = ColorProfile.rgb(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06),
            curveType: 4, parameters: curve, description: "sRGB IEC61966-2.1")
        let srgb = try #require(made)
        let length = 3048
        var bytes = srgb.data
        try #require(bytes.count <= length)
        bytes += [UInt8](repeating: 0, count: length - bytes.count)
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        }
        put(UInt32(length), at: 0)
        put(0, at: 64)  // perceptual intent
        for (i, word) in [0x29f8_3dde, 0xaff2_55ae, 0x7842_fae4, 0xca83_390d].enumerated() {
            put(UInt32(word), at: 84 + 4 * i)
        }
        return bytes
    }

    /// A 320 × 240 PNG carrying `profile`, written to `name`: red and green ramps, blue
    /// varying too much to compress away (so that a file cut short still holds rows).
    func png(_ name: String, profile: [UInt8]) throws -> String {
        let size = Size(width: 320, height: 240)
        var samples: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width { samples += [UInt8(x / 2), UInt8(y), UInt8(truncatingIfNeeded: x * y * 7 + x)] }
        }
        var options = PNGEncodeOptions(colorType: .rgb)
        options.icc = profile
        let path = folder.file(name)
        try PNGEncoder.write(rows: samples, rowBytes: size.width * 3, size: size, options: options, to: path)
        return path
    }

    @Test("libpng's edited-sRGB-profile message is a note, not a warning, and the colours are kept")
    func decoderNote() throws {
        let path = try png("edited.png", profile: Self.editedSRGBProfile())
        let decoded = try ImageDecoder().decode(path: path, info: ImageProbe().probe(path: path))
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.notes == [Self.editedProfileNote])
        let mean = decoded.bitmap.mean(in: Rect(x: 80, y: 20, width: 8, height: 8))
        #expect(abs(mean[0] - 41.5) <= 1 && abs(mean[1] - 23.5) <= 1, "\(mean)")
    }

    /// Runs the built command with `arguments`: its exit status and standard error.
    func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let result = try Fixtures.run(Self.binary, arguments)
        return (result.status, result.errors)
    }

    @Test(
        "a clean render is silent (the note goes to the manifest and --verbose); a truncated file still warns",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func quietRender() throws {
        let clean = TemporaryFolder()
        let path = try png("edited.png", profile: Self.editedSRGBProfile())
        let bytes = try #require(Fixtures.read(path))
        _ = clean.write(bytes, to: "edited.png")
        let plainBytes = try #require(Fixtures.read(Fixtures.sample("png-rgb.png")))
        _ = clean.write(plainBytes, to: "plain.png")
        let sheet = folder.file("sheet.png"), manifest = folder.file("sheet.json")
        let quiet = try run(["render", clean.path, "-o", sheet, "--manifest", manifest, "--no-cache", "-q"])
        #expect(quiet.status == 0)
        let normal = try run(["render", clean.path, "-o", sheet, "--manifest", manifest, "--no-cache"])
        #expect(normal.status == 0)
        #expect(!normal.stderr.contains("warning") && !normal.stderr.contains("iCCP"), "\(normal.stderr)")
        let text: [UInt8] = try #require(Fixtures.read(manifest))
        let json = try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any]
        let tiles: [[String: Any]] = try #require(json?["tiles"] as? [[String: Any]])
        let named = { (name: String) in tiles.first { ($0["source"] as? String)?.hasSuffix(name) == true } }
        let edited: [String: Any] = try #require(named("edited.png"))
        #expect(edited["notes"] as? [String] == [Self.editedProfileNote])
        #expect((edited["warnings"] as? [String])?.isEmpty == true)
        let plain: [String: Any] = try #require(named("plain.png"))
        #expect(plain["notes"] == nil)

        let verbose = try run(["render", clean.path, "-o", sheet, "--no-cache", "--verbose"])
        #expect(verbose.stderr.contains("note: \(clean.file("edited.png")): \(Self.editedProfileNote)"))
        #expect(!verbose.stderr.contains("warning"), "\(verbose.stderr)")

        // The same file cut short: pixels are missing, and that is still a warning.
        _ = clean.write(Array(bytes.prefix(bytes.count * 2 / 3)), to: "edited.png")
        let damaged = try run(["render", clean.path, "-o", sheet, "--no-cache"])
        #expect(damaged.status == 0)
        #expect(damaged.stderr.contains("warning: \(clean.file("edited.png")):"), "\(damaged.stderr)")
        #expect(damaged.stderr.contains("rows)"), "\(damaged.stderr)")
        #expect(!damaged.stderr.contains("iCCP"), "\(damaged.stderr)")
    }
}
