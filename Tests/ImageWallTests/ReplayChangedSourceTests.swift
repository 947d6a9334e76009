import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCompositor
import WallCore
import WallLayout
import WallReview
import _WallTestSupport

/// A manifest rendered again after one of its sources changed shape.
@Suite("Replaying a manifest whose source changed")
struct ReplayChangedSourceTests {
    let folder = TemporaryFolder()

    /// A manifest of two images, then the first replaced by a picture of another shape.
    func changed() throws -> (manifest: String, replaced: String) {
        let a = folder.file("a.jpg"), b = folder.file("b.png")
        try FileManager.default.copyItem(atPath: Fixtures.sample("square-baseline-444.jpg"), toPath: a)
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: b)
        var options = WallOptions()
        options.layout.width = 600
        let manifest = folder.file("m.json")
        try Wall(inputs: [a, b]).render(to: folder.file("one.png"), manifest: manifest, options: options)
        try FileManager.default.removeItem(atPath: a)
        try FileManager.default.copyItem(atPath: Fixtures.sample("panorama-4x1.jpg"), toPath: a)
        return (manifest, a)
    }

    @Test("it is drawn cropped to its cell, never squeezed, and the change is warned about and recorded")
    func croppedAndWarned() throws {
        let (path, replaced) = try changed()
        let recorded = try Wall.readManifest(path)
        let warned = Locked<[String]>([])
        let hooks = RunHooks(diagnostics: { d in warned.withLock { $0.append(d.description) } })
        let again = try Wall.render(
            from: recorded, to: folder.file("two.png"), recordedAt: path, options: WallOptions(), hooks: hooks)
        let tile = again.tiles[0]
        #expect(tile.sourceWidth == 800 && tile.sourceHeight == 200)
        let crop = try #require(tile.crop)
        // The part shown has the shape of the rectangle it is drawn into.
        #expect(abs(crop.width / crop.height - Double(tile.width) / Double(tile.height)) < 0.02)
        #expect(tile.warnings.contains { $0.contains("400x400 then, 800x200 now") }, "\(tile.warnings)")
        #expect(
            warned.withLock { $0 }.contains { $0.contains(replaced) && $0.contains("800x200 now") },
            "\(warned.withLock { $0 })")
        #expect(again.tiles[1].warnings.isEmpty)
    }

    @Test("--strict refuses it: listed as skipped and drawn as a placeholder, or the run stops")
    func strictRefuses() throws {
        let (path, _) = try changed()
        var options = WallOptions()
        options.limits.strict = true
        let again = try Wall.render(
            from: try Wall.readManifest(path), to: folder.file("s.png"), recordedAt: path, options: options)
        #expect(again.skipped.count == 1 && again.tiles[0].placeholder?.contains("(--strict)") == true)
        options.limits.onError = .fail
        #expect(throws: (any Error).self) {
            try Wall.render(
                from: try Wall.readManifest(path), to: folder.file("f.png"), recordedAt: path, options: options)
        }
    }

    /// Renders `a.jpg` (a landscape) and `b.png`, `a.jpg` replaced by a portrait once every
    /// header is read and before any pixel is; the manifest and what was reported.
    func replacedWhileRendering(_ configure: (inout WallOptions) -> Void = { _ in }) throws -> (Manifest, [String]) {
        let a = folder.file("a.jpg"), b = folder.file("b.png")
        try FileManager.default.copyItem(atPath: Fixtures.sample("landscape-baseline-420.jpg"), toPath: a)
        try FileManager.default.copyItem(atPath: Fixtures.sample("png-rgb.png"), toPath: b)
        var options = WallOptions()
        options.layout.width = 600
        configure(&options)
        let warned = Locked<[String]>([])
        let replaced = Locked(false)
        let progress = ProgressReporter { update in
            guard update.phase == .layout, !replaced.withLock({ $0 }) else { return }
            replaced.withLock { $0 = true }
            // A portrait copied over the landscape, as `cp` does it: the same file, new bytes.
            let portrait = Fixtures.read(Fixtures.sample("portrait-progressive-420.jpg"))!
            FileManager.default.createFile(atPath: a, contents: Data(portrait))
        }
        let hooks = RunHooks(progress: progress, diagnostics: { d in warned.withLock { $0.append(d.description) } })
        let manifest = try Wall(inputs: [a, b]).render(to: folder.file("r.png"), options: options, hooks: hooks)
        #expect(replaced.withLock { $0 })
        return (manifest, warned.withLock { $0 })
    }

    @Test("a file replaced after it was probed is drawn cropped to its cell, never squeezed, with a warning")
    func replacedAfterProbing() throws {
        let (manifest, warned) = try replacedWhileRendering()
        let tile = manifest.tiles[0]
        let landscape = try ImageProbe().probe(path: Fixtures.sample("landscape-baseline-420.jpg")).displayedSize
        let portrait = try ImageProbe().probe(path: Fixtures.sample("portrait-progressive-420.jpg")).displayedSize
        #expect(tile.width > tile.height, "laid out for the landscape")
        let change = "\(landscape.width)x\(landscape.height) then, \(portrait.width)x\(portrait.height) now"
        #expect(tile.warnings.contains { $0.contains("changed since it was probed: \(change)") }, "\(tile.warnings)")
        #expect(warned.contains { $0.contains(change) && $0.contains("cropped") }, "\(warned)")
        // What is drawn is the middle of the portrait at its own shape: the portrait cropped as
        // cover crops it, resampled into the tile.
        let sheet = try SheetDiff.load(folder.file("r.png"))
        let decoded = try ImageDecoder().decode(
            path: folder.file("a.jpg"), info: try ImageProbe().probe(path: folder.file("a.jpg")))
        let region = Fitting.cover(portrait, in: Size(width: tile.width, height: tile.height), gravity: .center)
        let expected = Resampler.resize(
            decoded.bitmap, to: Size(width: tile.width, height: tile.height), region: region)
        // The mean channel difference over the tile (the sheet is RGB, as the JPEG).
        var total = 0
        for y in 0..<tile.height {
            for x in 0..<tile.width * 3 {
                let onSheet = Int(sheet.pixels[(tile.y + y) * sheet.rowBytes + tile.x * 3 + x])
                total += abs(onSheet - Int(expected.pixels[y * expected.rowBytes + x]))
            }
        }
        let mean = Double(total) / Double(tile.width * tile.height * 3)
        #expect(sheet.channels == 3 && mean < 3, "drawn as the portrait's middle, undistorted: \(mean)")
        #expect(manifest.tiles[1].warnings.isEmpty)
    }

    @Test("under --strict a file replaced after it was probed is a placeholder, and a failure with --on-error fail")
    func replacedStrict() throws {
        let (manifest, _) = try replacedWhileRendering { $0.limits.strict = true }
        #expect(manifest.tiles[0].placeholder?.contains("changed since it was probed") == true)
        try FileManager.default.removeItem(atPath: folder.file("a.jpg"))
        try FileManager.default.removeItem(atPath: folder.file("b.png"))
        #expect(throws: CodecError.self) {
            _ = try replacedWhileRendering {
                $0.limits.strict = true
                $0.limits.onError = .fail
            }
        }
    }

    @Test("pixels of another shape than the probed header's are refused, never stretched into the tile")
    func decodedShapeChecked() throws {
        let landscape = try ImageProbe().probe(path: Fixtures.sample("landscape-baseline-420.jpg"))
        var refusal: String?
        do {
            _ = try ImageDecoder().decode(path: Fixtures.sample("portrait-progressive-420.jpg"), info: landscape)
        } catch {
            refusal = error.reason
        }
        #expect(refusal?.contains("header changed since it was probed") == true, "\(refusal ?? "decoded")")
        // A decode shrunk on load is the probed shape within its rounding.
        let decoded = try ImageDecoder().decode(
            path: Fixtures.sample("landscape-baseline-420.jpg"), info: landscape, target: Size(width: 37, height: 25))
        #expect(decoded.bitmap.size.width < landscape.displayedSize.width / 2)
    }
}
