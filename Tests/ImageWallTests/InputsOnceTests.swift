import Foundation
import ImageWall
import Testing
import WallCodecs
import WallCore
import _WallTestSupport

/// Every picture given is drawn once, and every folder or file left out is named: what a user
/// test of real folders found (issue: lists, links, sub-folders, globs).
@Suite("Every input once, every omission named")
struct InputsOnceTests {
    let folder = TemporaryFolder()

    /// Copies sample `name` to `path` under the folder, making its folders.
    func place(_ name: String, at path: String) throws {
        let target = folder.file(path)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.sample(name), toPath: target)
    }

    func plan(_ inputs: [String], recursive: Bool = true, include: [String] = []) throws -> Plan {
        var options = WallOptions()
        options.input.scan = InputScanner.Options(recursive: recursive, include: include)
        options.limits.threads = 1
        return try Wall(inputs: inputs).plan(options: options)
    }

    @Test("a list of paths separated by NUL bytes, as find -print0 writes it, gives every path")
    func nullSeparated() {
        let list = Array("a b.jpg\u{0}sub/c.png\u{0}with\nnewline.jpg\u{0}".utf8)
        #expect(InputList.paths(in: list) == ["a b.jpg", "sub/c.png", "with\nnewline.jpg"])
        #expect(InputList.paths(in: list, separator: .null) == ["a b.jpg", "sub/c.png", "with\nnewline.jpg"])
        // Read as lines on purpose, a NUL still ends a path: no path ever holds one.
        #expect(InputList.paths(in: list, separator: .lines).allSatisfy { !$0.contains("\u{0}") })
    }

    @Test("CRLF and LF lists give the same paths; blank lines are skipped")
    func lineEnds() {
        #expect(InputList.paths(in: Array("a.jpg\r\nb c.png\r\n\r\n".utf8)) == ["a.jpg", "b c.png"])
        #expect(InputList.paths(in: Array("a.jpg\nb c.png".utf8)) == ["a.jpg", "b c.png"])
        #expect(InputList.paths(in: Array("a\rb.jpg\n".utf8)) == ["a\rb.jpg"])  // a CR inside a name stays
    }

    @Test("a link back to a parent folder draws each image once and is named once")
    func linkLoop() throws {
        try place("png-rgb.png", at: "top/a/one.png")
        try place("grayscale.jpg", at: "top/two.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.file("top/a/up"), withDestinationPath: "..")
        let plan = try plan([folder.file("top")])
        #expect(plan.images.map(\.path).sorted() == [folder.file("top/a/one.png"), folder.file("top/two.jpg")])
        #expect(plan.foldersNotRead == [FolderNotRead(path: folder.file("top/a/up"), reason: .alreadyRead)])
    }

    @Test(
        "a file given again — by the same path, another path, a link or a hard link — is drawn once, the repeats named")
    func fileTwice() throws {
        try place("png-rgb.png", at: "same/a.png")
        try place("grayscale.jpg", at: "same/b.jpg")
        link(folder.file("same/b.jpg"), folder.file("same/c-hard.jpg"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("same/d-link.png"), withDestinationPath: "a.png")
        let a = folder.file("same/a.png")
        let plan = try plan(
            [a, a, folder.file("same/./a.png"), folder.file("same"), folder.file("missing.jpg")] + [
                folder.file("missing.jpg")
            ])
        #expect(plan.images.map(\.path) == [a, folder.file("same/b.jpg")])
        #expect(
            plan.repeats == [
                RepeatedInput(path: a, sameAs: a), RepeatedInput(path: folder.file("same/./a.png"), sameAs: a),
                RepeatedInput(path: folder.file("same/a.png"), sameAs: a),
                RepeatedInput(path: folder.file("same/c-hard.jpg"), sameAs: folder.file("same/b.jpg")),
                RepeatedInput(path: folder.file("same/d-link.png"), sameAs: a),
                RepeatedInput(path: folder.file("missing.jpg"), sameAs: folder.file("missing.jpg")),
            ])
        #expect(plan.skipped.map(\.path) == [folder.file("missing.jpg")], "a missing file is reported once")
        // The manifest lists them, and the render draws two tiles.
        let manifest = try Wall(inputs: [a, a, folder.file("same")]).render(
            to: folder.file("once.png"), options: WallOptions())
        #expect(manifest.tiles.count == 2 && manifest.repeats?.count == 4)
        unlink(folder.file("once.png"))
    }

    @Test("a folder given twice, or inside another given with -r, is read once")
    func folderTwice() throws {
        try place("png-rgb.png", at: "twice/sub/one.png")
        let plan = try plan([folder.file("twice"), folder.file("twice/sub")])
        #expect(plan.images.map(\.path) == [folder.file("twice/sub/one.png")])
        #expect(plan.foldersNotRead.map(\.reason) == [.alreadyRead])
    }

    @Test("without -r, sub-folders are named in the plan, the manifest and the error when nothing else is there")
    func subFoldersNamed() throws {
        try place("png-rgb.png", at: "flat/top.png")
        try place("grayscale.jpg", at: "flat/deeper/inner.jpg")
        let plan = try plan([folder.file("flat")], recursive: false)
        #expect(plan.images.count == 1)
        #expect(plan.foldersNotRead == [FolderNotRead(path: folder.file("flat/deeper"), reason: .notRecursive)])
        let manifest = Wall.manifest(of: plan, options: WallOptions())
        #expect(manifest.foldersNotRead?.count == 1)
        try place("grayscale.jpg", at: "only/deeper/inner.jpg")
        do {
            _ = try self.plan([folder.file("only")], recursive: false)
            Issue.record("a folder of sub-folders alone was accepted")
        } catch let error as WallRunError {
            #expect(error.message.contains("1 sub-folder not read: use -r"), "\(error.message)")
        }
    }

    @Test("--include ignores case, as camera files are named, and what the globs leave out is counted")
    func globsIgnoreCase() throws {
        try place("orientation-1.jpg", at: "camera/IMG_0001.JPG")
        try place("grayscale.jpg", at: "camera/IMG_0002.jpg")
        try place("png-rgb.png", at: "camera/IMG_0003.PNG")
        let plan = try plan([folder.file("camera")], include: ["*.jpg"])
        #expect(plan.images.count == 2)
        #expect(plan.filteredOut == 1)
        #expect(Wall.manifest(of: plan, options: WallOptions()).filteredOut == 1)
    }
}
