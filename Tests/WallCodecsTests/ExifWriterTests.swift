import Testing
import WallCore

@testable import WallCodecs

/// The EXIF block ImageWall's JPEG and WebP sheets carry, read back by the one EXIF reader.
@Suite("EXIF Software block")
struct ExifWriterTests {
    @Test("the Software tag is read back, short or long, in a JPEG's APP1 or a bare TIFF structure")
    func roundTrip() {
        for text in ["ImageWall 0.2.0", "abc", "a", String(repeating: "x", count: 200)] {
            #expect(ExifReader.fields(in: ExifWriter.tiff(software: text)).software == text)
            #expect(ExifReader.fields(inAPP1: ExifWriter.app1(software: text)[...]).software == text)
        }
        // Only ASCII is written: anything else becomes "?".
        #expect(ExifReader.fields(in: ExifWriter.tiff(software: "Café\n")).software == "Caf??")
        #expect(ExifReader.fields(in: ExifWriter.tiff(software: "ImageWall 1")).orientation == nil)
    }
}
