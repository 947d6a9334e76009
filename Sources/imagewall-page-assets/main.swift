// Writes each stylesheet and script of the pages as a Swift string constant, byte for byte, into
// one file: `imagewall-page-assets OUTPUT.swift ASSET...`, run by the PageAssets build-tool
// plugin, so that the binary holds the pages' assets and stays one file.
import Foundation

/// The constant's name for an asset's file name: `deep-zoom.js` → `deepZoomScript`.
func constantName(_ fileName: String) throws -> String {
    let kinds = ["css": "Style", "js": "Script"]
    let parts = fileName.split(separator: ".")
    guard parts.count == 2, let kind = kinds[String(parts[1])] else {
        throw GeneratorError("\(fileName): an asset is NAME.css or NAME.js")
    }
    let words = parts[0].split(separator: "-").map(String.init)
    guard let first = words.first, words.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
    else { throw GeneratorError("\(fileName): a name of letters and digits parted by '-'") }
    return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + kind
}

/// `text` as the inside of a one-line Swift string literal that holds exactly its characters.
func literal(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.count >= 2 else { throw GeneratorError("usage: imagewall-page-assets OUTPUT.swift ASSET...") }
    var source = "// Made at build time by imagewall-page-assets from Sources/WallPages/Assets: edit those files.\n\n"
    source += "/// The pages' stylesheets and scripts, each file's text.\nenum PageAssets {\n"
    var names: Set<String> = []
    for path in arguments.dropFirst().sorted() {
        let url = URL(fileURLWithPath: path)
        let bytes = try Data(contentsOf: url)
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == Array(bytes) else { throw GeneratorError("\(path): not UTF-8") }
        let name = try constantName(url.lastPathComponent)
        guard names.insert(name).inserted else { throw GeneratorError("\(path): a second \(name)") }
        source += "    /// \(url.lastPathComponent)\n    static let \(name) = \"\(literal(text))\"\n"
    }
    source += "}\n"
    // Written only when it changed, so an unchanged asset rebuilds nothing.
    let output = URL(fileURLWithPath: arguments[0])
    if (try? Data(contentsOf: output)) != Data(source.utf8) {
        try Data(source.utf8).write(to: output, options: .atomic)
    }
} catch {
    FileHandle.standardError.write(Data("imagewall-page-assets: \(error)\n".utf8))
    exit(1)
}
