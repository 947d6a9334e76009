import ArgumentParser
import Foundation
import Testing
import _WallTestSupport

@testable import WallCommand

/// The start that lets a subcommand named first parse the rest on its own: the same command as
/// the whole line's parse, and everything else — help, a version, errors, options before the
/// subcommand — left to ArgumentParser's own way.
@Suite("A subcommand named first")
struct SubcommandFirstTests {
    @Test(
        "parses the rest to what the whole line parses to",
        arguments: [
            (["render", "SampleImages", "-o", "sheet.png", "--width", "1200", "--columns", "3", "--no-cache"], "1200"),
            (["render", "a.jpg", "b", "-o", "x.webp", "--layout", "justified", "--row-height", "240", "-q"], "x.webp"),
            (["render", "--from-manifest", "m.json", "--part", "1/4", "-o", "p.png"], "m.json"),
            // Arguments spelled like subcommands are the subcommand's values.
            (["render", "probe", "help", "-o", "out.png"], "help"),
            (["layout", "Photos", "--layout", "grid", "--columns", "6", "--json"], "Photos"),
            (["probe", "a.jpg", "b.png"], "b.png"),
            (["gallery", "Pictures", "-o", "site"], "Pictures"),
        ])
    func sameParse(line: [String], given: String) throws {
        let alone = try #require(ImageWallCommand.parsedSubcommand(line))
        let whole = try ImageWallCommand.parseAsRoot(line)
        #expect(ObjectIdentifier(type(of: alone)) == ObjectIdentifier(type(of: whole)))
        var aloneDump = "", wholeDump = ""
        dump(alone, to: &aloneDump)
        dump(whole, to: &wholeDump)
        #expect(aloneDump == wholeDump)
        #expect(aloneDump.contains(given))
    }

    @Test(
        "leaves help, versions, errors and anything but a subcommand's own parse to the usual way",
        arguments: [
            [], ["--help"], ["--version"], ["help", "render"], ["render", "--help"], ["render", "-h"],
            ["render", "--bogus"], ["render", "x.jpg", "-o", "o.png", "--threads", "0"], ["nonesuch", "x"],
            ["render", "--generate-completion-script", "bash"], ["--quiet", "render", "x.jpg"],
        ])
    func usualWay(line: [String]) {
        #expect(ImageWallCommand.parsedSubcommand(line) == nil)
    }

    @Test("a bad option still prints the subcommand's usage under the command's name")
    func errorsAsBefore() throws {
        let run = try Fixtures.run(Fixtures.binary, ["render", "x.jpg", "-o", "o.png", "--bogus"])
        #expect(run.status == 64)
        #expect(run.errors.contains("Error: Unknown option '--bogus'"))
        #expect(run.errors.contains("Usage: imagewall render"))
        let help = try Fixtures.run(Fixtures.binary, ["render", "--help"])
        #expect(help.status == 0)
        #expect(String(decoding: help.output, as: UTF8.self).contains("USAGE: imagewall render"))
    }

    @Test("a line that starts with a folder, as montage's does, says which command draws it")
    func notACommand() throws {
        let run = try Fixtures.run(Fixtures.binary, ["Photos", "-o", "x.png"])
        #expect(run.status == 64)
        #expect(
            run.errors.contains("'Photos' is not a command") && run.errors.contains("imagewall render Photos -o x.png"),
            "\(run.errors)")
        #expect(ImageWallCommand.notACommand(["help", "render"]) == nil)
        #expect(ImageWallCommand.notACommand(["render", "x.jpg"]) == nil)
        #expect(ImageWallCommand.notACommand(["--version"]) == nil)
        // gallery --sheet-format lists and takes only what a page shows.
        let pdf = try Fixtures.run(Fixtures.binary, ["gallery", "Photos", "-o", "site", "--sheet-format", "pdf"])
        #expect(pdf.status == 64 && pdf.errors.contains("one of 'jpeg', 'webp' or 'png'"), "\(pdf.errors)")
    }
}
