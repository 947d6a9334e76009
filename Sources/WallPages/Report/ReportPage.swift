import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles

/// Pictures put inside a report page as `data:` URIs (PNG), so the page needs no network and
/// no file beside it. The PNGs are made in a private folder, removed when this is released.
public final class ReportImages {
    private let folder: PrivateFolder
    private var count = 0

    /// A place to make the page's pictures in.
    public init() throws {
        folder = try PrivateFolder(temporaryNamed: "imagewall-report")
    }

    deinit { folder.remove() }

    /// `bitmap` as a PNG `data:` URI.
    public func uri(_ bitmap: Bitmap) throws -> String {
        count += 1
        let file = folder.path + "/\(count).png"
        try PNGEncoder.write(bitmap, to: file, durable: false)
        defer { unlink(file) }
        let bytes = FileManager.default.contents(atPath: file) ?? Data()
        return "data:image/png;base64," + bytes.base64EncodedString()
    }
}

/// The frame of a self-contained report page: its styles and the script that switches each
/// comparison section between its sheets (expected, actual, changes, side by side) and zooms.
public enum ReportPage {
    /// A whole page titled `title` around `body` (the sections of `SheetComparison`'s
    /// `reportSection(number:title:images:)`, a summary table, headings).
    public static func html(title: String, body: String) -> String {
        """
        \(HTMLText.documentStart(title: title))
        <style>
        \(PageAssets.reportStyle)</style>
        </head>
        <body>
        \(body)
        <script>
        \(PageAssets.reportScript)</script>
        </body>
        </html>

        """
    }
}
