import Foundation
import Testing
import WallCodecs
import WallCore
import WallFiles
import _WallTestSupport

@testable import ImageWall

/// Dates and camera metadata: read from real files (EXIF written by Exiv2's command-line tool,
/// RAW headers through LibRaw), turned into sections by date and into captions.
@Suite("Camera metadata: dates, sections, captions")
struct CameraMetadataTests {
    static let exiv2: String? = ["/usr/bin/exiv2", "/usr/local/bin/exiv2"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A copy of a sample JPEG under `name` in `folder`, with `tags` written by `exiv2 -M`.
    static func photo(_ name: String, in folder: TemporaryFolder, tags: [String] = []) throws -> String {
        let path = folder.file(name)
        try FileManager.default.copyItem(atPath: Fixtures.sample("landscape-baseline-420.jpg"), toPath: path)
        if !tags.isEmpty {
            let run = try Fixtures.run(try #require(exiv2), tags.flatMap { ["-M", $0] } + [path])
            #expect(run.status == 0, "\(run.errors)")
        }
        return path
    }

    static let nikon = [
        "set Exif.Image.Make Ascii NIKON CORPORATION", "set Exif.Image.Model Ascii NIKON D850",
        "set Exif.Image.Rating Short 4", "set Exif.Photo.ExposureTime Rational 1/250",
        "set Exif.Photo.FNumber Rational 28/10", "set Exif.Photo.ISOSpeedRatings Short 400",
        "set Exif.Photo.FocalLength Rational 35/1", "set Exif.Photo.LensModel Ascii AF-S NIKKOR 24-70mm f/2.8E",
        "set Exif.Photo.DateTimeOriginal Ascii 2024:03:14 10:15:22", "set Exif.Photo.OffsetTimeOriginal Ascii +01:00",
    ]

    @Test("EXIF written by Exiv2 reads back: body, lens, exposure, rating, date and offset", .enabled(if: exiv2 != nil))
    func exifFields() throws {
        let folder = TemporaryFolder()
        let info = try ImageProbe().probe(path: try Self.photo("nikon.jpg", in: folder, tags: Self.nikon))
        let camera = try #require(info.camera)
        #expect(camera.make == "NIKON CORPORATION" && camera.model == "NIKON D850")
        #expect(camera.lens == "AF-S NIKKOR 24-70mm f/2.8E" && camera.rating == 4)
        #expect(camera.exposureTime == CameraInfo.Fraction(1, 250) && camera.fNumber == 2.8)
        #expect(camera.iso == 400 && camera.focalLength == 35 && camera.timeOffset == "+01:00")
        #expect(info.dateTaken == "2024:03:14 10:15:22")
        let plain = try ImageProbe().probe(path: try Self.photo("plain.jpg", in: folder))
        #expect(plain.camera == nil)
    }

    @Test(
        "captions: metadata fields, optional parts that vanish, fallbacks and date formats", .enabled(if: exiv2 != nil))
    func captions() throws {
        let folder = TemporaryFolder()
        var nikon = ProbedImage(
            path: try Self.photo("IMG_0001.jpg", in: folder, tags: Self.nikon),
            info: try ImageProbe().probe(path: Fixtures.sample("png-rgb.png")))
        nikon.info = try ImageProbe().probe(path: nikon.path)  // as the render probes it
        nikon.readFileStatus()
        var plain = ProbedImage(
            path: try Self.photo("scan.jpg", in: folder),
            info: try ImageProbe().probe(path: Fixtures.sample("png-rgb.png")))
        plain.info = try ImageProbe().probe(path: plain.path)
        plain.readFileStatus()
        func caption(_ pattern: String, _ image: ProbedImage) throws -> String {
            try CaptionTemplate(pattern).expand(image, index: 0)
        }
        let line = "{camera}[ · {lens}][ · {exposure}][ · {aperture}][ · {iso}][ · {focal}][ {rating}]"
        #expect(
            try caption(line, nikon)
                == "NIKON D850 · AF-S NIKKOR 24-70mm f/2.8E · 1/250 s · f/2.8 · ISO 400 · 35 mm ★★★★")
        #expect(try caption(line, plain) == "")
        #expect(try caption("{stem}[ · {camera}][ · {exposure}]", plain) == "scan")
        #expect(try caption("{stem}[ ({camera}, {iso})]", nikon) == "IMG_0001 (NIKON D850, ISO 400)")
        #expect(try caption("{lens|no lens}", plain) == "no lens")
        #expect(try caption("{stem} {camera}.", plain) == "scan .")  // outside [ ], an empty field is empty
        #expect(try caption("{date:%d %B %Y, %H:%M}", nikon) == "14 March 2024, 10:15")
        #expect(try caption("{date}", nikon) == "2024-03-14 10:15")
        #expect(try caption("{date:%a %j}", nikon) == "Thu 074")  // weekday and day of the year, leap year
        #expect(try caption("{size}", nikon) == CaptionTemplate.readableBytes(nikon.fileSize))
        #expect(try caption("[[{stem}]] {{x}}", plain) == "[scan] {x}")
        #expect(try caption("[{stem} [{camera}] end]", plain) == "scan  end")
        // The modification time, in UTC, when nothing else dates a file.
        let mtime = try caption("{mtime:%Y-%m-%dT%H:%M:%S}", plain)
        #expect(mtime == CaptureDate(modified: plain.modified).formatted("%Y-%m-%dT%H:%M:%S") && mtime.count == 19)
        for bad in ["[{stem}", "{stem}]", "{iso:%Y}", "{nmae}", "{stem"] {
            #expect(throws: CaptionTemplate.Invalid.self, "\(bad)") { try CaptionTemplate(bad) }
        }
        #expect(CaptionTemplate.readableBytes(999) == "999 B" && CaptionTemplate.readableBytes(3_141_592) == "3.1 MB")
        #expect(CaptionTemplate.readableExposure(CameraInfo.Fraction(13, 10)) == "1.3 s")
        #expect(CaptionTemplate.readableExposure(CameraInfo.Fraction(10, 40)) == "1/4 s")
        #expect(CaptionTemplate.readableExposure(CameraInfo.Fraction(3, 10)) == "0.3 s")
        var apple = CameraInfo()
        (apple.make, apple.model) = ("Apple", "iPhone 12 Pro")
        #expect(apple.name == "Apple iPhone 12 Pro")
        (apple.make, apple.model) = ("Canon", "Canon EOS R6")
        #expect(apple.name == "Canon EOS R6")
    }

    @Test("a date in a file's name: the forms phones and cameras write, and numbers that are not dates")
    func namedDates() {
        let dated: [(String, String)] = [
            ("IMG_20240314_101522.jpg", "2024-03-14 10:15:22"), ("PXL_20240314_101522123.jpg", "2024-03-14 10:15:22"),
            ("2024-03-14 10.15.22.jpg", "2024-03-14 10:15:22"), ("IMG-20240314-WA0001.jpg", "2024-03-14 00:00:00"),
            ("Screenshot_2024-03-14-10-15-22.png", "2024-03-14 10:15:22"),
            ("VID_20240229_235959.mp4", "2024-02-29 23:59:59"),
            ("holiday 2019.07.04.heic", "2019-07-04 00:00:00"), ("signal-2024-03-14-101522.jpg", "2024-03-14 10:15:22"),
        ]
        for (name, expected) in dated {
            #expect(CaptureDate(fileName: name)?.description == expected, "\(name)")
            #expect(CaptureDate(fileName: name)?.source == .name)
        }
        for name in [
            "DSC_1234.jpg", "20241314.jpg", "scan_20230229.png", "123202403141.jpg", "2024-0314.jpg", "IMG_0001.JPG",
        ] {
            #expect(CaptureDate(fileName: name) == nil, "\(name)")
        }
        #expect(CaptureDate(exif: "2024:03:14 10:15:22")?.description == "2024-03-14 10:15:22")
        #expect(CaptureDate(exif: "0000:00:00 00:00:00") == nil)
        #expect(CaptureDate(modified: 1_710_411_322).description == "2024-03-14 10:15:22")
        #expect(CaptureDate(modified: 1_710_411_322).iso8601 == "2024-03-14T10:15:22Z")
    }

    @Test(
        "--group-by day, month and year: sections in date order under their dates, each date's source recorded",
        .enabled(if: exiv2 != nil))
    func dateSections() throws {
        let folder = TemporaryFolder(), output = TemporaryFolder()
        _ = try Self.photo("a-exif.jpg", in: folder, tags: Self.nikon)  // 14 March 2024, from EXIF
        _ = try Self.photo("IMG_20240314_200000.jpg", in: folder)  // the same day, by its name
        _ = try Self.photo("PXL_20231231_235959.jpg", in: folder)  // the year before
        let old = try Self.photo("scan.jpg", in: folder)  // by its modification time: 1 May 2024, UTC
        var times = [timespec(tv_sec: 1_714_564_800, tv_nsec: 0), timespec(tv_sec: 1_714_564_800, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)
        var options = WallOptions()
        (options.layout.width, options.layout.columns) = (600, 2)
        options.grouping = .day
        let manifest = try Wall(inputs: [folder.path]).render(to: output.file("day.png"), options: options)
        #expect(manifest.sections.map(\.title) == ["31 December 2023", "14 March 2024", "1 May 2024"])
        let byName = Dictionary(uniqueKeysWithValues: manifest.tiles.map { (FilePaths.name(of: $0.source), $0) })
        #expect(
            byName["a-exif.jpg"]?.date == "2024-03-14T10:15:22+01:00" && byName["a-exif.jpg"]?.dateFrom == .metadata)
        #expect(byName["IMG_20240314_200000.jpg"]?.dateFrom == .name)
        #expect(byName["scan.jpg"]?.date == "2024-05-01T12:00:00Z" && byName["scan.jpg"]?.dateFrom == .modified)
        // Tiles in section order, each under its own header.
        #expect(manifest.tiles.map(\.section) == [0, 1, 1, 2])
        #expect(manifest.tiles.map { FilePaths.name(of: $0.source) }[0] == "PXL_20231231_235959.jpg")
        options.grouping = .month
        options.input.reverse = true
        let months = try Wall(inputs: [folder.path]).render(to: output.file("month.png"), options: options)
        #expect(months.sections.map(\.title) == ["May 2024", "March 2024", "December 2023"])
        options.grouping = .year
        options.input.reverse = false
        options.layout.maxPageHeight = 400
        let years = try Wall(inputs: [folder.path]).render(to: output.file("year-{page}.png"), options: options)
        #expect(years.sections.map(\.title) == ["2023", "2024"] && years.pages.count > 1)
        // Grouped by folder or not at all, tiles carry no date.
        options.grouping = .folder
        let folders = try Wall(inputs: [folder.path]).render(to: output.file("folder.png"), options: options)
        #expect(folders.tiles.allSatisfy { $0.date == nil && $0.dateFrom == nil })
    }

    @Test("RAW files give their body, exposure and date from their EXIF (Exiv2)", .enabled(if: Fixtures.corpora != nil))
    func rawMetadata() throws {
        let path = try #require(Fixtures.corpora) + "/raw/canon-powershot-g2.CRW"
        let info = try ImageProbe().probe(path: path)
        let camera = try #require(info.camera)
        #expect(camera.make == "Canon" && camera.model == "Canon PowerShot G2")  // LibRaw's: "PowerShot G2"
        #expect(camera.iso != nil && camera.exposureTime != nil && camera.fNumber != nil)
        #expect(info.dateTaken.flatMap(CaptureDate.init(exif:)) != nil)
        #expect(camera.name == "Canon PowerShot G2")
    }
}
