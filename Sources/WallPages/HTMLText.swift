import Foundation
import ImageWall
import WallCore
import WallFiles

/// Text put into the HTML pages ImageWall writes.
package enum HTMLText {
    /// The start of every page ImageWall writes, up to and with its title (`title`, escaped):
    /// the doctype, the language, the character set, the viewport and ImageWall as generator
    /// (by which a later render knows the page's files, see ``ImageWall/OwnFolders``).
    package static func documentStart(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(OwnFolders.generatorMeta)
        <title>\(escape(title))</title>
        """
    }

    /// `text` with `&`, `<`, `>` and `"` escaped, for an element's text or an attribute.
    package static func escape(_ text: String) -> String {
        text.displayed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The link from a page in `folder` to `target`: a relative URL that cannot name a scheme or
    /// hold markup, whatever the file's name (`javascript:alert(1).jpg`, `a&amp;b.jpg`). Every
    /// byte of a name but the unreserved ones of RFC 3986 is percent-encoded (`:` as `%3A`, `&`
    /// as `%26`), and a link that does not climb with `..` starts with `./`, so it is safe as an
    /// attribute's value, in a script's data and as a `location`. With `resolving`, the links in
    /// an existing target's path are resolved first; without, `target` is taken as written (an
    /// absolute path in the same tree as `folder`: a site's own files).
    package static func link(from folder: String, to target: String, resolving: Bool = true) -> String {
        let parts = FilePaths.relativeParts(from: folder, to: resolving ? FilePaths.absolute(target) : target)
        let path = parts.map(percentEncoded).joined(separator: "/")
        return parts.first == ".." ? path : "./" + path
    }

    /// `name`'s bytes (those the file system holds: a Latin-1 `ü` as `%FC`, see ``SystemPath``)
    /// percent-encoded but RFC 3986's unreserved ones: letters, digits, `-`, `.`, `_`, `~`.
    static func percentEncoded(_ name: String) -> String {
        var text = ""
        for byte in SystemPath.bytes(name) {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }

    /// JSON text made safe inside `<script type="application/json">`: `<`, `>` and `&` (which
    /// could close the element or open a comment, `</script>`, `<!--`) and the line separators
    /// U+2028 and U+2029 written as `\u` escapes, which mean the same characters to a JSON
    /// reader. `json` must be JSON: those characters appear in it only inside strings. A byte
    /// of a name that is not UTF-8 is shown as U+FFFD (links are percent-encoded before).
    package static func scriptData(_ json: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.displayed.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
