import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallFiles

/// Joins part files into the sheet's PNG pages, byte for byte those a single render writes:
/// their segments become the IDAT chunks in order, with the zlib stream's header and combined
/// Adler-32 and each chunk's CRC made here. Nothing is decoded or compressed again, and one
/// segment is held at a time.
enum PartAssembler {
    /// Checks that `paths` are every part of one sheet, each once, then writes its pages to
    /// `output` (named by ``OutputNaming``): PNGs, or Deep Zoom pyramids (tiles in `tiles`, made
    /// on `threads` threads) when `output` names that ``PageFormat``, their rows decoded from the parts as
    /// they stream. Returns the files written. Any fault names the part and leaves no output
    /// behind.
    static func assemble(
        _ paths: [String], to output: String, tiles: DeepZoomTileFormat = .png, threads: Int = 1,
        isCancelled: () -> Bool = { false }, alongside: Wall.AssemblyAlongside? = nil
    ) throws -> [String] {
        let ordered = try checkedParts(paths)
        let header = ordered[0].header
        let outputs = OutputNaming.pages(for: output, count: header.pages.count)
        let format = try PageFormat(path: output)
        guard format.isLossless else {
            throw PartError(
                output, .lossyOutput,
                "parts are assembled into PNG or Deep Zoom pages, the bytes one render writes; a \(format.name) sheet is rendered in one process (or made from the assembled PNG)"
            )
        }
        var pages: [PageAssembly] = []
        do {
            for (page, size) in header.pages.enumerated() {
                pages.append(
                    try PageAssembly(
                        size, header: header, to: outputs[page], format: format, tiles: tiles, threads: threads))
            }
            // Top-level tiles the parts made are put in the pyramids first, so none is made twice.
            if header.deepZoom == tiles && pages.contains(where: \.isDeepZoom) {
                for (path, _) in ordered {
                    let reader = try PartReader(path: path)
                    while let record = try reader.next() {
                        if isCancelled() { throw WallRunError.cancelled }
                        if case .tile(let page, let column, let row, let bytes) = record {
                            try pages[page].provide(column: column, row: row, bytes: bytes)
                        }
                    }
                }
            }
            var current = 0
            for (path, _) in ordered {
                let reader = try PartReader(path: path)
                while let record = try reader.next() {
                    if isCancelled() { throw WallRunError.cancelled }
                    guard case .segment(let page, let segment) = record else { continue }
                    guard page >= current else {
                        throw PartError(path, .damaged, "damaged: its segments go back to page \(page + 1)")
                    }
                    while current < page {
                        try pages[current].finish()
                        current += 1
                    }
                    // A segment that does not fit the page is the part's fault; a failure to write
                    // the page (a full disk) is the output's, and stays a write error.
                    if let problem = pages[page].writer.problem(appending: segment) {
                        throw PartError(path, .damaged, "damaged: \(problem) (page \(page + 1))")
                    }
                    do {
                        try pages[page].writer.append(segment)
                    } catch {
                        // A pyramid inflates the segments as they come: data that does not inflate
                        // is the part's fault; a page that cannot be written, the output's.
                        let failure: CodecError = error
                        guard failure.stage == .decode else { throw failure }
                        throw PartError(path, .damaged, "damaged: \(failure.reason) (page \(page + 1))")
                    }
                }
            }
            for page in pages[current...] { try page.finish() }
            var staged: [any StagedOutput] = pages.map(\.output)
            if let alongside {
                let written = Dictionary(
                    pages.compactMap { ($0.output as? AtomicFile).map { ($0.destination, $0.temporaryPath) } },
                    uniquingKeysWith: { first, _ in first })
                staged += try alongside(outputs, written)
            }
            try staged.commitAll()
        } catch {
            for page in pages { page.output.discard() }
            throw error
        }
        return outputs
    }

    /// One page being assembled: its PNG written as the segments come, or for a Deep Zoom
    /// pyramid the same PNG stream decoded row by row into the pyramid.
    private final class PageAssembly {
        let writer: PNGSegmentWriter
        let output: any CompletedPage
        /// The page's file (a PNG, or a pyramid's `.dzi`).
        let path: String
        private let end: () throws -> Void
        private let pyramid: DeepZoomWriter?

        /// Whether the page becomes a Deep Zoom pyramid.
        var isDeepZoom: Bool { pyramid != nil }

        /// Puts a top-level tile a part made into the pyramid.
        func provide(column: Int, row: Int, bytes: [UInt8]) throws {
            try pyramid?.provide(column: column, row: row, bytes: bytes)
        }

        init(
            _ page: PartHeader.Page, header: PartHeader, to path: String, format: PageFormat,
            tiles: DeepZoomTileFormat, threads: Int
        ) throws {
            self.path = path
            let size = Size(width: page.width, height: page.height)
            // Parts hold PNG segments: they are copied into a PNG, or inflated into a pyramid.
            precondition(format.isLossless, "refused before: \(format.name) pages are not assembled")
            if format == .deepZoom {
                let pyramid = try DeepZoomWriter(
                    destination: path, size: size, channels: page.alpha ? 4 : 3, format: tiles,
                    threads: threads)
                output = pyramid
                self.pyramid = pyramid
                let rows = try PNGRowStream(name: path) { row in try pyramid.add(rows: row, count: 1) }
                let writer = try PNGSegmentWriter(
                    name: path, size: size, hasAlpha: page.alpha, compression: header.compression,
                    software: header.software, bandHeight: SheetRenderer.defaultBandHeight
                ) { bytes throws(CodecError) in
                    do {
                        try rows.feed(bytes)
                    } catch let error as CodecError {
                        throw error
                    } catch {
                        throw CodecError(.write, path: path, reason: "\(error)")
                    }
                }
                self.writer = writer
                end = {
                    guard rows.isFinished else {
                        throw FileError(.write, path: path, reason: "the parts' rows end before the image does")
                    }
                    try pyramid.finishWriting()
                }
            } else {
                let file = try AtomicFile(destination: path)
                output = file
                pyramid = nil
                let writer = try PNGSegmentWriter(
                    file: file, size: size, hasAlpha: page.alpha, compression: header.compression,
                    software: header.software, bandHeight: SheetRenderer.defaultBandHeight)
                self.writer = writer
                end = { try file.finishWriting() }
            }
        }

        /// Ends the page once its last segment is in.
        func finish() throws {
            guard writer.isComplete else {
                throw PartError(
                    path, .incomplete, "the parts hold too few rows for this page: the image ended with rows missing")
            }
            try writer.finish()
            try end()
        }
    }

    /// The parts in order, once every header is read and they are found to be all the parts
    /// of one sheet, each once, together holding every row.
    private static func checkedParts(_ paths: [String]) throws -> [(path: String, header: PartHeader)] {
        guard !paths.isEmpty else { throw PartError("assemble", .noParts, "no part files given") }
        let parts = try paths.map { path in (path: path, header: try PartReader(path: path).header) }
        let first = parts[0]
        var byNumber: [Int: String] = [:]
        for (path, header) in parts {
            guard header.manifest == first.header.manifest else {
                throw PartError(
                    path, .mismatched,
                    "a part of another manifest (\(header.manifest.prefix(12))…) than \(first.path) "
                        + "(\(first.header.manifest.prefix(12))…)")
            }
            guard header.parts == first.header.parts else {
                throw PartError(
                    path, .mismatched,
                    "part \(header.part) of \(header.parts), but \(first.path) is one of \(first.header.parts)")
            }
            guard header.software == first.header.software else {
                throw PartError(
                    path, .mismatched, "rendered by \(header.software), but \(first.path) by \(first.header.software)")
            }
            guard header.settings == first.header.settings, header.compression == first.header.compression,
                header.pages == first.header.pages, header.deepZoom == first.header.deepZoom
            else {
                throw PartError(
                    path, .mismatched,
                    "rendered with other settings than \(first.path) (give every worker the same options)")
            }
            if let other = byNumber[header.part] {
                throw PartError(path, .repeated, "part \(header.part) of \(header.parts) again (\(other) is too)")
            }
            byNumber[header.part] = path
        }
        let missing = (1...first.header.parts).filter { byNumber[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw PartError(
                "assemble", .incomplete,
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
                else { throw PartError(path, .mismatched, "its rows do not follow the part before it") }
                row = rows.to
            }
        }
        guard page == first.header.pages.count - 1, row == first.header.pages[page].height else {
            throw PartError(ordered.last!.path, .incomplete, "the parts end before the sheet does")
        }
        return ordered
    }
}
