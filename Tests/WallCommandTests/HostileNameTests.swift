import Foundation
import ImageWall
import Testing
import WallCommand
import WallFiles
import _WallTestSupport

/// Files whose names would be script, markup or entities in a page: every link a page builds
/// from a name is a relative URL with no scheme that reaches the file, and the Deep Zoom
/// viewer's data cannot end its script element. (`make check-html` clicks them in Chromium.)
@Suite("Hostile file names in pages")
struct HostileNameTests {
    let folder = TemporaryFolder()

    /// The names, each a copy of a sample; one a HEIC, shown through a rendition.
    static let names = [
        "javascript:alert(1).jpg": "orientation-6.jpg",
        "javascript:document.title='JS'.heic": "heic-rotated-6.heic",
        "<!--<script>x.png": "png-rgb.png",
        "&copy;&lt.jpg": "cmyk-adobe.jpg",
        "a&amp;b.png": "png-gray.png",
    ]

    /// Renders the folder to `output` with the page `page` inside it, as a user does with
    /// `cd photos && imagewall render . -o sheet.png --html index.html`; returns the page's text.
    func page(output: String, page: String) throws -> String {
        for (name, sample) in HostileNameTests.names {
            folder.write(try #require(Fixtures.read(Fixtures.sample(sample))), to: name)
        }
        try ImageWallCommand.Render.parse([
            folder.path, "-o", folder.file(output), "--html", folder.file(page), "--no-cache", "-q",
        ]).run()
        return String(decoding: try #require(folder.read(page)), as: UTF8.self)
    }

    /// Every `href`, `src` and `data-view` value of `html`, unescaped as a browser reads it.
    static func attributeLinks(_ html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "(?:href|src|data-view)=\"([^\"]*)\"")
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            let value = String(html[Range($0.range(at: 1), in: html)!])
            return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// Checks that `link`, from a page in the folder, is relative with no scheme and reaches an
    /// existing file; returns the file's name.
    func reached(_ link: String) -> String? {
        #expect(link.hasPrefix("./") || link.hasPrefix("../"), "\(link) does not start with ./")
        #expect(!link.contains(":") && !link.contains("&"), "\(link) holds a scheme's colon or an entity")
        guard let path = link.removingPercentEncoding else {
            Issue.record("\(link) is not percent-encoded UTF-8")
            return nil
        }
        #expect(FileManager.default.fileExists(atPath: folder.file(path)), "\(link) reaches no file")
        return FilePaths.name(of: path)
    }

    @Test("the gallery page's links are relative, scheme-less and reach the files of any name")
    func gallery() throws {
        let html = try page(output: "sheet.png", page: "index.html")
        defer { try? FileManager.default.removeItem(atPath: folder.file("index_files")) }
        let links = HostileNameTests.attributeLinks(html)
        #expect(links.count >= 11, "\(links)")  // the sheet, and each tile's link and view
        let names = Set(links.compactMap(reached))
        #expect(Set(HostileNameTests.names.keys).isSubset(of: names), "\(names)")
        #expect(!html.contains("href=\"javascript") && !html.contains("<!--<script>"))
    }

    @Test("the Deep Zoom viewer's data cannot end its script, and its links reach the files")
    func deepZoom() throws {
        let html = try page(output: "wall.dzi", page: "wall.html")
        defer { try? FileManager.default.removeItem(atPath: folder.file("wall_files")) }
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"walls\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = String(html[start.upperBound..<end.lowerBound])
        #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"), "\(data)")
        let walls = try #require(
            try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [[String: Any]])
        let links = try #require(walls.first?["links"] as? [String])
        let names = try #require(walls.first?["names"] as? [String])
        #expect(Set(names) == Set(HostileNameTests.names.keys))
        #expect(Set(links.compactMap(reached)) == Set(HostileNameTests.names.keys))
    }
}
