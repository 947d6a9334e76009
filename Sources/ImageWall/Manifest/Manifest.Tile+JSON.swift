import WallCore
import WallJSON

extension Manifest.Tile {
    /// Appends the tile's JSON text on one line, written directly (the bulk of a big
    /// manifest): the text Foundation's `JSONEncoder` gives for it with `.sortedKeys` and
    /// `.withoutEscapingSlashes`, keys in byte order. Rare fields (a sort key, a recipe) go
    /// through the general encoder.
    func writeJSON(to out: inout JSONBytes) throws {
        var first = true
        func key(_ name: StaticString) {
            out.append(first ? "{\"" : ",\"")
            first = false
            out.append(name)
            out.append("\":")
        }
        func field(_ name: StaticString, _ value: Int) {
            key(name)
            out.append(value)
        }
        func field(_ name: StaticString, quoted text: String) {
            key(name)
            out.append(quoted: text)
        }
        func field(_ name: StaticString, quoted texts: [String]) {
            key(name)
            out.append("[")
            for (n, text) in texts.enumerated() {
                if n > 0 { out.append(",") }
                out.append(quoted: text)
            }
            out.append("]")
        }
        func encoded(_ name: StaticString, _ value: some Encodable) throws {
            key(name)
            out.append(text: try JSONText.text(of: value, compact: true))
        }
        /// A box's fields (height, width, x, y, as sorted), each written by `write`.
        func box<Value>(_ values: (Value, Value, Value, Value), _ write: (inout JSONBytes, Value) throws -> Void)
            throws
        {
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
            key("caption")
            try box(caption)
        }
        key("cell")
        try box(cell)
        if let companions { field("companions", quoted: companions) }
        key("crop")
        if let crop {
            try box((crop.height, crop.width, crop.x, crop.y)) { $0.append(text: try JSONText.number($1)) }
        } else {
            out.append("null")
        }
        if let cropBy { field("cropBy", quoted: cropBy) }
        if damaged == true {
            key("damaged")
            out.append("true")
        }
        if let date { field("date", quoted: date) }
        if let dateFrom { field("dateFrom", quoted: dateFrom.rawValue) }
        if let decodedFor { try encoded("decodedFor", decodedFor) }
        if let drawnFrom { field("drawnFrom", quoted: drawnFrom) }
        if let duration { try encoded("duration", duration) }
        if let format { field("format", quoted: format) }
        field("height", height)
        field("index", index)
        if let inexactDecoder { field("inexactDecoder", quoted: inexactDecoder) }
        if let mark { field("mark", quoted: mark.rawValue) }
        if let notes { field("notes", quoted: notes) }
        field("orientation", orientation)
        field("page", page)
        if let path { field("path", quoted: path) }
        if let placeholder { field("placeholder", quoted: placeholder) }
        if let root { field("root", root) }
        field("section", section)
        if let sortKey { try encoded("sortKey", sortKey) }
        field("source", quoted: source)
        field("sourceHeight", sourceHeight)
        if let sourcePage { field("sourcePage", sourcePage) }
        field("sourceWidth", sourceWidth)
        if let stack { try encoded("stack", stack) }
        if let via { try encoded("via", via) }
        field("warnings", quoted: warnings)
        field("width", width)
        field("x", x)
        field("y", y)
        out.append("}")
    }
}

extension Manifest.Tile {
    /// The members a render writes for nearly every tile, which ``quickly(_:)`` reads.
    private enum QuickMember: Int, CaseIterable {
        case cell, crop, format, height, index, orientation, page, path, root, section, source, sourceHeight
        case sourceWidth, warnings, width, x, y

        /// The member named by the UTF-8 bytes `key`, if it is one of these.
        init?(_ key: UnsafeRawBufferPointer) {
            guard let first = key.first else { return nil }
            for (member, name) in QuickMember.names
            where name.count == key.count && name[0] == first && name.elementsEqual(key) {
                self = member
                return
            }
            return nil
        }

        private static let names = allCases.map { ($0, Array("\($0)".utf8)) }
    }

    /// The tile `value` holds, read without a `Decoder` when it is made of the members a render
    /// writes (``QuickMember``), each of the kind written (whole numbers, texts, `crop` null or
    /// a region), none twice; else `nil`, and the `Decoder` reads it (or says what is wrong).
    /// The same tile either way: the bulk of a million-tile manifest is read this way.
    static func quickly(_ value: JSONValueView) -> Manifest.Tile? {
        var numbers = [Int?](repeating: nil, count: QuickMember.allCases.count)
        var source: String?, path: String?, format: String?, warnings: [String]?, cell: Manifest.Box?
        var crop: Region?
        var seen: UInt32 = 0
        let read = value.members { key, member in
            guard let field = QuickMember(key), seen & 1 << field.rawValue == 0 else { return false }
            seen |= 1 << field.rawValue
            switch field {
            case .source:
                source = member.string
                return source != nil
            case .path:
                path = member.string
                return path != nil
            case .format:
                format = member.string
                return format != nil
            case .warnings:
                warnings = member.strings
                return warnings != nil
            case .cell:
                cell = Manifest.Box(member)
                return cell != nil
            case .crop:
                crop = Region(member)
                return member.isNull || crop != nil
            default:
                numbers[field.rawValue] = member.integer
                return numbers[field.rawValue] != nil
            }
        }
        func number(_ member: QuickMember) -> Int? { numbers[member.rawValue] }
        guard read, let source, let warnings, let cell, let index = number(.index), let page = number(.page),
            let x = number(.x), let y = number(.y), let width = number(.width), let height = number(.height),
            let sourceWidth = number(.sourceWidth), let sourceHeight = number(.sourceHeight),
            let orientation = number(.orientation), let section = number(.section)
        else { return nil }
        return Manifest.Tile(
            index: index, page: page, source: source, root: number(.root), path: path, x: x, y: y, width: width,
            height: height, sourceWidth: sourceWidth, sourceHeight: sourceHeight, orientation: orientation,
            format: format, crop: crop, cell: cell, section: section, warnings: warnings)
    }
}

extension Region {
    /// The region `value` holds when it is written as a render writes one: its four members
    /// `x`, `y`, `width` and `height` (each once, no other), numbers; else `nil`, for the `Decoder`.
    fileprivate init?(_ value: JSONValueView) {
        guard value.memberCount == 4, let x = value[member: "x"]?.number, let y = value[member: "y"]?.number,
            let width = value[member: "width"]?.number, let height = value[member: "height"]?.number
        else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }
}

extension Manifest.Box {
    /// The box `value` holds when it is written as a render writes one: its four members `x`, `y`,
    /// `width` and `height` (each once, no other), whole numbers; else `nil`, for the `Decoder`.
    init?(_ value: JSONValueView) {
        guard value.memberCount == 4, let x = value[member: "x"]?.integer, let y = value[member: "y"]?.integer,
            let width = value[member: "width"]?.integer, let height = value[member: "height"]?.integer
        else { return nil }
        self.init(Rect(x: x, y: y, width: width, height: height))
    }
}
