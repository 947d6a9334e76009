import Testing
import _WallTestSupport

@testable import WallPages

@Suite("Page assets")
struct PageAssetsTests {
    /// Each stylesheet and script, by its file's name, as the binary holds it.
    static let embedded: [String: String] = [
        "deep-zoom.css": PageAssets.deepZoomStyle, "deep-zoom.js": PageAssets.deepZoomScript,
        "gallery-page.css": PageAssets.galleryPageStyle, "gallery-page.js": PageAssets.galleryPageScript,
        "lightbox-sheet.js": PageAssets.lightboxSheetScript, "lightbox-site.js": PageAssets.lightboxSiteScript,
        "picture-page.js": PageAssets.picturePageScript, "report.css": PageAssets.reportStyle,
        "report.js": PageAssets.reportScript, "site.css": PageAssets.siteStyle,
    ]

    static let folder = Fixtures.packageRoot + "/Sources/WallPages/Assets"

    @Test("every asset is embedded byte for byte, non-ASCII text and quotes as written")
    func embeddedAsWritten() {
        let files = Fixtures.files(in: PageAssetsTests.folder)
        #expect(Set(files) == Set(PageAssetsTests.embedded.keys))
        for (name, text) in PageAssetsTests.embedded {
            #expect(Fixtures.read(PageAssetsTests.folder + "/" + name) == Array(text.utf8), "\(name)")
        }
    }

    @Test("the pages hold their assets whole, each in its element")
    func pagesHoldTheirAssets() {
        let site = SitePage(site: "/s", tree: "/t", title: "T", mapLink: "")
        let page = site.document(title: "T", body: "", script: Lightbox.site.script)
        #expect(page.contains("<style>\n" + PageAssets.siteStyle + "</style>"))
        #expect(page.contains("<script>\n" + PageAssets.lightboxSiteScript + "</script>"))
        let report = ReportPage.html(title: "R", body: "")
        #expect(report.contains("<style>\n" + PageAssets.reportStyle + "</style>"))
        #expect(report.contains("<script>\n" + PageAssets.reportScript + "</script>"))
    }
}
