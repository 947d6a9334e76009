import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore

extension SheetComparison {
    /// The options that shaped the two sheets, where they differ, from the golden to the
    /// checked sheet ("columns 4 → 3"): said before pixels, since a changed option moves every
    /// tile after it. Empty without manifests.
    public var optionChanges: [String] {
        guard let manifests else { return [] }
        let before = Self.options(of: manifests.0), after = Self.options(of: manifests.1)
        return Set(before.keys).union(after.keys).sorted().compactMap { key in
            let old = before[key] ?? "none", new = after[key] ?? "none"
            return old == new ? nil : "\(key) \(old) → \(new)"
        }
    }

    /// The libraries (and ImageWall) that drew the two sheets, where they differ ("libjpeg
    /// 2001005 here, 3000001 in the golden"), when both manifests say.
    public var versionChanges: [String] {
        guard let golden = manifests?.0.madeBy, let here = manifests?.1.madeBy else { return [] }
        var changes: [String] = []
        if golden.imagewall != here.imagewall {
            changes.append("ImageWall \(here.imagewall) here, \(golden.imagewall) in the golden")
        }
        func byName(_ line: String) -> [String: String] {
            var versions: [String: String] = [:]
            for entry in line.components(separatedBy: ", ") {
                let words = entry.split(separator: " ")
                guard words.count >= 2 else { continue }
                versions[words.dropLast().joined(separator: " ")] = String(words[words.count - 1])
            }
            return versions
        }
        let old = byName(golden.libraries), new = byName(here.libraries)
        for name in Set(old.keys).union(new.keys).sorted() where old[name] != new[name] {
            changes.append("\(name) \(new[name] ?? "absent") here, \(old[name] ?? "absent") in the golden")
        }
        return changes
    }

    /// A manifest's layout and rendering options as flat keys and JSON values ("padding.top": "10").
    static func options(of manifest: Manifest) -> [String: String] {
        var flat: [String: String] = [:]
        func add(_ value: Any, _ key: String) {
            if let object = value as? [String: Any] {
                for (name, inner) in object { add(inner, key.isEmpty ? name : key + "." + name) }
            } else if let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            {
                flat[key] = String(decoding: data, as: UTF8.self)
            }
        }
        let encoder = JSONEncoder()
        for part in [try? encoder.encode(manifest.layout), try? manifest.render.map { try encoder.encode($0) }] {
            if let part, let object = try? JSONSerialization.jsonObject(with: part) { add(object, "") }
        }
        return flat
    }
}
