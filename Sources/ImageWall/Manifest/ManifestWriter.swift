import Foundation
import WallCodecs
import WallCore
import WallFiles
import WallJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a manifest as key-sorted JSON, atomically, one tile at a time: a million tiles need no
/// more memory than the manifest itself. All but the tiles is the text of Foundation's
/// `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes`; each tile
/// is that encoder's text without `.prettyPrinted`, on a line of its own — half the bytes of
/// pretty tiles, a tile to a line for `grep` and line-by-line tools, and half the parsing for a
/// reader.
public enum ManifestWriter {
    /// The JSON text of `manifest`, identical for identical manifests.
    public static func encode(_ manifest: Manifest) throws -> Data {
        var data = Data()
        try stream(manifest) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes `manifest` to `path`, recording where its roots are from there (see
    /// ``Manifest/Root/fromManifest``).
    public static func write(_ manifest: Manifest, to path: String) throws {
        try stage(manifest, to: path).commit()
    }

    /// Writes `manifest` for `path` into a temporary file beside it, complete but not yet in
    /// place: ``AtomicFile/commit()`` puts it there, ``AtomicFile/discard()`` removes it.
    static func stage(_ manifest: Manifest, to path: String) throws -> AtomicFile {
        var located = manifest
        located.locateRoots(from: path)
        let file = try AtomicFile(destination: path)
        do {
            try write(located, to: file.handle, named: path)
            try file.finishWriting()
        } catch {
            file.discard()
            throw error
        }
        return file
    }

    /// Writes `manifest` to an open file (standard output for `imagewall layout --json`).
    public static func write(_ manifest: Manifest, to handle: UnsafeMutablePointer<FILE>, named name: String) throws {
        try stream(manifest) { bytes in
            guard bytes.withUnsafeBufferPointer({ fwrite($0.baseAddress, 1, $0.count, handle) }) == bytes.count else {
                throw FileError(.write, path: name, reason: systemErrorText())
            }
        }
        guard fflush(handle) == 0 else {
            throw FileError(.write, path: name, reason: systemErrorText())
        }
    }

    /// The manifest's text in pieces of about 256 KB, in order: all but the tiles as one text,
    /// the tiles written straight into the pieces, one to a line.
    static func stream(_ manifest: Manifest, _ emit: ([UInt8]) throws -> Void) throws {
        var rest = manifest
        rest.tiles = []
        let text = try JSONText.text(of: rest) + "\n"
        let empty = "\n  \"tiles\" : [\n\n  ]"
        guard !manifest.tiles.isEmpty, let slot = text.range(of: empty) else {
            try emit(Array(text.utf8))
            return
        }
        let pieceSize = 1 << 18
        // Room for a piece and the tile that ends it; a longer tile grows the room.
        var out = JSONBytes(capacity: pieceSize + (1 << 16))
        out.append(text: String(text[..<slot.lowerBound]))
        out.append("\n  \"tiles\" : [\n")
        let last = manifest.tiles.count - 1
        for (n, tile) in manifest.tiles.enumerated() {
            try out.write { line in
                line.indent(2)
                try tile.writeJSON(to: &line)
                line.append(n == last ? "\n" : ",\n")
            }
            if out.count >= pieceSize {
                try emit(out.bytes)
                out.removeAll()
            }
        }
        out.append("  ]")
        out.append(text: String(text[slot.upperBound...]))
        try emit(out.bytes)
    }

}
