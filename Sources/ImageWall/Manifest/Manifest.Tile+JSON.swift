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
