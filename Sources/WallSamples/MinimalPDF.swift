/// The smallest PDF of some pages, written out in full (for the samples and the tests): a
/// catalogue, a page tree, each page its media box, content stream (PDF drawing operators) and
/// resources, with a cross-reference table so that any reader (poppler, pdfinfo) reads it as is.
public enum MinimalPDF {
    /// A PDF of `pages`, each a media box ("0 0 300 150", in points) and its content stream;
    /// `resources`, a dictionary's inside, go to every page, and `objects` after the pages (the
    /// first of them numbered 3 + 2 × the pages).
    public static func document(
        _ pages: [(mediaBox: String, content: String)], resources: String = "", objects extra: [String] = []
    ) -> [UInt8] {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
        let kids = pages.indices.map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        for (k, page) in pages.enumerated() {
            let own = resources.isEmpty ? "" : " /Resources << \(resources) >>"
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [\(page.mediaBox)]\(own) /Contents \(4 + 2 * k) 0 R >>")
            objects.append("<< /Length \(page.content.utf8.count) >>\nstream\n\(page.content)\nendstream")
        }
        objects += extra
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { text += String(String(offset + 10_000_000_000).dropFirst()) + " 00000 n \n" }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return Array(text.utf8)
    }
}
