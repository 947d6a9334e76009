import WallPages

/// The report page of a fixture suite's run, in the shell of ``ReportPage``.
extension ReportPage {
    /// A suite's page: a summary table of every fixture (the failing first), then the section of
    /// each that changed.
    public static func suite(_ results: FixtureResults, sections: [String: String]) -> String {
        let order: [FixtureResult.Status] = [.error, .changed, .new, .obsolete, .updated, .passed]
        let rows = results.fixtures.enumerated().sorted { a, b in
            let ra = order.firstIndex(of: a.element.status) ?? 0, rb = order.firstIndex(of: b.element.status) ?? 0
            return ra != rb ? ra < rb : a.offset < b.offset
        }
        var table = "<table id=\"fixtures\">\n<tr><th>status</th><th>fixture</th><th>what</th></tr>\n"
        for (_, fixture) in rows {
            let name = HTMLText.escape(fixture.name)
            let link =
                sections[fixture.name] != nil
                ? "<a href=\"#\(HTMLText.escape(anchor(fixture.name)))\">\(name)</a>" : name
            table +=
                "<tr data-status=\"\(fixture.status.rawValue)\" data-name=\"\(name)\"><td class=\"status\">\(fixture.status.rawValue)</td><td>\(link)</td><td>\(HTMLText.escape(fixture.message))</td></tr>\n"
        }
        table += "</table>\n"
        let failed = results.fixtures.filter { $0.status.fails }.count
        let fixtures = results.fixtures.count - results.count(.obsolete)
        let heading = "<h1>\(failed == 0 ? "Every fixture passed" : "\(failed) of \(fixtures) fixtures failed")</h1>\n"
        let about = "<p>ImageWall \(HTMLText.escape(results.version)) · \(HTMLText.escape(results.libraries))</p>\n"
        var body = heading + about + table
        for (_, fixture) in rows {
            guard let section = sections[fixture.name] else { continue }
            body += "<div id=\"\(HTMLText.escape(anchor(fixture.name)))\">\(section)</div>\n"
        }
        return html(title: "ImageWall fixtures: \(failed) failed", body: body)
    }

    /// The id of a fixture's part of the suite page.
    static func anchor(_ name: String) -> String { "at-" + name }
}
