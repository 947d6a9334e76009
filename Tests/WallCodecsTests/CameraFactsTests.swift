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
    }
}
