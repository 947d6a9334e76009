import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// What a file says of the camera, checked against itself.
@Suite("Camera facts")
struct CameraFactsTests {
    @Test(
        "a lens whose name says focal lengths the picture was not taken at is left out",
        arguments: [
            ("EF 70-200mm f/2.8L", 31.0, false), ("EF 70-200mm f/2.8L", 100.0, true),
            ("EF 70-200mm f/2.8L", 200.0, true), ("EF50mm f/1.8", 50.0, true), ("EF50mm f/1.8", 35.0, false),
            ("EF 16-35 mm f/2.8", 16.0, true), ("Canon RF 24-105mm F4 L IS USM", 300.0, false),
            ("Sigma Art", 35.0, true),
        ])
    func lensAgainstFocalLength(lens: String, focal: Double, kept: Bool) {
        var camera = CameraInfo()
        (camera.lens, camera.focalLength) = (lens, focal)
        #expect((camera.lensCheckedAgainstFocalLength.lens != nil) == kept)
        camera.focalLength = nil
        #expect(camera.lensCheckedAgainstFocalLength.lens == lens, "no focal length: nothing to check")
    }

    @Test("an EOS D30's CRW gives the ISO its maker note means (100), not the code it keeps (160)")
    func crwSpeed() throws {
        guard let corpora = Fixtures.corpora else { return }
        let info = try ImageProbe().probe(path: corpora + "/raw/canon-eos-d30.CRW")
        #expect(info.camera?.iso == 100, "\(String(describing: info.camera))")
        #expect(info.capturedSize == Size(width: 2160, height: 1440), "the sensor's picture, not its 1440x960 preview")
    }

    @Test("a CRW's long exposure and unnamed lens come from its own records: 5 s, 16-35mm, not 1 s")
    func crwRecords() throws {
        guard let corpora = Fixtures.corpora else { return }
        let folder = TemporaryFolder()
        let copy = folder.write(try #require(Fixtures.read(corpora + "/raw/canon-eos-d30.CRW")), to: "long.crw")
        // Canon's shot info keeps a time as -stops in 1/32 (2 1/3 stops: 5 s); the lens record
        // keeps its longest and shortest focal lengths; the picture taken at 31 mm.
        let edit = try Fixtures.run(
            "/usr/bin/exiv2",
            [
                "-M", "set Exif.CanonSi.ShutterSpeedValue Short \(UInt16(bitPattern: -76))", "-M",
                "set Exif.CanonCs.Lens Short 35 16 1", "-M", "set Exif.Canon.FocalLength Short 0 31 0 0", copy,
            ])
        try #require(edit.status == 0, "\(edit.errors)")
        let camera = try #require(try ImageProbe().probe(path: copy).camera)
        #expect(camera.exposureTime.map { $0.value } == 5, "\(camera)")
        #expect(camera.lens == "16-35mm" && camera.focalLength == 31, "\(camera)")
        #expect(camera.iso == 100)
    }

    @Test("a turned RAW's captured size is in stored pixels, as the picture drawn is")
    func turnedCapturedSize() throws {
        guard let corpora = Fixtures.corpora else { return }
        let folder = TemporaryFolder()
        let copy = folder.write(
            try #require(Fixtures.read(corpora + "/raw/canon-550d-magiclantern.dng")), to: "turned.dng")
        let edit = try Fixtures.run("/usr/bin/exiv2", ["-M", "set Exif.Image.Orientation Short 6", copy])
        try #require(edit.status == 0, "\(edit.errors)")
        let info = try ImageProbe().probe(path: copy)
        #expect(info.orientation.rawValue == 6, "\(info.orientation)")
        #expect(info.storedSize == Size(width: 867, height: 578))
        #expect(info.capturedSize == Size(width: 1734, height: 1156))
    }

    @Test(
        "a lens known by its focal lengths is named by them",
        arguments: [
            (16.0, 35.0, "16-35mm"), (100.0, 100.0, "100mm"), (7.0, 21.0, "7-21mm"), (7.5, 21.5, "7.5-21.5mm"),
        ])
    func lensNamedByFocalLengths(shortest: Double, longest: Double, name: String) {
        #expect(CameraInfo.lensName(shortest: shortest, longest: longest) == name)
    }
}
