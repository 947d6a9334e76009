import WallCodecs

/// One variant's sheet of an album: its pages' files and sizes, and where each picture is on
/// them. A gallery's record keeps it as its album page draws it.
package struct AlbumSheet: Codable, Sendable, Equatable {
    package var columns: Int
    package var width: Int
    package var pages: [Page]
    /// Each picture's tile, in the album's order.
    package var tiles: [Box]

    /// The sheet of `columns` columns, `width` px wide.
    package init(columns: Int, width: Int, pages: [Page], tiles: [Box]) {
        self.columns = columns
        self.width = width
        self.pages = pages
        self.tiles = tiles
    }

    /// A page of the sheet: its file, relative to the site, and its size.
    package struct Page: Codable, Sendable, Equatable {
        package var file: String
        package var width: Int
        package var height: Int

        /// The page in `file`, `width` × `height` px.
        package init(file: String, width: Int, height: Int) {
            self.file = file
            self.width = width
            self.height = height
        }
    }

    /// Where a picture's tile is: its page and its rectangle on it.
    package struct Box: Codable, Sendable, Equatable {
        package var page: Int
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int

        /// The tile on `page` at `x`, `y`, `width` × `height` px.
        package init(page: Int, x: Int, y: Int, width: Int, height: Int) {
            self.page = page
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}

/// A picture of an album: its file's name, and what its tile says (a placeholder's reason, a
/// damaged file's mark).
package struct AlbumTile: Codable, Sendable, Equatable {
    package var name: String
    package var placeholder: String?
    package var damaged: Bool?

    /// The tile of the file `name`.
    package init(name: String, placeholder: String?, damaged: Bool?) {
        self.name = name
        self.placeholder = placeholder
        self.damaged = damaged
    }
}

/// A file of an album that could not be drawn, and why.
package struct SkippedFile: Codable, Sendable, Equatable {
    package var name: String
    package var reason: String

    /// The file `name`, not drawn for `reason`.
    package init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// What a picture's page shows of it.
package struct PictureFacts: Codable, Sendable, Equatable {
    package var format: String
    package var width: Int
    package var height: Int
    /// The size of the image the camera recorded, as shown, where the picture drawn is a
    /// smaller one the file holds (a RAW file's preview).
    package var capturedWidth: Int?
    package var capturedHeight: Int?
    package var bytes: Int64
    /// When it was taken, as ``ImageWall/CaptureDate`` found it (ISO 8601), and from what.
    package var date: String?
    package var dateFrom: String?
    package var camera: CameraInfo?
    package var details: PictureDetails?
    package var duration: Double?
    /// The long sides of its renditions, smallest first.
    package var sides: [Int]

    /// The facts of a picture in `format`, shown `width` × `height` px, of `bytes` bytes.
    package init(
        format: String, width: Int, height: Int, capturedWidth: Int? = nil, capturedHeight: Int? = nil,
        bytes: Int64, date: String?, dateFrom: String?, camera: CameraInfo?, details: PictureDetails?,
        duration: Double?, sides: [Int]
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.capturedWidth = capturedWidth
        self.capturedHeight = capturedHeight
        self.bytes = bytes
        self.date = date
        self.dateFrom = dateFrom
        self.camera = camera
        self.details = details
        self.duration = duration
        self.sides = sides
    }
}
