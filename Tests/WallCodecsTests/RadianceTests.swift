import Foundation
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// Radiance HDR pictures, written here in flat RGBE: a header, a resolution line, four bytes a
/// pixel (three mantissas sharing an exponent).
@Suite("Radiance HDR")
struct RadianceTests {
    let folder = TemporaryFolder()

    /// The RGBE bytes of linear light `red`, `green`, `blue`, as Radiance's own `float2rgbe` makes them.
    static func rgbe(_ red: Double, _ green: Double, _ blue: Double) -> [UInt8] {
        let largest = max(red, green, blue)
        guard largest > 1e-32 else { return [0, 0, 0, 0] }
        let exponent = Int(Foundation.log2(largest).rounded(.down)) + 1
        let scale = 256 / Foundation.pow(2, Double(exponent))
        return [UInt8(red * scale), UInt8(green * scale), UInt8(blue * scale), UInt8(exponent + 128)]
    }

    /// A `width` x `height` picture: red rising from 0 to 2 along each row, green 0.5 in the top
    /// half and 0.05 below, blue 0.25.
    func write(width: Int = 40, height: Int = 20, resolution: String? = nil, to name: String = "sky.hdr") -> String {
        var bytes = Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n\(resolution ?? "-Y \(height) +X \(width)")\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                bytes += Self.rgbe(Double(x) / Double(width - 1) * 2, y < height / 2 ? 0.5 : 0.05, 0.25)
            }
        }
        return folder.write(bytes, to: name)
    }

    @Test("its size comes from the header; its light is clipped and encoded as sRGB as OpenEXR's is")
    func drawn() throws {
        let path = write()
        let info = try ImageProbe().probe(path: path)
        #expect(info.format == .radiance && info.storedSize == Size(width: 40, height: 20) && !info.hasAlpha)
        let decoded = try ImageDecoder().decode(path: path, info: info)
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.bitmap.pixel(x: 0, y: 0) == [0, 188, 137])
        #expect(decoded.bitmap.pixel(x: 39, y: 0) == [255, 188, 137])  // 2.0: past white
        #expect(decoded.bitmap.pixel(x: 0, y: 19)[1] == 62)  // 0.05, kept in RGBE as 25 / 512
        // Shrunk for a small tile, the same on every call.
        let small = try ImageDecoder().decode(path: path, info: info, target: Size(width: 5, height: 2))
        #expect(small.bitmap.size.width < 40)
        #expect(
            try ImageDecoder().decode(path: path, info: info, target: Size(width: 5, height: 2)).bitmap == small.bitmap)
    }

    @Test("an orientation OpenCV does not read, a cut file and a header claiming too much are refused by name")
    func refused() throws {
        func reason(_ path: String) -> String? {
            do {
                let info = try ImageProbe().probe(path: path)
                _ = try ImageDecoder().decode(path: path, info: info)
                return nil
            } catch {
                return (error as? CodecError)?.reason
            }
        }
        #expect(reason(write(resolution: "+Y 20 +X 40", to: "flipped.hdr"))?.contains("orientation +Y +X") == true)
        #expect(reason(write(resolution: "-Y 60000 +X 60000", to: "bomb.hdr"))?.contains("cannot hold") == true)
        let whole = try #require(Fixtures.read(write()))
        let cut = folder.write(Array(whole.prefix(whole.count / 2)), to: "cut.hdr")
        #expect(reason(cut)?.hasPrefix("Radiance HDR:") == true, "\(reason(cut) ?? "drawn")")
    }
}
