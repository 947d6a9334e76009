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

/// Writes a manifest as key-sorted JSON, atomically, one tile at a time: a manifest held whole
/// needs no more memory than itself, a ``StreamedManifest`` (what `imagewall layout --json` and
/// a render write) no more than one tile and a piece of text. All but the tiles is the text of
/// Foundation's `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes`;
/// each tile is that encoder's text without `.prettyPrinted`, on a line of its own — half the
/// bytes of pretty tiles, a tile to a line for `grep` and line-by-line tools, and half the
/// parsing for a reader.
public enum ManifestWriter {
    /// The JSON text of `manifest`, identical for identical manifests.
    public static func encode(_ manifest: Manifest) throws -> Data {
        try encode(StreamedManifest(manifest))
    }

    /// The JSON text of `manifest`, its tiles made and written on up to `threads` threads: the
    /// text of its ``StreamedManifest/manifest`` held whole, on any number of threads.
    public static func encode(_ manifest: StreamedManifest, threads: Int = 1) throws -> Data {
        var data = Data()
        try stream(manifest, threads: threads) { data.append($0) }
        return data
    }

    /// Writes `manifest` to `path`, recording where its roots are from there (see
    /// ``Manifest/Root/fromManifest``).
    public static func write(_ manifest: Manifest, to path: String) throws {
        try write(StreamedManifest(manifest), to: path)
    }

    /// Writes `manifest` to `path`, its tiles made and written on up to `threads` threads,
    /// recording where its roots are from there (see ``Manifest/Root/fromManifest``).
    public static func write(_ manifest: StreamedManifest, to path: String, threads: Int = 1) throws {
        try stage(manifest, to: path, threads: threads).commit()
    }

    /// Writes `manifest` for `path` into a temporary file beside it, complete but not yet in
    /// place: ``AtomicFile/commit()`` puts it there, ``AtomicFile/discard()`` removes it.
    static func stage(_ manifest: StreamedManifest, to path: String, threads: Int = 1) throws -> AtomicFile {
        var located = manifest
        located.outline.locateRoots(from: path)
        let file = try AtomicFile(destination: path)
        do {
            // Each piece told to the file, which flushes it to the disk a few MB at a time while
            // the rest is written: the flush at the end waits for the last few only (a million
            // tiles are 300 MB).
            try write(located, to: file.handle, named: path, threads: threads, wrote: file.wrote)
            try file.finishWriting()
        } catch {
            file.discard()
            throw error
        }
        return file
    }

    /// Writes `manifest` to an open file.
    public static func write(_ manifest: Manifest, to handle: UnsafeMutablePointer<FILE>, named name: String) throws {
        try write(StreamedManifest(manifest), to: handle, named: name)
    }

    /// Writes `manifest` to an open file (standard output for `imagewall layout --json`), its
    /// tiles made and written on up to `threads` threads.
    public static func write(
        _ manifest: StreamedManifest, to handle: UnsafeMutablePointer<FILE>, named name: String, threads: Int = 1
    ) throws {
        try write(manifest, to: handle, named: name, threads: threads, wrote: { _ in })
    }

    /// Writes `manifest` to an open file, telling `wrote` how many bytes each piece held.
    private static func write(
        _ manifest: StreamedManifest, to handle: UnsafeMutablePointer<FILE>, named name: String, threads: Int,
        wrote: (Int) -> Void
    ) throws {
        try stream(manifest, threads: threads) { bytes in
            guard fwrite(bytes.baseAddress, 1, bytes.count, handle) == bytes.count else {
                throw FileError(.write, path: name, reason: systemErrorText())
            }
            wrote(bytes.count)
        }
        guard fflush(handle) == 0 else {
            throw FileError(.write, path: name, reason: systemErrorText())
        }
    }

    /// Tiles a batch holds: about 300 KB of text.
    static let batchSize = 1024

    /// The manifest's text in pieces, in order: all but the tiles as one text, then the tiles,
    /// one to a line, a batch at a time on up to `threads` threads, each tile made as its batch
    /// is written; the batches are emitted in order (by the thread that wrote each), so the text
    /// is the same on any number of threads.
    static func stream(
        _ manifest: StreamedManifest, threads: Int = 1, _ emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        let text = try JSONText.text(of: manifest.outline) + "\n"
        let empty = "\n  \"tiles\" : [\n\n  ]"
        guard manifest.tileCount > 0, let slot = text.range(of: empty) else {
            var whole = text
            try whole.withUTF8(emit)
            return
        }
        var head = JSONBytes()
        head.append(text: String(text[..<slot.lowerBound]))
        head.append("\n  \"tiles\" : [\n")
        try head.withText(emit)
        // Each batch written on whichever thread is free, and emitted as soon as those before it were.
        let batches = (manifest.tileCount + batchSize - 1) / batchSize
        try parallelForEach(
            batches, threads: threads,
            { batch in
                let start = batch * batchSize
                return try lines(of: manifest, start..<min(manifest.tileCount, start + batchSize))
            }, consume: { try $0.withText(emit) })
        var tail = JSONBytes()
        tail.append("  ]")
        tail.append(text: String(text[slot.upperBound...]))
        try tail.withText(emit)
    }

    /// Tiles `range` of `manifest`, each on a line of its own, a comma after all but the last.
    private static func lines(of manifest: StreamedManifest, _ range: Range<Int>) throws -> JSONBytes {
        // About 260 bytes a tile of a layout, 320 a rendered one: rarely grown.
        var out = JSONBytes(capacity: 320 * range.count)
        let last = manifest.tileCount - 1
        for n in range {
            let tile = manifest.tile(n)
            try out.write { line in
                line.indent(2)
                try tile.writeJSON(to: &line)
                line.append(n == last ? "\n" : ",\n")
            }
        }
        return out
    }
}
