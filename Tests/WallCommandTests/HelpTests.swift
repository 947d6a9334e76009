import ArgumentParser
import Foundation
import Testing
import WallCommand
import _WallTestSupport

/// The help of every command, pinned word for word (as swift-argument-parser's own tests pin
/// theirs): a help that drifts from what the tool does shows here, and the man page, made from
/// the same help, is checked to be the one committed.
@Suite("Help, word for word")
struct HelpTests {
    /// Each command's help and the file under `Tests/WallCommandTests/Help` that pins it: the
    /// root command and every subcommand it has, so a new command is pinned too.
    static let commands: [(name: String, command: any ParsableCommand.Type)] =
        [("imagewall", ImageWallCommand.self)]
        + ImageWallCommand.configuration.subcommands.map { ($0._commandName, $0) }

    static let folder = Fixtures.packageRoot + "/Tests/WallCommandTests/Help"

    @Test("each command's help is the one pinned", arguments: commands.map(\.name))
    func pinned(name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name }).command
        let help = ImageWallCommand.helpMessage(for: command, columns: 100)
        let path = Self.folder + "/\(name).txt"
        // After a change to the help on purpose: IMAGEWALL_PIN_HELP=1 swift test --filter HelpTests
        if ProcessInfo.processInfo.environment["IMAGEWALL_PIN_HELP"] == "1" {
            try Data(help.utf8).write(to: URL(fileURLWithPath: path))
        }
        let pinned = String(decoding: try #require(Fixtures.read(path), "\(path) is missing"), as: UTF8.self)
        #expect(help == pinned, "imagewall \(name)'s help is not the one pinned in \(path)")
    }

    /// What `Tools/TOOL` (given `arguments`) makes of the debug binary's
    /// `--experimental-dump-help`, as `make man` runs it.
    static func made(by tool: String, arguments: String = "") throws -> String {
        let dump = try Fixtures.run(Fixtures.binary, ["--experimental-dump-help"])
        #expect(dump.status == 0)
        let input = Fixtures.packageRoot + "/.build/help-dump-\(getpid())-\(tool).json"
        try dump.output.write(to: URL(fileURLWithPath: input))
        defer { unlink(input) }
        let made = try Fixtures.run(
            "/bin/sh", ["-c", "python3 '\(Fixtures.packageRoot)/Tools/\(tool)' \(arguments) < '\(input)'"])
        #expect(made.status == 0, "\(made.errors)")
        return String(decoding: made.output, as: UTF8.self)
    }

    @Test(
        "the man page is the one made from the help (make man), every character kept",
        .enabled(if: FileManager.default.isExecutableFile(atPath: Fixtures.binary)))
    func manPage() throws {
        let made = try Self.made(by: "manpage.py", arguments: "DATE")
        let committed = String(
            decoding: try #require(Fixtures.read(Fixtures.packageRoot + "/docs/imagewall.1")), as: UTF8.self)
        func body(_ page: String) -> [Substring] { page.split(separator: "\n").filter { !$0.hasPrefix(".Dd ") } }
        #expect(
            body(made) == body(committed),
            "docs/imagewall.1 is not made from today's help: run make man")
        // The examples' separators and ellipses are there, as roff escapes.
        #expect(committed.contains("\\[u00B7]") && committed.contains("\\[u2026]"))
    }

    @Test(
        "docs/reference.md is the one made from the help (make man), every command in it",
        .enabled(if: FileManager.default.isExecutableFile(atPath: Fixtures.binary)))
    func reference() throws {
        let made = try Self.made(by: "reference.py")
        let committed = String(
            decoding: try #require(Fixtures.read(Fixtures.packageRoot + "/docs/reference.md")), as: UTF8.self)
        #expect(
            made == committed,
            "docs/reference.md is not made from today's help: run make man")
        for (name, _) in Self.commands.dropFirst() where name != "help" {
            #expect(committed.contains("\n## imagewall \(name)\n"), "imagewall \(name) is missing from the reference")
        }
    }
}
