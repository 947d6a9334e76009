import Foundation
import WallCodecs
import WallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a manifest as pretty, key-sorted JSON (the text of Foundation's `JSONEncoder` with
/// `.prettyPrinted`, `.sortedKeys`, `.withoutEscapingSlashes`), atomically, one tile at a time:
/// a million tiles need no more memory than the manifest itself.
public enum ManifestWriter {
    /// The JSON text of `manifest`, identical for identical manifests.
    public static func encode(_ manifest: Manifest) throws -> Data {
        var data = Data()
        try stream(manifest) { data.append(contentsOf: $0.utf8) }
        return data
    }

    /// Writes `manifest` to `path`, recording where its roots are from there (see
    /// ``Manifest/Root/fromManifest``).
    public static func write(_ manifest: Manifest, to path: String) throws {
        var located = manifest
        located.locateRoots(from: path)
        let file = try AtomicFile(destination: path)
        try write(located, to: file.handle, named: path)
        try file.commit()
    }

    /// Writes `manifest` to an open file (standard output for `imagewall layout --json`).
    public static func write(_ manifest: Manifest, to handle: UnsafeMutablePointer<FILE>, named name: String) throws {
        try stream(manifest) { text in
            var text = text
            let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, handle) }
            guard written == text.utf8.count else {
                throw CodecError(.write, path: name, reason: systemErrorText())
            }
        }
        guard fflush(handle) == 0 else {
            throw CodecError(.write, path: name, reason: systemErrorText())
        }
    }

    /// The manifest's text in pieces, in order: all but the tiles at once, each tile on its own.
    static func stream(_ manifest: Manifest, _ emit: (String) throws -> Void) throws {
        var rest = manifest
        rest.tiles = []
        let text = try JSONText.text(of: rest) + "\n"
        let empty = "\n  \"tiles\" : [\n\n  ]"
        guard !manifest.tiles.isEmpty, let slot = text.range(of: empty) else {
            try emit(text)
            return
        }
        try emit(String(text[..<slot.lowerBound]) + "\n  \"tiles\" : [\n")
        var batch = ""
        for (n, tile) in manifest.tiles.enumerated() {
            batch += "    "
            batch += try tile.jsonText(level: 2)
            batch += n == manifest.tiles.count - 1 ? "\n" : ",\n"
            if batch.utf8.count >= 1 << 16 {
                try emit(batch)
                batch = ""
            }
        }
        try emit(batch + "  ]" + text[slot.upperBound...])
    }

    /// Reads a manifest file.
    public static func read(_ path: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
