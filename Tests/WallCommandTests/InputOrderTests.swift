import ArgumentParser
import Foundation
import ImageWall
import Synchronization
import Testing
import WallCodecs
import WallCommand
import WallCore
import WallLayout
import WallReview
import WallSamples
import _WallTestSupport

@Suite("Inputs and order")
struct InputOrderTests {
    let folder = TemporaryFolder()

    func plan(_ inputs: [String], _ configure: (inout WallOptions) -> Void = { _ in }) throws -> Plan {
        var options = WallOptions()
        configure(&options)
        return try Wall(inputs: inputs).plan(options: options)
    }

    func names(_ plan: Plan) -> [String] { plan.images.map { $0.path.split(separator: "/").last.map(String.init)! } }

    func populate() {
        let png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        for name in ["img10.png", "img2.png", "IMG1.png", "b.png", ".hidden.png"] { folder.write(png, to: name) }
        mkdir(folder.file("sub"), 0o755)
        FileManager.default.createFile(atPath: folder.file("sub/deep.png"), contents: Data(png))
    }

    @Test("natural order puts img2 before img10; reverse flips; keys are recorded")
    func natural() throws {
        populate()
        defer { unlink(folder.file("sub/deep.png")); rmdir(folder.file("sub")) }
        #expect(names(try plan([folder.path])) == ["IMG1.png", "b.png", "img10.png", "img2.png"])  // as given: bytes
        let sorted = try plan([folder.path]) { $0.input.sort = .natural }
        #expect(names(sorted) == ["b.png", "IMG1.png", "img2.png", "img10.png"])
        #expect(sorted.images.allSatisfy { $0.sortKey != nil })
        #expect(
            names(
                try plan([folder.path]) {
                    $0.input.sort = .natural; $0.input.reverse = true
                }) == ["img10.png", "img2.png", "IMG1.png", "b.png"])
    }

    @Test("recursion, include and exclude globs (case ignored), hidden files skipped")
    func scanning() throws {
        populate()
        defer { unlink(folder.file("sub/deep.png")); rmdir(folder.file("sub")) }
        #expect(names(try plan([folder.path]) { $0.input.scan.recursive = true }).contains("deep.png"))
        #expect(!names(try plan([folder.path])).contains("deep.png"))
        // Globs ignore case, as camera names (IMG_0001.JPG) need.
        #expect(
            names(try plan([folder.path]) { $0.input.scan.include = ["img*"] }) == [
                "IMG1.png", "img10.png", "img2.png",
            ])
        #expect(
            names(
                try plan([folder.path]) {
                    $0.input.scan.exclude = ["img*", "*/sub/*"]; $0.input.scan.recursive = true
                }) == ["b.png"])
        #expect(!names(try plan([folder.path]) { $0.input.scan.recursive = true }).contains(".hidden.png"))
    }

    @Test("random order is the same for a seed, whatever the input order, and differs across seeds")
    func random() throws {
        let inputs = SampleCatalog.paths
        let a = names(
            try plan(inputs) {
                $0.input.sort = .random; $0.input.seed = 7
            })
        let b = names(
            try plan(inputs.reversed()) {
                $0.input.sort = .random; $0.input.seed = 7
            })
        let c = names(
            try plan(inputs) {
                $0.input.sort = .random; $0.input.seed = 8
            })
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a) == Set(c))
    }

    @Test("size, aspect and date orders")
    func keyed() throws {
        let bySize = try plan(SampleCatalog.paths) { $0.input.sort = .size }
        #expect(bySize.images.map(\.fileSize) == bySize.images.map(\.fileSize).sorted())
        let byAspect = try plan(SampleCatalog.paths) { $0.input.sort = .aspect }
        let aspects = byAspect.images.map { Double($0.info.displayedSize.width) / Double($0.info.displayedSize.height) }
        #expect(aspects == aspects.sorted())
        #expect(byAspect.images.first?.path.hasSuffix("tall-1x3-progressive-444.jpg") == true)
        // No EXIF dates in the samples: date falls back to the modification time.
        let byDate = try plan(SampleCatalog.paths) { $0.input.sort = .date }
        #expect(
            byDate.images.allSatisfy {
                if case .text(let t) = $0.sortKey! { return t.count == 19 } else { return false }
            })
    }

    @Test("--files-from takes 100,000 inputs: 1,000 files given 100 times each, each drawn once")
    func manyInputs() throws {
        let gray = Fixtures.read(Fixtures.sample("png-gray.png"))!
        let files = (0..<1000).map { folder.write(gray, to: "g\($0).png") }
        defer { for file in files { unlink(file) } }
        let list = folder.write(
            Array((0..<100_000).map { files[$0 % files.count] + "\n" }.joined().utf8), to: "list.txt")
        let command = try ImageWallCommand.Layout.parse([
            "--files-from", list, "--layout", "grid", "--columns", "100", "--width", "2010", "--gap", "0", "--padding",
            "5",
        ])
        _ = command  // parsed; the library does the work below
        let inputs = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
        var options = WallOptions()
        options.limits.threads = 2
        (options.layout.kind, options.layout.columns) = (.grid, 100)
        let plan = try Wall(inputs: inputs).plan(options: options)
        #expect(inputs.count == 100_000 && plan.images.count == 1000 && plan.repeats.count == 99_000)
        #expect(plan.arrangement.placements.count == 1000)
    }
}

extension SampleCatalog {
    static var paths: [String] { all.map { Fixtures.sample($0.fileName) } }
}
