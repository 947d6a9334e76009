import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import WallReview
import _WallTestSupport

/// Sheets written in bands: each band decodes on its own, and comparing two sheets decodes
/// only the bands whose bytes differ, with the results of a full decode.
@Suite("Sheets in bands")
struct BandedSheetTests {
    let folder = TemporaryFolder()

    /// A folder of SampleImages' stills, with `changed` brightened by a tenth when given.
    func sources(_ name: String, changing changed: String? = nil) throws -> String {
        let path = folder.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let stills = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleImages).sorted().filter {
            $0.hasSuffix(".png") || $0.hasSuffix(".jpg")
        }
        for sample in stills.prefix(24) {
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: "\(path)/\(sample)")
        }
        if let changed {
            var bitmap = try SheetDiff.load("\(path)/\(changed)")
            bitmap.pixels = bitmap.pixels.map { UInt8(min(255, Int($0) * 11 / 10)) }
            try PNGEncoder.write(bitmap, to: "\(path)/\(changed)")
        }
        return path
    }

    /// Renders `input` to `name`.png and `name`.json, 600 px wide in 3 columns.
    func render(_ input: String, _ name: String, transparent: Bool = false) throws {
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (600, 3)
        if transparent { options.background = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        try Wall(inputs: [input]).render(
            to: folder.file(name + ".png"), manifest: folder.file(name + ".json"), options: options)
    }

    @Test("a sheet's bands decode on their own to the rows a full decode gives", arguments: [false, true])
    func bandsDecodeAlone(transparent: Bool) throws {
        try render(try sources("a"), "a", transparent: transparent)
        let path = folder.file("a.png")
        let sheet = try #require(PNGBands(path: path))
        let whole = try SheetDiff.load(path)
        #expect(sheet.size == whole.size && sheet.hasAlpha == transparent && whole.channels == (transparent ? 4 : 3))
        #expect(sheet.bandHeight == 128 && sheet.bandCount == (whole.size.height + 127) / 128 && sheet.bandCount > 3)
        let rowBytes = whole.size.width * whole.channels
        for band in 0..<sheet.bandCount {
            let rows = sheet.rows(ofBand: band)
            var decoded = [UInt8](repeating: 0, count: rows.count * rowBytes)
            try decoded.withUnsafeMutableBufferPointer { try sheet.decode(band: band, into: $0) }
            #expect(decoded[...] == whole.pixels[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes])
        }
    }

    @Test("PNGs not written in bands, or whose chunks are damaged, are not read as bands")
    func otherPNGs() throws {
        #expect(PNGBands(path: Fixtures.sample("png-rgb.png")) == nil)
        try render(try sources("a"), "a")
        let bytes = try #require(Fixtures.read(folder.file("a.png")))
        #expect(PNGBands(bytes: bytes, path: "a.png") != nil)
        // Without its band chunk (a program that rewrote the file drops it): a PNG like any other.
        var stripped = bytes
        let at = try #require(stripped.indices.first { Array(stripped[$0..<$0 + 4]) == Array("iwBD".utf8) })
        stripped.removeSubrange(at - 4..<at + 12)
        #expect(PNGBands(bytes: stripped, path: "a.png") == nil)
        #expect(try SheetDiff.load(folder.file("a.png")).size.height > 0)
        // A byte changed in the header: its chunk's CRC no longer holds.
        var header = bytes
        header[20] ^= 0x01
        #expect(PNGBands(bytes: header, path: "a.png") == nil)
        // In the image data: the band is refused when it is decoded, and a comparison with the
        // sheet it came from goes to the full decode (which reports the damage).
        var damaged = bytes
        damaged[damaged.count - 200] ^= 0x40
        let sheet = try #require(PNGBands(bytes: damaged, path: "a.png"))
        var rows = [UInt8](repeating: 0, count: sheet.rows(ofBand: sheet.bandCount - 1).count * sheet.size.width * 3)
        #expect(throws: CodecError.self) {
            try rows.withUnsafeMutableBufferPointer { try sheet.decode(band: sheet.bandCount - 1, into: $0) }
        }
        try Data(damaged).write(to: URL(fileURLWithPath: folder.file("damaged.png")))
        #expect(
            try SheetDiff.compareBands(folder.file("a.png"), folder.file("damaged.png"), options: SheetDiff.Options())
                == nil)
        // A header claiming bands of 2^30 × 2^30 pixels: refused before anything is allocated.
        var claimed: [UInt8] = []
        let huge = Size(width: 1 << 30, height: 1 << 30)
        let writer = try PNGSegmentWriter(
            name: "huge.png", size: huge, hasAlpha: false, compression: .runLength, software: nil, bandHeight: 1 << 30
        ) { claimed += $0 }
        try writer.append(PNGSegment(deflated: [0x03, 0x00], adler: 1, filteredSize: (3 << 30 + 1) << 30))
        try writer.finish()
        #expect(PNGBands(bytes: claimed, path: "huge.png") == nil)
        // Cut short.
        #expect(PNGBands(bytes: Array(bytes.prefix(bytes.count - 20)), path: "a.png") == nil)
    }

    @Test(
        "two sheets compared band by band give what a full decode gives, decoding only the bands that differ",
        arguments: [false, true])
    func comparedByBands(transparent: Bool) throws {
        try render(try sources("a"), "a", transparent: transparent)
        try render(try sources("b", changing: "png-rgb.png"), "b", transparent: transparent)
        var threshold = SheetDiff.Options()
        threshold.threshold = 0.1
        var antialiasing = SheetDiff.Options()
        antialiasing.ignoreAntialiasing = true
        var tolerance = SheetDiff.Options()
        tolerance.tolerance = 12
        for (options, ignore) in [
            (SheetDiff.Options(), []), (threshold, []), (antialiasing, []), (tolerance, []),
            (SheetDiff.Options(), ["png-rgb.png"]),
        ] {
            func compared(_ drawing: SheetComparison.Drawing) throws -> SheetComparison {
                try SheetComparison(
                    expected: folder.file("a.png"), actual: folder.file("b.png"),
                    manifests: (folder.file("a.json"), folder.file("b.json")), options: options, ignore: ignore,
                    drawing: drawing)
            }
            let banded = try compared(.never), whole = try compared(.always)
            let bands = try #require(PNGBands(path: folder.file("a.png"))).bandCount
            let decoded = try #require(banded.bandsDecoded)
            #expect(decoded > 0 && decoded < bands, "only the bands that differ and those beside them")
            #expect(whole.bandsDecoded == nil)
            #expect(banded.result == whole.result && banded.tiles == whole.tiles && banded.matches == whole.matches)
            #expect(banded.lines() == whole.lines())
        }
        let plain = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("b.png"),
            manifests: (folder.file("a.json"), folder.file("b.json")), options: SheetDiff.Options(), drawing: .never)
        #expect(plain.result.changedPixels > 0 && plain.tiles?.changed == ["png-rgb.png"])
        // The same sheet twice: nothing decoded.
        let same = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("a.png"), options: SheetDiff.Options(), drawing: .never)
        #expect(same.bandsDecoded == 0 && same.matches && same.result.maxDelta == 0)
    }

    @Test("a report is drawn from whole sheets when they differ, and not needed when they match")
    func drawingWhenDiffering() throws {
        try render(try sources("a"), "a")
        try render(try sources("b", changing: "png-rgb.png"), "b")
        try render(try sources("c"), "c")
        let differing = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("b.png"), options: SheetDiff.Options(),
            drawing: .whenDiffering)
        #expect(!differing.matches && differing.bandsDecoded == nil && differing.picture.size == differing.result.size)
        let matching = try SheetComparison(
            expected: folder.file("a.png"), actual: folder.file("c.png"), options: SheetDiff.Options(),
            drawing: .whenDiffering)
        #expect(matching.matches && matching.bandsDecoded == 0)
    }

    @Test("a band that does not inflate sends the comparison to the full decode")
    func damagedBand() throws {
        let size = Size(width: 40, height: 200)
        let rows = [UInt8](repeating: 90, count: size.width * 3 * size.height)
        func write(_ name: String, secondBand: [UInt8]) throws {
            var bytes: [UInt8] = []
            let writer = try PNGSegmentWriter(
                name: name, size: size, hasAlpha: false, compression: .runLength, software: nil, bandHeight: 128
            ) { bytes += $0 }
            try rows.withUnsafeBufferPointer { all in
                try writer.append(
                    PNGSegment(
                        rows: UnsafeBufferPointer(rebasing: all[0..<128 * 120]), stride: 120, count: 128, width: 40,
                        channels: 3, filter: .paeth, compression: .runLength, last: false))
            }
            try writer.append(PNGSegment(deflated: secondBand, adler: 1, filteredSize: 72 * 121))
            try writer.finish()
            try Data(bytes).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        let good = try rows.withUnsafeBufferPointer { all in
            try PNGSegment(
                rows: UnsafeBufferPointer(rebasing: all[128 * 120..<200 * 120]), stride: 120, count: 72, width: 40,
                channels: 3, filter: .paeth, compression: .runLength, last: true)
        }
        try write("good.png", secondBand: good.deflated)
        try write("bad.png", secondBand: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(PNGBands(path: folder.file("bad.png")) != nil, "its chunks are whole")
        let options = SheetDiff.Options()
        #expect(try SheetDiff.compareBands(folder.file("good.png"), folder.file("bad.png"), options: options) == nil)
        let same = try SheetDiff.compareBands(folder.file("good.png"), folder.file("good.png"), options: options)
        #expect(same?.bandsDecoded == 0 && same?.result.changedPixels == 0)
    }
}
