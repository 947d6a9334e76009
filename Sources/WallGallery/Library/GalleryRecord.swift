import Foundation
import ImageWall
import WallCodecs
import WallCore
import WallFiles
import WallJSON
import WallPages

/// What a gallery knows from its last build, kept in the site (`.imagewall-gallery.json`): every
/// file of the tree it looked at with its stamp (so an unchanged file is not read again), what
/// it read of each picture, each album's sheets and pages, and every file it wrote in the site
/// (the only ones it ever removes).
struct GalleryRecord: Codable, Sendable, Equatable {
    /// The record's layout; another is read as no record.
    var version = GalleryRecord.currentVersion
    static let currentVersion = 2
    /// The key of the settings the sheets were drawn with (see ``GalleryBuild``).
    var settings = ""
    /// The tree's folder, absolute.
    var tree = ""
    /// Every file looked at, by its path in the tree.
    var files: [String: FileEntry] = [:]
    /// Every album, by its folder's path in the tree ("" for the tree itself).
    var albums: [String: AlbumEntry] = [:]
    /// Every file the gallery wrote in the site and keeps, relative to it.
    var written: Set<String> = []

    /// A file of the tree as last seen.
    struct FileEntry: Codable, Sendable, Equatable {
        var stamp: FileStamp
        /// Whether its name or first bytes say image (one ImageWall reads, or another): a change
        /// to such a file changes its album.
        var looksLikeImage: Bool
        /// Its content's key (XXH3-128), once read.
        var key: String?
        /// What was read of it for its page, once drawn.
        var picture: PictureEntry?
    }

    /// What a picture's page shows of it, as the pages take it.
    typealias PictureEntry = PictureFacts

    /// An album: its sheets, what they show, and the pages written for it.
    struct AlbumEntry: Codable, Sendable, Equatable {
        /// The key of its sheets: the settings and, in order, each file's name and content.
        var sheetKey: String
        /// Each variant's sheet.
        var sheets: [SheetEntry]
        /// Its pictures in the sheets' order: a tile each.
        var pictures: [TileEntry]
        /// Files drawn with another (a Live Photo's movie, a RAW beside its JPEG), by the name
        /// of the picture drawn.
        var companions: [String: [String]] = [:]
        /// Files that could not be drawn, with the reason.
        var skipped: [SkippedEntry] = []
        /// The key of everything its pages show; pages are written again when it changes.
        var pagesKey = ""
        /// Its pages, relative to the site.
        var pages: [String] = []
    }

    /// One variant's sheet, its pages and where each picture is on them; a picture of an album
    /// and what its tile says; a file not drawn: as the album's page takes them.
    typealias SheetEntry = AlbumSheet
    typealias PageEntry = AlbumSheet.Page
    typealias Box = AlbumSheet.Box
    typealias TileEntry = AlbumTile
    typealias SkippedEntry = SkippedFile

    /// The record in `site`, or an empty one when there is none or it cannot be read (a
    /// record of another layout, or damaged: the build then starts over, reading every file).
    static func read(site: String) -> (record: GalleryRecord, problem: String?) {
        let path = site + "/" + SitePaths.record
        guard let data = try? FileContents.read(path) else { return (GalleryRecord(), nil) }
        do {
            let record = try JSONReader().decode(GalleryRecord.self, from: Array(data))
            guard record.version == currentVersion else {
                return (GalleryRecord(), "\(path) is of another ImageWall: built again")
            }
            return (record, nil)
        } catch {
            return (GalleryRecord(), "\(path) cannot be read (\(error)): built again")
        }
    }

    /// Encodes the record, the files written in byte order, so that the same build writes the
    /// same bytes (a set's order changes from process to process).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(settings, forKey: .settings)
        try container.encode(tree, forKey: .tree)
        try container.encode(files, forKey: .files)
        try container.encode(albums, forKey: .albums)
        try container.encode(written.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, forKey: .written)
    }

    /// Writes the record into `site`, whole or not at all.
    func write(site: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(Array(try encoder.encode(self)), to: site + "/" + SitePaths.record)
    }
}
