import WallCodecs
import WallCore

/// Joins part files into the sheet's PNG pages, byte for byte those a single render writes:
/// their segments become the IDAT chunks in order, with the zlib stream's header and combined
/// Adler-32 and each chunk's CRC made here. Nothing is decoded or compressed again, and one
/// segment is held at a time.
enum PartAssembler {
    /// Checks that `paths` are every part of one sheet, each once, then writes its pages to
    /// `output` (named by ``PageNaming``); returns the files written. Any fault names the part
    /// and leaves no output behind.
    static func assemble(_ paths: [String], to output: String, isCancelled: () -> Bool = { false }) throws
        -> [String]
    {
        let ordered = try checkedParts(paths)
        let header = ordered[0].header
        let outputs = PageNaming.paths(for: output, count: header.pages.count)
        var files: [AtomicFile] = []
        do {
            var writer: PNGSegmentWriter?
            for (path, _) in ordered {
                let reader = try PartReader(path: path)
                var page = -1
                while let (segmentPage, segment) = try reader.next() {
                    if isCancelled() { throw WallRunError.cancelled }
                    if segmentPage != page {
                        guard segmentPage >= files.count - 1 else {
                            throw PartError(path, "damaged: its segments go back to page \(segmentPage + 1)")
                        }
                        page = segmentPage
                        if segmentPage == files.count {
                            try finish(writer, files.last)
                            let size = header.pages[page]
                            let file = try AtomicFile(destination: outputs[page])
                            files.append(file)
                            writer = try PNGSegmentWriter(
                                file: file, size: Size(width: size.width, height: size.height), hasAlpha: size.alpha,
                                compression: header.compression, software: header.software)
                        }
                    }
                    guard let writer, page == files.count - 1 else {
                        throw PartError(path, "damaged: segment of page \(segmentPage + 1) out of order")
                    }
                    do {
                        try writer.append(segment)
                    } catch {
                        throw PartError(path, "damaged: \(error.reason) (page \(page + 1))")
                    }
                }
            }
            try finish(writer, files.last)
            guard files.count == header.pages.count else {
                throw PartError(ordered.last!.path, "damaged: the parts end before page \(files.count + 1)")
            }
            for file in files { try file.commit() }
        } catch {
            for file in files { file.discard() }
            throw error
        }
        return outputs
    }

    /// Ends a finished page's PNG.
    private static func finish(_ writer: PNGSegmentWriter?, _ file: AtomicFile?) throws {
        guard let writer, let file else { return }
        do {
            try writer.finish()
        } catch {
            throw PartError(file.destination, "the parts hold too few rows for this page: \(error.reason)")
        }
        try file.finishWriting()
    }

    /// The parts in order, once every header is read and they are found to be all the parts
    /// of one sheet, each once, together holding every row.
    private static func checkedParts(_ paths: [String]) throws -> [(path: String, header: PartHeader)] {
        guard !paths.isEmpty else { throw PartError("assemble", "no part files given") }
        let parts = try paths.map { path in (path: path, header: try PartReader(path: path).header) }
        let first = parts[0]
        var byNumber: [Int: String] = [:]
        for (path, header) in parts {
            guard header.manifest == first.header.manifest else {
                throw PartError(
                    path,
                    "a part of another manifest (\(header.manifest.prefix(12))…) than \(first.path) "
                        + "(\(first.header.manifest.prefix(12))…)")
            }
            guard header.parts == first.header.parts else {
                throw PartError(
                    path, "part \(header.part) of \(header.parts), but \(first.path) is one of \(first.header.parts)")
            }
            guard header.software == first.header.software else {
                throw PartError(path, "rendered by \(header.software), but \(first.path) by \(first.header.software)")
            }
            guard header.settings == first.header.settings, header.compression == first.header.compression,
                header.pages == first.header.pages
            else {
                throw PartError(
                    path, "rendered with other settings than \(first.path) (give every worker the same options)")
            }
            if let other = byNumber[header.part] {
                throw PartError(path, "part \(header.part) of \(header.parts) again (\(other) is too)")
            }
            byNumber[header.part] = path
        }
        let missing = (1...first.header.parts).filter { byNumber[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw PartError(
                "assemble",
                "\(missing.count == 1 ? "part" : "parts") \(list) of \(first.header.parts) missing "
                    + "(\(parts.count) given)")
        }
        let ordered = parts.sorted { $0.header.part < $1.header.part }
        // Together the parts' rows are every page's, top to bottom, in order.
        var page = 0, row = 0
        for (path, header) in ordered {
            for rows in header.rows {
                if rows.page == page + 1 && row == first.header.pages[page].height { (page, row) = (page + 1, 0) }
                guard rows.page == page, rows.from == row, rows.to > rows.from,
                    rows.to <= first.header.pages[page].height
                else { throw PartError(path, "its rows do not follow the part before it") }
                row = rows.to
            }
        }
        guard page == first.header.pages.count - 1, row == first.header.pages[page].height else {
            throw PartError(ordered.last!.path, "the parts end before the sheet does")
        }
        return ordered
    }
}
