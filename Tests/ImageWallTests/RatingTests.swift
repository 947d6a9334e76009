import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// Pictures chosen by their rating (`--min-rating`, `--rejected`): EXIF's stars and XMP's, a
/// reject as Lightroom writes it, and every picture left out named with why.
@Suite("Ratings and rejects")
struct RatingTests {
    let folder = TemporaryFolder()

    /// Five copies of a sample: 5 stars in XMP, 3 in XMP, a reject, unrated, and 4 in EXIF.
    func shoot() throws -> String {
        guard mkdir(folder.file("shoot"), 0o755) == 0 else { return folder.file("shoot") }  // made already
        let source = Fixtures.sample("landscape-baseline-420.jpg")
        try DescribedJPEG.write(source, to: folder.file("shoot/a.jpg"), xmpRating: 5)
        try DescribedJPEG.write(source, to: folder.file("shoot/b.jpg"), xmpRating: 3)
        try DescribedJPEG.write(source, to: folder.file("shoot/c.jpg"), xmpRating: -1)
        try FileManager.default.copyItem(atPath: source, toPath: folder.file("shoot/d.jpg"))
        // EXIF's Rating tag (0x4746, a SHORT) in IFD0, as Windows and cameras write it.
        let exif: [UInt8] =
            Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x47, 0x46, 0, 3, 0, 0, 0, 1, 0, 4, 0, 0]
            + [0, 0, 0, 0]
        let jpeg = try #require(Fixtures.read(source))
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 255)] + exif
        _ = folder.write([0xFF, 0xD8] + segment + jpeg.dropFirst(2), to: "shoot/e.jpg")
        return folder.file("shoot")
    }

    func plan(_ filter: RatingFilter) throws -> Plan {
        var options = WallOptions()
        options.input.rating = filter
        options.limits.threads = 1
        return try Wall(inputs: [try shoot()]).plan(options: options)
    }

    func names(_ paths: [String]) -> [String] { paths.map { String($0.split(separator: "/").last!) } }

    @Test("ratings read from XMP and EXIF alike; a reject is XMP's -1")
    func reading() throws {
        let shoot = try self.shoot()
        let ratings = ["a", "b", "c", "d", "e"].map { PictureRating.read(path: shoot + "/\($0).jpg") }
        #expect(ratings.map(\.stars) == [5, 3, nil, nil, 4])
        #expect(ratings.map(\.isRejected) == [false, false, true, false, false])
    }

    @Test("--min-rating keeps pictures rated at least N: unrated ones count as 0, rejects as below any")
    func minimum() throws {
        let plan = try self.plan(RatingFilter(minimum: 3))
        #expect(names(plan.images.map(\.path)) == ["a.jpg", "b.jpg", "e.jpg"])
        #expect(names(plan.ratedOut.map(\.path)) == ["c.jpg", "d.jpg"])
        #expect(plan.ratedOut.map(\.reason) == [.rejected, .belowMinimum])
        // Every picture is drawn with a minimum of 0 but for the reject.
        #expect(try self.plan(RatingFilter(minimum: 0)).images.count == 4)
    }

    @Test("--rejected: include draws rejects, exclude leaves them out, only draws them alone")
    func rejects() throws {
        #expect(try plan(RatingFilter()).images.count == 5)
        #expect(try plan(RatingFilter()).ratedOut.isEmpty)
        let excluded = try plan(RatingFilter(rejected: .exclude))
        #expect(names(excluded.images.map(\.path)) == ["a.jpg", "b.jpg", "d.jpg", "e.jpg"])
        #expect(excluded.ratedOut == [RatedOut(path: folder.file("shoot/c.jpg"), reason: .rejected)])
        let only = try plan(RatingFilter(rejected: .only))
        #expect(names(only.images.map(\.path)) == ["c.jpg"])
        #expect(only.ratedOut.count == 4 && only.ratedOut.allSatisfy { $0.reason == .notRejected })
    }

    @Test("when the rating leaves every picture out, the error says so")
    func noneLeft() throws {
        var options = WallOptions()
        options.input.rating = RatingFilter(minimum: 5, rejected: .exclude)
        options.limits.threads = 1
        let unrated = folder.file("shoot/d.jpg")
        _ = try shoot()
        #expect(throws: WallRunError.noImages(tried: 0, ratedOut: 1)) {
            try Wall(inputs: [unrated]).plan(options: options)
        }
        #expect(
            WallRunError.noImages(tried: 0, ratedOut: 4).message
                == "no input images: all 4 pictures left out by rating (--min-rating, --rejected)")
    }

    @Test("the manifest lists each picture left out by its rating, with why; {rating} shows XMP's stars")
    func manifest() throws {
        var options = WallOptions()
        options.input.rating = RatingFilter(minimum: 4)
        options.rendering.caption = try CaptionTemplate("{stem} {rating}")
        options.limits.threads = 1
        let manifest = try Wall(inputs: [try shoot()]).render(to: folder.file("sheet.png"), options: options)
        #expect(manifest.ratedOut?.map(\.reason) == [.belowMinimum, .rejected, .belowMinimum])
        #expect(manifest.tiles.count == 2)
        let json = String(decoding: try ManifestWriter.encode(manifest), as: UTF8.self)
        #expect(json.contains("\"reason\":\"below-min-rating\"") || json.contains("\"reason\" : \"below-min-rating\""))
        // a.jpg's five stars come from XMP alone, which a {rating} caption has read through Exiv2
        // (the bounded EXIF reader alone knows only e.jpg's four).
        options.input.rating = RatingFilter()
        let captioned = try Wall(inputs: [folder.file("shoot")]).plan(options: options)
        #expect(captioned.images.map { $0.info.camera?.rating } == [5, 3, nil, nil, 4])
        options.rendering.caption = nil
        let plain = try Wall(inputs: [folder.file("shoot")]).plan(options: options)
        #expect(plain.images.map { $0.info.camera?.rating } == [nil, nil, nil, nil, 4])
    }
}
