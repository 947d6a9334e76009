extension Manifest.Tile {
    /// Appends the tile's JSON text nested `level` deep, written directly (the bulk of a big
    /// manifest): the same text as ``JSONText/text(of:level:)`` gives for it, keys in byte
    /// order. Rare fields (a sort key, a recipe, notes) go through the general encoder.
    func writeJSON(to out: inout JSONBytes, level: Int) throws {
        func key(_ name: StaticString) {
            out.indent(level + 1)
            out.append("\"")
            out.append(name)
            out.append("\" : ")
        }
        func field(_ name: StaticString, _ value: Int) {
            key(name)
            out.append(value)
            out.append(",\n")
        }
        func field(_ name: StaticString, quoted text: String) {
            key(name)
            out.append(quoted: text)
            out.append(",\n")
        }
        func encoded(_ name: StaticString, _ value: some Encodable) throws {
            key(name)
            out.append(text: try JSONText.text(of: value, level: level + 1))
            out.append(",\n")
        }
        /// A box's fields (height, width, x, y, as sorted), each written by `write`.
        func box<Value>(_ values: (Value, Value, Value, Value), _ write: (inout JSONBytes, Value) throws -> Void)
            throws
        {
            func member(_ name: StaticString, _ value: Value, last: Bool = false) throws {
                out.indent(level + 2)
                out.append("\"")
                out.append(name)
                out.append("\" : ")
                try write(&out, value)
                out.append(last ? "\n" : ",\n")
            }
            out.append("{\n")
            try member("height", values.0)
            try member("width", values.1)
            try member("x", values.2)
            try member("y", values.3, last: true)
            out.indent(level + 1)
            out.append("}")
        }
        func box(_ b: Manifest.Box) throws {
            try box((b.height, b.width, b.x, b.y)) { $0.append($1) }
        }
        out.append("{\n")
        if let caption {
            key("caption")
            try box(caption)
            out.append(",\n")
        }
        key("cell")
        try box(cell)
        out.append(",\n")
        if let companions { try encoded("companions", companions) }
        key("crop")
        if let crop {
            try box((crop.height, crop.width, crop.x, crop.y)) { $0.append(text: try Leaf.number($1)) }
        } else {
            out.append("null")
        }
        out.append(",\n")
        if let date { field("date", quoted: date) }
        if let dateFrom { field("dateFrom", quoted: dateFrom.rawValue) }
        if let decodedFor { try encoded("decodedFor", decodedFor) }
        if let drawnFrom { field("drawnFrom", quoted: drawnFrom) }
        if let duration { try encoded("duration", duration) }
        if let format { field("format", quoted: format) }
        field("height", height)
        field("index", index)
        if let mark { field("mark", quoted: mark.rawValue) }
        if let notes { try encoded("notes", notes) }
        field("orientation", orientation)
        field("page", page)
        if let path { field("path", quoted: path) }
        if let placeholder { field("placeholder", quoted: placeholder) }
        if let root { field("root", root) }
        field("section", section)
        if let sortKey { try encoded("sortKey", sortKey) }
        field("source", quoted: source)
        field("sourceHeight", sourceHeight)
        field("sourceWidth", sourceWidth)
        if let via { try encoded("via", via) }
        if warnings.isEmpty {
            key("warnings")
            out.append("[\n\n")
            out.indent(level + 1)
            out.append("],\n")
        } else {
            try encoded("warnings", warnings)
        }
        field("width", width)
        field("x", x)
        key("y")
        out.append(y)
        out.append("\n")
        out.indent(level)
        out.append("}")
    }
}
