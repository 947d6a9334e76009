import Foundation
import Testing
import WallCodecs
import _WallTestSupport

/// A picture's description and place, as Exiv2 reads them for its page.
@Suite("Picture details")
struct PictureDetailsTests {
    let folder = TemporaryFolder()

    @Test("XMP's description first, then IPTC's caption, then EXIF's; a place from EXIF's GPS")
    func order() throws {
        let source = Fixtures.sample("landscape-baseline-420.jpg"), path = folder.file("described.jpg")
        try DescribedJPEG.write(
            source, to: path, exifDescription: "EXIF words", xmpDescription: "Le café <b>sous</b> la pluie",
            iptcCaption: Array("IPTC words".utf8),
            place: PictureDetails.Location(latitude: -33.8568, longitude: 151.2153, altitude: 12))
        let details = PictureDetails.read(path: path)
        #expect(details.description == "Le café <b>sous</b> la pluie")
        let place = try #require(details.location)
        #expect(abs(place.latitude + 33.8568) < 1e-6 && abs(place.longitude - 151.2153) < 1e-6)
        #expect(place.altitude == 12)
        try DescribedJPEG.write(source, to: path, exifDescription: "EXIF words", iptcCaption: Array("IPTC words".utf8))
        #expect(PictureDetails.read(path: path).description == "IPTC words")
        try DescribedJPEG.write(source, to: path, exifDescription: "Harbour at\tdusk\n", make: "Canon")
        #expect(PictureDetails.read(path: path) == PictureDetails(description: "Harbour at dusk"))
        #expect(PictureDetails.read(path: source) == PictureDetails())
    }

    @Test("an IPTC caption in Latin-1 is read as Latin-1, and XMP's UTF-8 as UTF-8")
    func encodings() throws {
        let path = folder.file("latin.jpg")
        try DescribedJPEG.write(
            Fixtures.sample("landscape-baseline-420.jpg"), to: path, iptcCaption: [0x43, 0x61, 0x66, 0xE9])  // "Café"
        #expect(PictureDetails.read(path: path).description == "Café")
    }

    @Test(
        "a camera's stock text is no description",
        arguments: [
            "OLYMPUS DIGITAL CAMERA", "SONY DSC", "EXIF_JPEG_PICTURE", "DC0003M", "SUNP0001", "  ", "default",
            "C:\\DCIM\\100GOPRO\\GOPR0024.GPR", "Canon",
        ])
    func stock(text: String) throws {
        let path = folder.file("stock.jpg")
        try DescribedJPEG.write(
            Fixtures.sample("landscape-baseline-420.jpg"), to: path, exifDescription: text, make: "Canon")
        #expect(PictureDetails.read(path: path).description == nil, "\(text)")
    }

    @Test("real descriptions are kept, whatever their case", arguments: ["DSC at the lake", "NYC 2019", "A", "Élan"])
    func kept(text: String) throws {
        let path = folder.file("kept.jpg")
        try DescribedJPEG.write(Fixtures.sample("landscape-baseline-420.jpg"), to: path, exifDescription: text)
        #expect(PictureDetails.read(path: path).description == text)
    }

    @Test("real files: a GoPro's path and a Kodak's number are no description; a NEF's IPTC caption is; GPS of a GoPro")
    func corpora() throws {
        guard let corpora = Fixtures.corpora else { return }
        let raw = corpora + "/raw/"
        #expect(PictureDetails.read(path: raw + "gopro-hero6.GPR").description == nil)
        #expect(PictureDetails.read(path: raw + "kodak-dc50.KDC").description == nil)
        #expect(PictureDetails.read(path: raw + "exiftool-nikon-d70.nef").description == "A caption")
        let place = try #require(PictureDetails.read(path: raw + "gopro-hero6.GPR").location)
        #expect(place.latitude > 33 && place.latitude < 34)
    }
}
