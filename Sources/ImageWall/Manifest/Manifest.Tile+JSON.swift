import WallCore
import WallJSON

extension Manifest.Tile {
    /// Appends the tile's JSON text on one line, written directly (the bulk of a big
    /// manifest): the text Foundation's `JSONEncoder` gives for it with `.sortedKeys` and
    /// `.withoutEscapingSlashes`, keys in byte order. Rare fields (a sort key, a recipe) go
    /// through the general encoder. Writes the same text each time (see ``JSONBytes/write(_:)``).
    func writeJSON(to out: inout JSONBytes.Cursor) throws {
        // Each key is written with the comma before it, in one piece: every tile has a cell,
        // and only a caption sorts before it, so one of the two opens the object.
        func field(_ key: StaticString, _ value: Int) {
            out.append(key)
            out.append(value)
        }
        func field(_ key: StaticString, quoted text: String) {
            out.append(key)
            out.append(quoted: text)
        }
        func field(_ key: StaticString, quoted texts: [String]) {
            out.append(key)
            out.append("[")
            for (n, text) in texts.enumerated() {
                if n > 0 { out.append(",") }
                out.append(quoted: text)
            }
            out.append("]")
        }
        func encoded(_ key: StaticString, _ value: some Encodable) throws {
            out.append(key)
            out.append(text: try JSONText.text(of: value, compact: true))
        }
        /// A box's fields (height, width, x, y, as sorted), each written by `write`.
        func box<Value>(
            _ values: (Value, Value, Value, Value), _ write: (inout JSONBytes.Cursor, Value) throws -> Void
        ) throws {
            out.append("{\"height\":")
            try write(&out, values.0)
            out.append(",\"width\":")
            try write(&out, values.1)
            out.append(",\"x\":")
            try write(&out, values.2)
            out.append(",\"y\":")
            try write(&out, values.3)
            out.append("}")
        }
        func box(_ b: Manifest.Box) throws {
            try box((b.height, b.width, b.x, b.y)) { $0.append($1) }
        }
        if let caption {
            out.append("{\"caption\":")
            try box(caption)
            out.append(",\"cell\":")
        } else {
            out.append("{\"cell\":")
        }
        try box(cell)
        if let companions { field(",\"companions\":", quoted: companions) }
        if let crop {
            out.append(",\"crop\":")
            try box((crop.height, crop.width, crop.x, crop.y)) { try $0.append(number: $1) }
        } else {
            out.append(",\"crop\":null")
        }
        if let cropBy { field(",\"cropBy\":", quoted: cropBy) }
        if damaged == true { out.append(",\"damaged\":true") }
        if let date { field(",\"date\":", quoted: date) }
        if let dateFrom { field(",\"dateFrom\":", quoted: dateFrom.rawValue) }
        if let decodedFor { try encoded(",\"decodedFor\":", decodedFor) }
        if let drawnFrom { field(",\"drawnFrom\":", quoted: drawnFrom) }
        if let duration { try encoded(",\"duration\":", duration) }
        if let format { field(",\"format\":", quoted: format) }
        field(",\"height\":", height)
        field(",\"index\":", index)
        if let inexactDecoder { field(",\"inexactDecoder\":", quoted: inexactDecoder) }
        if let mark { field(",\"mark\":", quoted: mark.rawValue) }
        if let notes { field(",\"notes\":", quoted: notes) }
        field(",\"orientation\":", orientation)
        field(",\"page\":", page)
        if let path { field(",\"path\":", quoted: path) }
        if let placeholder { field(",\"placeholder\":", quoted: placeholder) }
        if let root { field(",\"root\":", root) }
        field(",\"section\":", section)
        if let sortKey { try encoded(",\"sortKey\":", sortKey) }
        field(",\"source\":", quoted: source)
        field(",\"sourceHeight\":", sourceHeight)
        if let sourcePage { field(",\"sourcePage\":", sourcePage) }
        field(",\"sourceWidth\":", sourceWidth)
        if let stack { try encoded(",\"stack\":", stack) }
        if let via { try encoded(",\"via\":", via) }
        if warnings.isEmpty {
            out.append(",\"warnings\":[]")
        } else {
            field(",\"warnings\":", quoted: warnings)
        }
        field(",\"width\":", width)
        field(",\"x\":", x)
        field(",\"y\":", y)
        out.append("}")
    }
}

extension Manifest.Tile {
    /// A tile read member by member, without a `Decoder`, when it is made of the members a
    /// render writes for nearly every tile, each of the kind written (whole numbers, texts,
    /// `crop` null or a region), none twice; any other member or kind, and the `Decoder` reads
    /// it (or says what is wrong). The same tile either way: the bulk of a million-tile manifest
    /// is read this way, from either JSON reader.
    struct Reading: MemberReading {
        private var index: Int?, page: Int?, root: Int?, x: Int?, y: Int?, width: Int?, height: Int?
        private var sourceWidth: Int?, sourceHeight: Int?, orientation: Int?, section: Int?
        private var source: String?, path: String?, format: String?, warnings: [String]?
        private var cell: Manifest.Box?, crop: Region?, cropSeen = false

        init() {}

        mutating func take<Member: JSONMemberValue>(_ key: UnsafeRawBufferPointer, _ value: Member) -> Bool {
            switch key.count {
            case 1:
                if key.holds("x") { return setOnce(&x, value.integer) }
                return key.holds("y") && setOnce(&y, value.integer)
            case 4:
                if key.holds("cell") { return setOnce(&cell, Manifest.Box(value)) }
                if key.holds("page") { return setOnce(&page, value.integer) }
                if key.holds("path") { return setOnce(&path, value.string) }
                if key.holds("root") { return setOnce(&root, value.integer) }
                guard key.holds("crop"), !cropSeen else { return false }
                cropSeen = true
                crop = Region(value)
                return crop != nil || value.isNull
            case 5:
                if key.holds("index") { return setOnce(&index, value.integer) }
                return key.holds("width") && setOnce(&width, value.integer)
            case 6:
                if key.holds("height") { return setOnce(&height, value.integer) }
                if key.holds("source") { return setOnce(&source, value.string) }
                return key.holds("format") && setOnce(&format, value.string)
            case 7: return key.holds("section") && setOnce(&section, value.integer)
            case 8: return key.holds("warnings") && setOnce(&warnings, value.strings)
            case 11:
                if key.holds("sourceWidth") { return setOnce(&sourceWidth, value.integer) }
                return key.holds("orientation") && setOnce(&orientation, value.integer)
            case 12: return key.holds("sourceHeight") && setOnce(&sourceHeight, value.integer)
            default: return false
            }
        }

        func finish() -> Manifest.Tile? {
            guard let source, let warnings, let cell, let index, let page, let x, let y, let width, let height,
                let sourceWidth, let sourceHeight, let orientation, let section
            else { return nil }
            return Manifest.Tile(
                index: index, page: page, source: source, root: root, path: path, x: x, y: y, width: width,
                height: height, sourceWidth: sourceWidth, sourceHeight: sourceHeight, orientation: orientation,
                format: format, crop: crop, cell: cell, section: section, warnings: warnings)
        }
    }
}

/// A box's or a region's four sides read member by member, as a render writes them: the members
/// `x`, `y`, `width` and `height`, each once and no other, each a `Number`.
struct SidesReading<Number: SideNumber>: MemberReading {
    private var x: Number?, y: Number?, width: Number?, height: Number?

    init() {}

    mutating func take<Member: JSONMemberValue>(_ key: UnsafeRawBufferPointer, _ value: Member) -> Bool {
        let number = Number.side(of: value)
        if key.holds("x") { return setOnce(&x, number) }
        if key.holds("y") { return setOnce(&y, number) }
        if key.holds("width") { return setOnce(&width, number) }
        return key.holds("height") && setOnce(&height, number)
    }

    func finish() -> (x: Number, y: Number, width: Number, height: Number)? {
        guard let x, let y, let width, let height else { return nil }
        return (x, y, width, height)
    }
}

/// A number a side is read as: a box's whole number, a region's `Double`.
protocol SideNumber {
    /// The number `value` holds, when it is of this kind.
    static func side(of value: some JSONMemberValue) -> Self?
}

extension Int: SideNumber {
    static func side(of value: some JSONMemberValue) -> Int? { value.integer }
}

extension Double: SideNumber {
    static func side(of value: some JSONMemberValue) -> Double? { value.number }
}

extension Manifest.Box {
    /// The box `value` holds when it is written as a render writes one (see ``SidesReading``).
    init?(_ value: some JSONMemberValue) {
        guard let sides = value.read(SidesReading<Int>.self) else { return nil }
        self.init(Rect(x: sides.x, y: sides.y, width: sides.width, height: sides.height))
    }
}

extension Region {
    /// The region `value` holds when it is written as a render writes one (see ``SidesReading``).
    init?(_ value: some JSONMemberValue) {
        guard let sides = value.read(SidesReading<Double>.self) else { return nil }
        self.init(x: sides.x, y: sides.y, width: sides.width, height: sides.height)
    }
}
