import Foundation
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

@Suite("ICC profiles to sRGB")
struct ColorProfileTests {
    let folder = TemporaryFolder()
    static let colors: [[UInt8]] = [[120, 160, 80], [200, 60, 40], [90, 90, 200], [128, 128, 128]]

    /// Adobe RGB (1998) → XYZ (D65) → sRGB by the published matrices, independent of LittleCMS.
    static func expectedSRGB(_ adobe: [UInt8]) -> [Double] {
        let toXYZ = [
            [0.5767309, 0.1855540, 0.1881852], [0.2973769, 0.6273491, 0.0752741], [0.0270343, 0.0706872, 0.9911085],
        ]
        let toSRGB = [
            [3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560],
            [0.0556434, -0.2040259, 1.0572252],
        ]
        let linear = adobe.map { pow(Double($0) / 255, 563.0 / 256.0) }
        let xyz = toXYZ.map { row in zip(row, linear).map(*).reduce(0, +) }
        return toSRGB.map { row in
            let l = min(1, max(0, zip(row, xyz).map(*).reduce(0, +)))
            return 255 * (l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055)
        }
    }

    func stripes() -> (samples: [UInt8], size: Size) {
        let size = Size(width: 64, height: 16 * Self.colors.count)
        var samples: [UInt8] = []
        for color in Self.colors { for _ in 0..<(16 * 64) { samples += color } }
        return (samples, size)
    }

    func check(_ path: String) throws {
        let info = try ImageProbe().probe(path: path)
        #expect(info.hasICCProfile)
        #expect(ImageDecoder().colorProfile(path: path, info: info)?.description == "Adobe RGB (1998) compatible")
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        for (i, color) in Self.colors.enumerated() {
            let mean = decoded.bitmap.mean(in: Rect(x: 16, y: 16 * i + 4, width: 32, height: 8))
            let expected = Self.expectedSRGB(color)
            for c in 0..<3 { #expect(abs(mean[c] - expected[c]) <= 3, "\(color) → \(mean), expected \(expected)") }
        }
        var plain = ImageDecoder()
        plain.convertsToSRGB = false
        let raw = try plain.decode(path: path, info: info).bitmap
        // Untouched without conversion.
        #expect(abs(raw.mean(in: Rect(x: 16, y: 20, width: 32, height: 8))[0] - 200) <= 3)
    }

    @Test("an Adobe RGB PNG (iCCP) comes out in sRGB")
    func png() throws {
        let profile = try #require(ColorProfile.adobeRGB)
        let (samples, size) = stripes()
        var options = PNGEncodeOptions(colorType: .rgb)
        options.icc = profile.data
        let path = folder.file("adobe.png")
        try PNGEncoder.write(rows: samples, rowBytes: size.width * 3, size: size, options: options, to: path)
        try check(path)
    }

    @Test("an Adobe RGB PSD (image resource 1039) comes out in sRGB, decoded by FFmpeg")
    func psd() throws {
        let profile = try #require(ColorProfile.adobeRGB)
        let (samples, size) = stripes()
        func be(_ value: Int, _ count: Int) -> [UInt8] {
            (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 255) }
        }
        // A thumbnail resource first, so that the profile is found by walking past another.
        let thumbnail = Array("8BIM".utf8) + be(0x040C, 2) + [0, 0] + be(3, 4) + [1, 2, 3, 0]
        let icc =
            Array("8BIM".utf8) + be(0x040F, 2) + [0, 0] + be(profile.data.count, 4) + profile.data
            + (profile.data.count % 2 == 1 ? [0] : [])
        var bytes = Array("8BPS".utf8) + be(1, 2) + [UInt8](repeating: 0, count: 6) + be(3, 2)
        bytes += be(size.height, 4) + be(size.width, 4) + be(8, 2) + be(3, 2) + be(0, 4)
        bytes += be(thumbnail.count + icc.count, 4) + thumbnail + icc + be(0, 4) + be(0, 2)
        for c in 0..<3 { bytes += stride(from: c, to: samples.count, by: 3).map { samples[$0] } }
        try check(folder.write(bytes, to: "adobe.psd"))
    }

    @Test("an Adobe RGB JPEG (APP2) comes out in sRGB")
    func jpeg() throws {
        let profile = try #require(ColorProfile.adobeRGB)
        let (samples, size) = stripes()
        var options = JPEGEncodeOptions(storage: .ycbcr)
        options.quality = 98
        options.subsampling = .s444
        options.icc = profile.data
        let path = folder.file("adobe.jpg")
        try JPEGEncoder.write(samples: samples, size: size, options: options, to: path)
        try check(path)
    }

    @Test("an sRGB-described profile is left alone, a broken one is reported and ignored")
    func skips() throws {
        let srgb = try #require(
            ColorProfile.rgb(
                white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 2.2,
                description: "sRGB-like test"))
        let (samples, size) = stripes()
        for (name, icc, warns) in [
            ("srgb.jpg", srgb.data, false), ("broken.jpg", [UInt8](repeating: 7, count: 300), true),
        ] {
            var options = JPEGEncodeOptions(storage: .ycbcr)
            (options.quality, options.subsampling, options.icc) = (98, .s444, icc)
            let path = folder.file(name)
            try JPEGEncoder.write(samples: samples, size: size, options: options, to: path)
            let decoded = try ImageDecoder().decode(path: path, info: try ImageProbe().probe(path: path))
            #expect(
                decoded.warnings.contains { $0.contains("ICC profile ignored") } == warns,
                "\(name): \(decoded.warnings)")
            let pixel = decoded.bitmap.pixel(x: 3, y: 20)
            #expect(zip(pixel, [200, 60, 40] as [UInt8]).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(pixel)")
        }
    }

    /// libheif records nclx colour for AV1 (x265's HEVC files carry it in the bitstream, which
    /// libheif 1.15 does not read back; phones' HEIC files carry an ICC profile).
    @Test("AVIF nclx colour: Display P3 is converted to sRGB, sRGB itself left alone", arguments: [true])
    func nclx(av1: Bool) throws {
        let folder = TemporaryFolder()
        let flat = Bitmap(size: Size(width: 64, height: 64), alpha: .none, fill: [200, 100, 50])
        var options = HEIFEncodeOptions()
        options.av1 = av1
        options.quality = 95
        options.nclx = (primaries: 12, transfer: 13)  // Display P3, sRGB's curve
        let p3 = folder.file("p3.heif")
        try HEIFEncoder.write(flat, options: options, to: p3)
        options.nclx = (primaries: 1, transfer: 13)  // sRGB
        let srgb = folder.file("srgb.heif")
        try HEIFEncoder.write(flat, options: options, to: srgb)
        let p3Info = try ImageProbe().probe(path: p3), srgbInfo = try ImageProbe().probe(path: srgb)
        #expect(p3Info.hasICCProfile && !srgbInfo.hasICCProfile)
        var plain = ImageDecoder()
        plain.convertsToSRGB = false
        let raw = try plain.decode(path: p3, info: p3Info).bitmap.pixel(x: 32, y: 32)
        let converted = try ImageDecoder().decode(path: p3, info: p3Info).bitmap.pixel(x: 32, y: 32)
        // The same numbers mean a more saturated orange in P3: in sRGB, more red, less blue.
        #expect(Int(converted[0]) >= Int(raw[0]) + 8 && Int(converted[2]) <= Int(raw[2]) - 4, "\(raw) -> \(converted)")
        let untouched = try ImageDecoder().decode(path: srgb, info: srgbInfo).bitmap.pixel(x: 32, y: 32)
        for c in 0..<3 { #expect(abs(Int(untouched[c]) - Int([200, 100, 50][c])) <= 6, "\(untouched)") }
    }

    @Test("a HEIC with an Adobe RGB profile comes out in sRGB, as JPEG and PNG do")
    func heicProfile() throws {
        let folder = TemporaryFolder()
        let adobe = try #require(ColorProfile.adobeRGB)
        let color: [UInt8] = [200, 60, 40]
        var options = HEIFEncodeOptions()
        options.quality = 95
        options.icc = adobe.data
        let path = folder.file("adobe.heic")
        try HEIFEncoder.write(
            Bitmap(size: Size(width: 64, height: 64), alpha: .none, fill: color), options: options, to: path)
        let info = try ImageProbe().probe(path: path)
        #expect(
            info.hasICCProfile && ImageDecoder().colorProfile(path: path, info: info)?.description == adobe.description)
        let pixel = try ImageDecoder().decode(path: path, info: info).bitmap.pixel(x: 32, y: 32)
        let expected = Self.expectedSRGB(color)
        for c in 0..<3 { #expect(abs(Double(pixel[c]) - expected[c]) <= 8, "\(pixel) against \(expected)") }
    }
}
